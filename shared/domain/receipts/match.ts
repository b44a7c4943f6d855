import type { Db } from '../../db/knex';
import { InboxItem, MatchSuggestion, Team, TransactionAttachment } from '../../db/models';
import { AUTO_THRESHOLD, type ReceiptForMatch } from '../matching/score';
import { findExactPayment } from '../matching/exact';
import { findBestMatch } from '../matching/service';
import { notify } from '../notifications/service';
import { emitEvent } from '../webhook-endpoints/events';
import { decideSuggestion } from './decide';

export type MatchOutcome =
  | { outcome: 'suggested'; transactionId: string; confidence: number; amount: number; currency: string; date: string; name: string }
  | { outcome: 'auto_matched'; transactionId: string; confidence: number }
  | { outcome: 'no_match' };

/** What the matcher compares of an inbox item. */
const receiptOf = (item: InboxItem): ReceiptForMatch => ({
  amount: item.amount,
  currency: item.currency,
  date: item.date,
  merchant: item.displayName,
});

type BestMatch = NonNullable<Awaited<ReturnType<typeof findBestMatch>>>;

/** An e-invoice's exact payment first (certain), else the best scored candidate. */
const bestFor = async (db: Db, teamId: string, item: InboxItem): Promise<BestMatch | null> =>
  (item.eInvoice ? await findExactPayment(db, teamId, item.eInvoice) : null) ?? findBestMatch(db, teamId, receiptOf(item));

/** The match as a suggestion of the item; the same pair scored again keeps one row with the new scores. */
const recordSuggestion = (db: Db, teamId: string, inboxItemId: string, best: BestMatch, matchType: 'suggested' | 'auto_matched') =>
  MatchSuggestion.query(db)
    .insert({ teamId, inboxItemId, transactionId: best.transaction.id, matchType, ...best.score })
    .onConflict(['inboxItemId', 'transactionId'])
    .merge(['confidence', 'amountScore', 'currencyScore', 'dateScore', 'nameScore']);

/**
 * A suggestion for someone to confirm or decline: recorded, the item moved to review, and the team
 * told, in one transaction. Told once: a retry (or a rematch) finds the item in review already.
 */
async function suggestForReview(db: Db, teamId: string, inboxItemId: string, best: BestMatch): Promise<void> {
  await db.transaction(async (trx) => {
    await recordSuggestion(trx, teamId, inboxItemId, best, 'suggested');
    const moved = await InboxItem.query(trx)
      .where({ teamId, id: inboxItemId })
      .whereNot({ status: 'suggested_match' })
      .patch({ status: 'suggested_match', updatedAt: new Date() });
    if (moved) await notify(trx, { teamId, type: 'inbox_needs_review', metadata: { inboxItemId, transactionId: best.transaction.id } });
  });
}

/**
 * Scores the team's transactions for the item; records a pending suggestion, links at once
 * (auto-match), or leaves the item open. Undefined when the item is gone.
 */
export async function matchReceipt(db: Db, input: { teamId: string; inboxItemId: string }): Promise<MatchOutcome | undefined> {
  const item = await InboxItem.query(db).findOne({ teamId: input.teamId, id: input.inboxItemId });
  if (!item) return undefined;
  // A refused e-invoice stays failed with its reason: nothing it claims is matched.
  if (item.status === 'failed') return { outcome: 'no_match' };
  const setStatus = (status: InboxItem['status']) => InboxItem.query(db).findById(item.id).patch({ status, updatedAt: new Date() });
  // The same file sent again, already attached: it belongs where the first copy went, not to another transaction.
  const attached = item.documentId
    ? await TransactionAttachment.query(db).findOne({ teamId: input.teamId, documentId: item.documentId }).select('transactionId')
    : undefined;
  if (attached) {
    await db.transaction(async (trx) => {
      const n = await InboxItem.query(trx)
        .findById(item.id)
        .whereNot({ status: 'done' })
        .patch({ status: 'done', transactionId: attached.transactionId, updatedAt: new Date() });
      // Once: a retry finds the item done already.
      if (n) {
        const matched = { inboxItemId: item.id, transactionId: attached.transactionId };
        await emitEvent(trx, input.teamId, 'inbox.matched', { ...matched, via: 'auto' });
        await notify(trx, { teamId: input.teamId, type: 'receipt_matched', metadata: matched });
      }
    });
    return { outcome: 'auto_matched', transactionId: attached.transactionId, confidence: 1 };
  }
  const best = await bestFor(db, input.teamId, item);
  if (!best) {
    await setStatus('no_match');
    return { outcome: 'no_match' };
  }
  const team = await Team.query(db).findById(input.teamId).select('autoMatch');
  const auto = Boolean(team?.autoMatch) && best.score.confidence >= AUTO_THRESHOLD;
  if (auto) {
    await recordSuggestion(db, input.teamId, item.id, best, 'auto_matched');
    await decideSuggestion(db, {
      teamId: input.teamId,
      inboxItemId: item.id,
      transactionId: best.transaction.id,
      decision: 'confirm',
      via: 'auto',
    });
    return { outcome: 'auto_matched', transactionId: best.transaction.id, confidence: best.score.confidence };
  }
  await suggestForReview(db, input.teamId, item.id, best);
  const t = best.transaction;
  return {
    outcome: 'suggested',
    transactionId: t.id,
    confidence: best.score.confidence,
    amount: t.amount,
    currency: t.currency,
    date: t.date,
    name: t.name,
  };
}

/**
 * After new transactions arrive: receipts still waiting for one get matched now. A found match
 * becomes a pending suggestion the user reviews in the inbox (and a notification).
 */
export async function rematchOpenInboxItems(db: Db, teamId: string): Promise<{ checked: number; suggested: number }> {
  const open = await InboxItem.query(db)
    .where({ teamId })
    .whereIn('status', ['pending', 'no_match'])
    .whereNotNull('amount')
    .whereNull('deletedAt')
    .limit(500);
  if (!open.length) return { checked: 0, suggested: 0 };
  // Read once for every item: a match someone declined is not suggested again.
  const declined = await MatchSuggestion.query(db)
    .whereIn(
      'inboxItemId',
      open.map((item) => item.id),
    )
    .where({ status: 'declined' })
    .select('inboxItemId', 'transactionId');
  const wasDeclined = new Set(declined.map((s) => `${s.inboxItemId}/${s.transactionId}`));
  let suggested = 0;
  for (const item of open) {
    const best = await bestFor(db, teamId, item);
    if (!best || wasDeclined.has(`${item.id}/${best.transaction.id}`)) continue;
    await suggestForReview(db, teamId, item.id, best);
    suggested++;
  }
  return { checked: open.length, suggested };
}
