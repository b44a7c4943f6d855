import type { Db } from '../../db/knex';
import { ChatConversation, ChatMessage } from '../../db/models';
import { toIso } from '../../db/timestamps';
import { notFound } from '../../errors';
import type { Principal } from '../auth/principal';
import { newestFirstPage, type CursorRow, type Page } from '../common/cursor';
import type { ChatCitation, ChatMessageDto, ChatToolCall, ConversationDto } from './schema';

const conversationDto = (c: Pick<ChatConversation, 'id' | 'title' | 'createdAt' | 'updatedAt'>): ConversationDto => ({
  id: c.id,
  title: c.title,
  createdAt: toIso(c.createdAt),
  updatedAt: toIso(c.updatedAt),
});

const messageDto = (m: ChatMessage): ChatMessageDto => ({
  id: m.id,
  role: m.role === 'user' ? 'user' : 'assistant',
  content: m.content,
  toolCalls: m.toolCalls,
  citations: m.citations,
  createdAt: toIso(m.createdAt),
});

// A conversation is its user's alone, in the team it was held in: anyone else gets 404.
const mine = (db: Db, p: Principal) => ChatConversation.query(db).where({ teamId: p.teamId, userId: p.userId });

async function findMine(db: Db, p: Principal, id: string): Promise<ChatConversation> {
  const conversation = await mine(db, p).findById(id);
  if (!conversation) throw notFound(`Conversation ${id} not found`);
  return conversation;
}

type ConversationRow = CursorRow & Pick<ChatConversation, 'title' | 'createdAt' | 'updatedAt'>;

export async function listConversations(
  db: Db,
  p: Principal,
  query: { cursor?: string; pageSize: number },
): Promise<Page<ConversationDto>> {
  const q = db('chat_conversations as c')
    .where({ 'c.teamId': p.teamId, 'c.userId': p.userId })
    .select<ConversationRow[]>('c.id', 'c.title', 'c.createdAt', 'c.updatedAt', db.raw('c.created_at::text as cursor_created_at'));
  return newestFirstPage(q, 'c', query, conversationDto);
}

export async function getConversation(db: Db, p: Principal, id: string): Promise<ConversationDto & { messages: ChatMessageDto[] }> {
  const conversation = await findMine(db, p, id);
  const messages = await ChatMessage.query(db)
    .where({ teamId: p.teamId, chatId: id })
    .orderBy([
      { column: 'createdAt', order: 'asc' },
      { column: 'id', order: 'asc' },
    ]);
  return { ...conversationDto(conversation), messages: messages.map(messageDto) };
}

export async function deleteConversation(db: Db, p: Principal, id: string): Promise<void> {
  const deleted = await mine(db, p).deleteById(id);
  if (!deleted) throw notFound(`Conversation ${id} not found`);
}

/** What the model sees of earlier turns: the questions and the answers (figures with their citations). */
export interface HistoryMessage {
  role: 'user' | 'assistant';
  content: string;
}

const HISTORY_TURNS = 20;

/**
 * Opens a turn: the conversation (a new one titled by the question, or the caller's own one) and the
 * question stored, with the earlier messages for the model.
 */
export async function startTurn(
  db: Db,
  p: Principal,
  input: { conversationId?: string; question: string },
): Promise<{ conversationId: string; question: ChatMessageDto; history: HistoryMessage[] }> {
  return db.transaction(async (trx) => {
    const conversation = input.conversationId
      ? await findMine(trx, p, input.conversationId)
      : await ChatConversation.query(trx).insertAndFetch({
          teamId: p.teamId,
          userId: p.userId,
          title: input.question.length > 80 ? `${input.question.slice(0, 79)}…` : input.question,
        });
    const earlier = await ChatMessage.query(trx)
      .where({ teamId: p.teamId, chatId: conversation.id })
      .orderBy([
        { column: 'createdAt', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(HISTORY_TURNS * 2);
    const question = await ChatMessage.query(trx).insertAndFetch({
      teamId: p.teamId,
      userId: p.userId,
      chatId: conversation.id,
      role: 'user',
      content: input.question,
      toolCalls: [],
      citations: [],
    });
    return {
      conversationId: conversation.id,
      question: messageDto(question),
      history: earlier.reverse().map((m) => ({ role: m.role === 'user' ? 'user' : 'assistant', content: m.content })),
    };
  });
}

/** Stores the answer with the tool calls behind it; the conversation moves to the top of the list. */
export async function saveAnswer(
  db: Db,
  p: Principal,
  conversationId: string,
  answer: { content: string; toolCalls: ChatToolCall[]; citations: ChatCitation[] },
): Promise<ChatMessageDto> {
  return db.transaction(async (trx) => {
    const stored = await ChatMessage.query(trx).insertAndFetch({
      teamId: p.teamId,
      userId: p.userId,
      chatId: conversationId,
      role: 'assistant',
      ...answer,
    });
    await ChatConversation.query(trx).findById(conversationId).patch({ updatedAt: new Date() });
    return messageDto(stored);
  });
}
