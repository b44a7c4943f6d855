import type { Db } from '../../db/knex';
import { Document, InboxItem, MatchSuggestion, TransactionAttachment } from '../../db/models';
import { emitEvent } from '../webhook-endpoints/events';
import { notify } from '../notifications/service';
import type { Decision, DecisionOutcome, DecisionVia } from '../../temporal/receipt-ingestion/contract';
import type { Assert, SameType } from '../common/same-type';

// The contract and match_suggestions.decided_via state the same list, each on its own.
type _DecidedViaIsTheColumn = Assert<SameType<DecisionVia, NonNullable<MatchSuggestion['decidedVia']>>>;

const DECIDED = { confirm: 'confirmed', decline: 'declined', expire: 'expired' } as const satisfies Record<Decision, DecisionOutcome>;

/**
 * Applies a decision on a pending suggestion, once: confirm links the receipt's document to the
 * transaction as an attachment and closes the inbox item; decline and expiry put the item back to
 * `pending` so a later transaction can still match it. Chat, API and the workflow all come here.
 */
export async function decideSuggestion(
  db: Db,
  input: { teamId: string; inboxItemId: string; transactionId: string; decision: Decision; via: DecisionVia },
): Promise<DecisionOutcome> {
  const { teamId, inboxItemId, transactionId } = input;
  return db.transaction(async (trx) => {
    // The item first, then its suggestion: the same order as a manual match, so the two never deadlock.
    const item = await InboxItem.query(trx).findOne({ teamId, id: inboxItemId }).forUpdate();
    if (!item) return 'not_found';
    const s = await MatchSuggestion.query(trx).findOne({ teamId, inboxItemId, transactionId }).forUpdate();
    if (!s) return 'not_found';
    if (s.status !== 'pending') return 'already_handled';
    const now = new Date();
    const status = DECIDED[input.decision];
    await MatchSuggestion.query(trx).findById(s.id).patch({ status, decidedAt: now, decidedVia: input.via });
    if (input.decision === 'confirm') {
      const doc = item.documentId ? await Document.query(trx).findOne({ teamId, id: item.documentId }) : undefined;
      if (doc) {
        // The same document confirmed twice (sent twice) stays one attachment.
        await TransactionAttachment.query(trx)
          .insert({
            teamId,
            transactionId,
            documentId: doc.id,
            inboxItemId: item.id,
            name: doc.name,
            mimeType: doc.mimeType,
            size: doc.size,
            storageKey: doc.storageKey,
          })
          .onConflict()
          .ignore();
      }
      await InboxItem.query(trx).findById(inboxItemId).patch({ status: 'done', transactionId, updatedAt: now });
      await emitEvent(trx, teamId, 'inbox.matched', { inboxItemId, transactionId, via: input.via });
      // Nobody saw this match being made; a person who confirmed one themselves needs no notice. Once,
      // like the event: a retry finds the suggestion decided and returns before this.
      if (input.via === 'auto') await notify(trx, { teamId, type: 'receipt_matched', metadata: { inboxItemId, transactionId } });
    } else {
      await InboxItem.query(trx).findById(inboxItemId).patch({ status: 'pending', updatedAt: now });
    }
    return status;
  });
}
