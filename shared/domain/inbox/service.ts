import type { z } from 'zod';
import type { Db } from '../../db/knex';
import { containsPattern } from '../common/query';
import { badRequest, conflict, notFound } from '../../errors';
import type { TemporalGateway } from '../../temporal/client';
import { newestFirstPage, type Page } from '../common/cursor';
import { decideSuggestion, type DecisionOutcome } from '../receipts/decide';
import type { InboxItemDto, listInboxQuery, updateInboxBody } from './schema';

const iso = (v: Date | string) => new Date(v).toISOString();

function selectItems(db: Db, teamId: string) {
  return db('inbox_items as i')
    .where('i.team_id', teamId)
    .select(
      'i.*',
      db.raw('i.created_at::text as cursor_created_at'),
      db.raw('(select d.processing_status from documents d where d.id = i.document_id and d.team_id = i.team_id) as document_status'),
      db.raw(`(select json_build_object('transactionId', s.transaction_id, 'confidence', s.confidence, 'status', s.status)
               from match_suggestions s where s.inbox_item_id = i.id and s.status = 'pending' order by s.confidence desc limit 1) as suggestion`),
    );
}

const toDto = (r: any): InboxItemDto => ({
  id: r.id,
  status: r.status,
  source: r.source,
  sender: r.sender,
  fileName: r.fileName,
  mimeType: r.mimeType,
  size: r.size,
  displayName: r.displayName,
  note: r.note,
  amount: r.amount,
  currency: r.currency,
  date: r.date,
  taxAmount: r.taxAmount,
  taxRate: r.taxRate,
  extractionMethod: r.extractionMethod,
  documentStatus: r.documentStatus ?? null,
  transactionId: r.transactionId,
  suggestion: r.suggestion ? { ...r.suggestion, confidence: Number(r.suggestion.confidence) } : null,
  createdAt: iso(r.createdAt),
});

export async function listInbox(db: Db, teamId: string, query: z.infer<typeof listInboxQuery>): Promise<Page<InboxItemDto>> {
  const q = selectItems(db, teamId);
  if (query.statuses) q.whereIn('i.status', query.statuses);
  else q.whereNot('i.status', 'deleted');
  if (query.from) q.where('i.date', '>=', query.from);
  if (query.to) q.where('i.date', '<=', query.to);
  if (query.q) {
    const like = containsPattern(query.q);
    q.where((w) =>
      w
        .whereILike('i.display_name', like)
        .orWhereILike('i.note', like)
        .orWhereILike('i.file_name', like)
        .orWhereExists((d) => d.select(db.raw('1')).from('documents as d').whereRaw('d.id = i.document_id').where('d.team_id', teamId).whereILike('d.content', like)),
    );
  }
  return newestFirstPage(q, 'i', query, toDto);
}

export async function getInboxItem(db: Db, teamId: string, id: string) {
  const [row] = await selectItems(db, teamId).where('i.id', id).whereNot('i.status', 'deleted');
  if (!row) throw notFound(`Inbox item ${id} not found`);
  return toDto(row);
}

export async function updateInboxItem(db: Db, teamId: string, id: string, body: z.infer<typeof updateInboxBody>) {
  const n = await db('inbox_items').where({ teamId, id }).whereNot('status', 'deleted').update({ ...body, updatedAt: new Date() });
  if (!n) throw notFound(`Inbox item ${id} not found`);
  return getInboxItem(db, teamId, id);
}

/** Soft delete: the item leaves every list; its document and any attachment stay. */
export async function deleteInboxItem(db: Db, teamId: string, id: string) {
  const n = await db('inbox_items').where({ teamId, id }).whereNot('status', 'deleted').update({ status: 'deleted', deletedAt: new Date(), updatedAt: new Date() });
  if (!n) throw notFound(`Inbox item ${id} not found`);
}

/**
 * Confirm or decline a suggestion. While the item's ReceiptIngestion workflow waits, the decision
 * goes to it as the same `buttonReply` signal a chat button sends; otherwise it is applied here.
 */
export async function decide(db: Db, temporal: TemporalGateway, teamId: string, id: string, transactionId: string, action: 'confirm' | 'decline'): Promise<DecisionOutcome | 'signalled'> {
  const item = await db('inbox_items').where({ teamId, id }).whereNot('status', 'deleted').first();
  if (!item) throw notFound(`Inbox item ${id} not found`);
  const pending = await db('match_suggestions').where({ teamId, inboxItemId: id, transactionId, status: 'pending' }).first();
  if (!pending) throw conflict('No pending suggestion of this transaction for this item');
  if (item.workflowId) {
    const handle = (await temporal.client()).workflow.getHandle(item.workflowId);
    const running = await handle.describe().then((d) => d.status.name === 'RUNNING', () => false);
    if (running) {
      await handle.signal('buttonReply', { action, transactionId, via: 'api' });
      return 'signalled';
    }
  }
  return decideSuggestion(db, { teamId, inboxItemId: id, transactionId, decision: action, via: 'api' });
}

/** Manual match: the user picks the transaction; it is recorded as a confirmed manual suggestion, all or nothing. */
export async function matchManually(db: Db, teamId: string, id: string, transactionId: string) {
  await db.transaction(async (trx) => {
    const tx = await trx('transactions').where({ teamId, id: transactionId }).first('id');
    if (!tx) throw badRequest('Invalid transaction', [{ field: 'transactionId', message: 'no such transaction in your team' }]);
    const item = await trx('inbox_items').where({ teamId, id }).whereNot('status', 'deleted').forUpdate().first();
    if (!item) throw notFound(`Inbox item ${id} not found`);
    if (item.status === 'done') throw conflict('This item is already matched');
    await trx('match_suggestions').where({ teamId, inboxItemId: id, status: 'pending' }).whereNot({ transactionId }).update({ status: 'declined', decidedAt: new Date(), decidedVia: 'api' });
    await trx('match_suggestions')
      .insert({ teamId, inboxItemId: id, transactionId, matchType: 'manual', confidence: 1, status: 'pending' })
      .onConflict(['inboxItemId', 'transactionId'])
      .merge({ status: 'pending', matchType: 'manual' });
    await decideSuggestion(trx, { teamId, inboxItemId: id, transactionId, decision: 'confirm', via: 'api' });
  });
  return getInboxItem(db, teamId, id);
}
