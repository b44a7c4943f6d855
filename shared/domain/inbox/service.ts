import type { ModelObject } from 'objection';
import type { z } from 'zod';
import type { Db } from '../../db/knex';
import { InboxItem, MatchSuggestion, Transaction } from '../../db/models';
import { toIso } from '../../db/timestamps';
import { badRequest, conflict, notFound } from '../../errors';
import type { TemporalGateway } from '../../temporal/client';
import { newestFirstPage, type CursorRow, type Page } from '../common/cursor';
import { containsPattern } from '../common/query';
import { decideSuggestion } from '../receipts/decide';
import { submitDecision, type SubmittedDecision } from '../receipts/submit-decision';
import type { InboxItemDto, listInboxQuery, updateInboxBody } from './schema';

/** An inbox item as the list selects it: its columns, its cursor key, its document's status and its best pending suggestion. */
type InboxRow = ModelObject<InboxItem> &
  CursorRow & {
    documentStatus: InboxItemDto['documentStatus'];
    suggestion: InboxItemDto['suggestion'];
  };

// A list query (keyset, the document's status and the suggestion in the same round trip): typed Knex.
function selectItems(db: Db, teamId: string) {
  return db('inbox_items as i')
    .where('i.team_id', teamId)
    .select<InboxRow[]>(
      'i.*',
      db.raw('i.created_at::text as cursor_created_at'),
      db.raw('(select d.processing_status from documents d where d.id = i.document_id and d.team_id = i.team_id) as document_status'),
      // json_build_object returns numerics as JSON numbers.
      db.raw(`(select json_build_object('transactionId', s.transaction_id, 'confidence', s.confidence, 'status', s.status)
               from match_suggestions s where s.inbox_item_id = i.id and s.status = 'pending' order by s.confidence desc limit 1) as suggestion`),
    );
}

/**
 * A received e-invoice is a payment to make until a bank transaction is matched to it: the amount
 * due, the supplier's IBAN and the reference to quote. A credit note asks for none.
 */
function paymentDueOf(row: Pick<InboxRow, 'eInvoice' | 'transactionId' | 'status'>): InboxItemDto['paymentDue'] {
  const inv = row.eInvoice;
  if (!inv || inv.typeCode === '381' || inv.totals.payable <= 0) return null;
  if (row.transactionId || row.status === 'done' || row.status === 'failed') return null;
  return {
    amount: inv.totals.payable,
    currency: inv.currency,
    iban: inv.payment.iban,
    reference: inv.payment.reference ?? inv.number,
    dueDate: inv.dueDate,
  };
}

function toDto({
  teamId: _team,
  documentId: _document,
  reference: _reference,
  workflowId: _workflow,
  deletedAt: _deleted,
  updatedAt: _updated,
  cursorCreatedAt: _cursor,
  createdAt,
  ...fields
}: InboxRow): InboxItemDto {
  return { ...fields, paymentDue: paymentDueOf(fields), createdAt: toIso(createdAt) };
}

export async function listInbox(db: Db, teamId: string, query: z.infer<typeof listInboxQuery>): Promise<Page<InboxItemDto>> {
  const q = selectItems(db, teamId);
  if (query.statuses) q.whereIn('i.status', query.statuses);
  else q.whereNot('i.status', 'deleted');
  if (query.from) q.where('i.date', '>=', query.from);
  if (query.to) q.where('i.date', '<=', query.to);
  if (query.q) {
    const like = containsPattern(query.q);
    q.where((w) => {
      w.whereILike('i.display_name', like)
        .orWhereILike('i.note', like)
        .orWhereILike('i.file_name', like)
        .orWhereExists((d) => {
          d.select(db.raw('1'))
            .from('documents as d')
            .whereRaw('d.id = i.document_id')
            .where('d.team_id', teamId)
            .whereILike('d.content', like);
        });
    });
  }
  return newestFirstPage(q, 'i', query, toDto);
}

export async function getInboxItem(db: Db, teamId: string, id: string): Promise<InboxItemDto> {
  const row = (await selectItems(db, teamId).where('i.id', id).whereNot('i.status', 'deleted')).at(0);
  if (!row) throw notFound(`Inbox item ${id} not found`);
  return toDto(row);
}

/** The team's item, unless deleted: what every write below starts from. */
const liveItem = (db: Db, teamId: string, id: string) => InboxItem.query(db).where({ teamId, id }).whereNot('status', 'deleted');

export async function updateInboxItem(db: Db, teamId: string, id: string, body: z.infer<typeof updateInboxBody>): Promise<InboxItemDto> {
  const n = await liveItem(db, teamId, id).patch({ ...body, updatedAt: new Date() });
  if (!n) throw notFound(`Inbox item ${id} not found`);
  return getInboxItem(db, teamId, id);
}

/** Soft delete: the item leaves every list; its document and any attachment stay. */
export async function deleteInboxItem(db: Db, teamId: string, id: string): Promise<void> {
  const now = new Date();
  const n = await liveItem(db, teamId, id).patch({ status: 'deleted', deletedAt: now, updatedAt: now });
  if (!n) throw notFound(`Inbox item ${id} not found`);
}

/** Confirm or decline a suggestion over the API: 404 without the item, 409 without that pending suggestion. */
export async function decide(
  db: Db,
  temporal: TemporalGateway,
  teamId: string,
  id: string,
  transactionId: string,
  action: 'confirm' | 'decline',
): Promise<SubmittedDecision['outcome']> {
  if (!(await liveItem(db, teamId, id).first().select('id'))) throw notFound(`Inbox item ${id} not found`);
  const pending = await MatchSuggestion.query(db).findOne({ teamId, inboxItemId: id, transactionId, status: 'pending' }).select('id');
  if (!pending) throw conflict('No pending suggestion of this transaction for this item');
  return (await submitDecision({ db, temporal }, { teamId, inboxItemId: id, transactionId, action, via: 'api' })).outcome;
}

/** Manual match: the user picks the transaction; it is recorded as a confirmed manual suggestion, all or nothing. */
export async function matchManually(db: Db, teamId: string, id: string, transactionId: string): Promise<InboxItemDto> {
  await db.transaction(async (trx) => {
    const tx = await Transaction.query(trx).findOne({ teamId, id: transactionId }).select('id');
    if (!tx) throw badRequest('Invalid transaction', [{ field: 'transactionId', message: 'no such transaction in your team' }]);
    const item = await liveItem(trx, teamId, id).forUpdate().first();
    if (!item) throw notFound(`Inbox item ${id} not found`);
    if (item.status === 'done') throw conflict('This item is already matched');
    await MatchSuggestion.query(trx)
      .where({ teamId, inboxItemId: id, status: 'pending' })
      .whereNot({ transactionId })
      .patch({ status: 'declined', decidedAt: new Date(), decidedVia: 'api' });
    await MatchSuggestion.query(trx)
      .insert({ teamId, inboxItemId: id, transactionId, matchType: 'manual', confidence: 1, status: 'pending' })
      .onConflict(['inboxItemId', 'transactionId'])
      .merge({ status: 'pending', matchType: 'manual' });
    await decideSuggestion(trx, { teamId, inboxItemId: id, transactionId, decision: 'confirm', via: 'api' });
  });
  return getInboxItem(db, teamId, id);
}
