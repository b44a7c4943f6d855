import type { Db } from '../../db/knex';

export type Decision = 'confirm' | 'decline' | 'expire';
export type DecisionOutcome = 'confirmed' | 'declined' | 'expired' | 'already_handled' | 'not_found';

/**
 * Applies a decision on a pending suggestion, once: confirm links the receipt's document to the
 * transaction as an attachment and closes the inbox item; decline and expiry put the item back to
 * `pending` so a later transaction can still match it. Chat, API and the workflow all come here.
 */
export async function decideSuggestion(db: Db, input: { teamId: string; inboxItemId: string; transactionId: string; decision: Decision; via: 'chat' | 'api' | 'timeout' | 'auto' }): Promise<DecisionOutcome> {
  return db.transaction(async (trx) => {
    // The item first, then its suggestion: the same order as a manual match, so the two never deadlock.
    const item = await trx('inbox_items').where({ teamId: input.teamId, id: input.inboxItemId }).forUpdate().first();
    if (!item) return 'not_found';
    const s = await trx('match_suggestions').where({ teamId: input.teamId, inboxItemId: input.inboxItemId, transactionId: input.transactionId }).forUpdate().first();
    if (!s) return 'not_found';
    if (s.status !== 'pending') return 'already_handled';
    const now = new Date();
    const status = input.decision === 'confirm' ? 'confirmed' : input.decision === 'decline' ? 'declined' : 'expired';
    await trx('match_suggestions').where({ id: s.id }).update({ status, decidedAt: now, decidedVia: input.via });
    if (input.decision === 'confirm') {
      const doc = item.documentId ? await trx('documents').where({ teamId: input.teamId, id: item.documentId }).first() : null;
      if (doc) {
        // The same document confirmed twice (sent twice) stays one attachment.
        await trx('transaction_attachments')
          .insert({ teamId: input.teamId, transactionId: input.transactionId, documentId: doc.id, inboxItemId: item.id, name: doc.name, mimeType: doc.mimeType, size: doc.size, storageKey: doc.storageKey })
          .onConflict()
          .ignore();
      }
      await trx('inbox_items').where({ id: input.inboxItemId }).update({ status: 'done', transactionId: input.transactionId, updatedAt: now });
    } else {
      await trx('inbox_items').where({ id: input.inboxItemId }).update({ status: 'pending', updatedAt: now });
    }
    return status;
  });
}
