import type { Db } from '../../db/knex';
import { proposeAgentAction, type ProposalRequest, type ProposeDeps } from '../agent-actions/service';
import { Team, User } from '../../db/models';
import type { Logger } from '../../logger';
import { LlmError, type LlmChatClient } from '../../providers/llm';
import type { Principal } from '../auth/principal';
import { todayIn } from '../common/time-zone';
import { saveAnswer, startTurn } from '../chat-conversations/service';
import { citationsOf, type EngineAnswer, type EngineEvent } from './engine';
import { answerWithModel } from './model';
import { answerOffline } from './offline';
import type { ChatAnswer, ChatEvent, SendChatBody } from './schema';
import { CHAT_TOOLS, toolsFor, type ChatTool } from './tools';

export interface AssistantDeps {
  db: Db;
  /** The model (LLM_API_URL); without it the offline intent parser answers. */
  llm?: LlmChatClient;
  log: Logger;
  /** Every tool there is (CHAT_TOOLS; tests may pass others). */
  tools?: readonly ChatTool[];
  /** Where the write tools propose their AgentActions; without it they refuse. */
  agent?: Omit<ProposeDeps, 'db'>;
}

/** Where "last month" is, for chat and MCP alike: the question's zone, else the user's, else the team's, else UTC. */
export async function askerTimeZone(db: Db, p: Principal, asked?: string): Promise<string> {
  if (asked) return asked;
  const user = await User.query(db).findById(p.userId).select('timezone');
  if (user?.timezone) return user.timezone;
  return (await Team.query(db).findById(p.teamId).select('timezone'))?.timezone ?? 'UTC';
}

/**
 * One turn of a conversation. The question is stored before anything streams (a bad conversation
 * id is a plain 404); the events then follow: the conversation, tokens, tool calls and results,
 * and last the answer as stored, with citations tying its figures to the tool results.
 * Questions and tool results are never logged: they are the team's finances.
 */
export async function ask(deps: AssistantDeps, p: Principal, body: SendChatBody): Promise<AsyncGenerator<ChatEvent>> {
  const turn = await startTurn(deps.db, p, { conversationId: body.conversationId, question: body.message });
  const timeZone = await askerTimeZone(deps.db, p, body.timezone);
  const { agent } = deps;
  const ctx = {
    db: deps.db,
    teamId: p.teamId,
    userId: p.userId,
    today: todayIn(timeZone),
    timeZone,
    ...(agent
      ? { propose: (req: ProposalRequest) => proposeAgentAction({ db: deps.db, ...agent }, { principal: p, via: 'chat' }, req) }
      : {}),
  };
  const tools = deps.tools ?? CHAT_TOOLS;
  const offered = toolsFor(tools, p.scopes);

  async function* engine(): AsyncGenerator<EngineEvent, EngineAnswer> {
    if (!deps.llm) return yield* answerOffline(ctx, body.message, tools, offered);
    const model = answerWithModel(deps.llm, ctx, turn.history, body.message, offered);
    // The model failing before it said anything: the offline parser answers instead of an error.
    const first = await model.next().catch((err: unknown) => {
      if (!(err instanceof LlmError)) throw err;
      deps.log.warn({ err: err.message, conversationId: turn.conversationId }, 'chat model failed; answering offline');
      return null;
    });
    if (first === null) return yield* answerOffline(ctx, body.message, tools, offered);
    if (first.done) return first.value;
    yield first.value;
    return yield* model;
  }

  return (async function* events(): AsyncGenerator<ChatEvent> {
    yield { event: 'conversation', data: { conversationId: turn.conversationId, question: turn.question } };
    const answer = yield* engine();
    const stored = await saveAnswer(deps.db, p, turn.conversationId, {
      ...answer,
      citations: citationsOf(answer.content, answer.toolCalls),
    });
    yield { event: 'message', data: stored };
  })();
}

/** The same turn, whole: for callers that do not stream (tRPC). */
export async function askAndWait(deps: AssistantDeps, p: Principal, body: SendChatBody): Promise<ChatAnswer> {
  let conversation: Extract<ChatEvent, { event: 'conversation' }>['data'] | undefined;
  for await (const e of await ask(deps, p, body)) {
    if (e.event === 'conversation') conversation = e.data;
    if (e.event === 'message' && conversation)
      return { conversationId: conversation.conversationId, question: conversation.question, answer: e.data };
  }
  throw new Error('the chat ended without an answer');
}
