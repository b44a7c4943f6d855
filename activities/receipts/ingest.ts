import { createHash } from 'node:crypto';
import { ApplicationFailure, log } from '@temporalio/activity';
import type { ModelObject } from 'objection';
import { Document, InboxItem, MatchSuggestion, Team, TransactionAttachment } from '../../shared/db/models';
import type { ReceiptFields } from '../../shared/domain/receipts/extract';
import { UnreadableDocumentError, type Extraction } from '../../shared/domain/receipts/extractor';
import { decideSuggestion } from '../../shared/domain/receipts/decide';
import { decisionButtonId } from '../../shared/domain/receipts/chat-buttons';
import { findBestMatch } from '../../shared/domain/matching/service';
import type { ReceiptForMatch } from '../../shared/domain/matching/score';
import { notify } from '../../shared/domain/notifications/service';
import { AUTO_THRESHOLD } from '../../shared/domain/matching/score';
import type { Decision, DecisionOutcome, IngestInput } from '../../shared/temporal/receipt-ingestion/contract';
import type { Db } from '../../shared/db/knex';
import type { ActivityDeps } from '../deps';
import { sendOnce } from '../messaging/send-once';
import { emitEvent } from '../../shared/domain/webhook-endpoints/events';

export type MatchOutcome =
  | { outcome: 'suggested'; transactionId: string; confidence: number; amount: number; currency: string; date: string; name: string }
  | { outcome: 'auto_matched'; transactionId: string; confidence: number }
  | { outcome: 'no_match' };

/** Enough for any receipt or invoice; a 300-page PDF's text is not worth keeping whole. */
const MAX_CONTENT_CHARS = 100_000;

const EXT: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
};

/** What the matcher compares of an inbox item. */
const receiptOf = (item: InboxItem): ReceiptForMatch => ({
  amount: item.amount,
  currency: item.currency,
  date: item.date,
  merchant: item.displayName,
});

type BestMatch = NonNullable<Awaited<ReturnType<typeof findBestMatch>>>;

/** The match as a suggestion of the item; the same pair scored again keeps one row with the new scores. */
const recordSuggestion = (db: Db, teamId: string, inboxItemId: string, best: BestMatch, matchType: 'suggested' | 'auto_matched') =>
  MatchSuggestion.query(db)
    .insert({ teamId, inboxItemId, transactionId: best.transaction.id, matchType, ...best.score })
    .onConflict(['inboxItemId', 'transactionId'])
    .merge(['confidence', 'amountScore', 'currencyScore', 'dateScore', 'nameScore']);

/** pdf.js keeps NUL for glyphs without a Unicode mapping; PostgreSQL text refuses it. */
const withoutNul = (text: string) => text.replaceAll('\u0000', '');

export function receiptActivities({ db, messaging, storage, receipts }: ActivityDeps) {
  /** The item and its document, which every step after ingestReceipt reads; gone means nothing left to do. */
  async function itemWithDocument(inboxItemId: string): Promise<{ item: InboxItem; doc: Document }> {
    const item = await InboxItem.query(db).findById(inboxItemId);
    const doc = item?.documentId ? await Document.query(db).findOne({ teamId: item.teamId, id: item.documentId }) : undefined;
    if (!item || !doc) throw ApplicationFailure.nonRetryable(`inbox item ${inboxItemId} or its document not found`, 'InboxItemNotFound');
    return { item, doc };
  }

  /**
   * A suggestion for someone to confirm or decline: recorded, the item moved to review, and the team
   * told, in one transaction. Told once: a retry (or a rematch) finds the item in review already.
   */
  async function suggestForReview(teamId: string, inboxItemId: string, best: BestMatch): Promise<void> {
    await db.transaction(async (trx) => {
      await recordSuggestion(trx, teamId, inboxItemId, best, 'suggested');
      const moved = await InboxItem.query(trx)
        .where({ teamId, id: inboxItemId })
        .whereNot({ status: 'suggested_match' })
        .patch({ status: 'suggested_match', updatedAt: new Date() });
      if (moved) await notify(trx, { teamId, type: 'inbox_needs_review', metadata: { inboxItemId, transactionId: best.transaction.id } });
    });
  }

  async function download(input: IngestInput): Promise<{ bytes: Buffer; mimeType: string }> {
    if (input.storedKey) return { bytes: await storage.get(input.storedKey), mimeType: input.mimeType };
    if (input.mediaId) return messaging.downloadMedia(input.mediaId);
    throw ApplicationFailure.nonRetryable('a receipt needs a storedKey or a mediaId', 'NoReceiptFile');
  }

  return {
    /** Downloads and stores the file once per team (same bytes, same document) and records the inbox item. */
    async ingestReceipt(input: IngestInput): Promise<{ inboxItemId: string; documentId: string; duplicate: boolean }> {
      const { bytes, mimeType } = await download(input);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const live = () => Document.query(db).findOne({ teamId: input.teamId, sha256 }).whereNull('deletedAt');
      let doc: ModelObject<Document> | undefined = await live();
      let duplicate = Boolean(doc);
      if (!doc) {
        // Same bytes, same key: storing again is harmless, and a concurrent delivery of this file
        // loses the insert below (unique per team and content) and takes the winner's row.
        const storageKey = `${input.teamId}/${sha256}.${EXT[mimeType] ?? 'bin'}`;
        await storage.put(storageKey, bytes);
        // Knex, not the model: an insert that the database may ignore answers with no row, which a model cannot say.
        const inserted = await db<ModelObject<Document>>('documents')
          .insert({
            teamId: input.teamId,
            name: input.fileName ?? `receipt.${EXT[mimeType] ?? 'bin'}`,
            storageKey,
            mimeType,
            size: bytes.length,
            sha256,
            processingStatus: 'processing',
          })
          .onConflict()
          .ignore()
          .returning('*');
        duplicate = inserted.length === 0;
        doc = inserted.at(0) ?? (await live());
        if (!doc) throw new Error(`document ${sha256} neither inserted nor found`);
      }
      const item = await InboxItem.query(db)
        .insert({
          teamId: input.teamId,
          documentId: doc.id,
          source: input.source,
          reference: input.reference,
          status: 'processing',
          sender: input.sender ?? null,
          note: input.caption?.slice(0, 1000) ?? null,
          fileName: doc.name,
          mimeType,
          size: bytes.length,
          workflowId: input.workflowId ?? null,
        })
        .onConflict(['teamId', 'reference'])
        .merge(['documentId', 'updatedAt'])
        .returning('id');
      return { inboxItemId: item.id, documentId: doc.id, duplicate };
    },

    /** PDF text, OCR for images, or the LLM when configured; what cannot be read with confidence stays empty. */
    async extractReceipt(input: { inboxItemId: string }): Promise<ReceiptFields> {
      const { item, doc } = await itemWithDocument(input.inboxItemId);
      const bytes = await storage.get(doc.storageKey);
      const document = () => Document.query(db).findOne({ teamId: item.teamId, id: doc.id });
      let extraction: Extraction;
      try {
        extraction = await receipts.extract(bytes, doc.mimeType);
      } catch (err) {
        if (!(err instanceof UnreadableDocumentError)) throw err;
        // A broken file is kept and listed for someone to fill in by hand; retrying cannot read it.
        log.warn('receipt could not be read', { inboxItemId: item.id, reason: err.message });
        await document().patch({ processingStatus: 'failed', updatedAt: new Date() });
        return { amount: null, currency: null, date: null, merchant: null, taxAmount: null, taxRate: null };
      }
      const { fields, method } = extraction;
      const text = withoutNul(extraction.text);
      const merchant = (fields.merchant && withoutNul(fields.merchant)) || null;
      await InboxItem.query(db).findById(item.id).patch({
        status: 'analyzing',
        displayName: merchant,
        amount: fields.amount,
        currency: fields.currency,
        date: fields.date,
        taxAmount: fields.taxAmount,
        taxRate: fields.taxRate,
        extractionMethod: method,
        updatedAt: new Date(),
      });
      await document().patch({
        processingStatus: 'completed',
        title: merchant,
        content: text.slice(0, MAX_CONTENT_CHARS) || null,
        updatedAt: new Date(),
      });
      return { ...fields, merchant };
    },

    /** Scores the team's transactions; records a pending suggestion, links at once (auto-match), or leaves the item open. */
    async matchReceipt(input: { teamId: string; inboxItemId: string }): Promise<MatchOutcome> {
      const item = await InboxItem.query(db).findOne({ teamId: input.teamId, id: input.inboxItemId });
      if (!item) throw ApplicationFailure.nonRetryable(`inbox item ${input.inboxItemId} not found`, 'InboxItemNotFound');
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
      const team = await Team.query(db).findById(input.teamId).select('autoMatch');
      const best = await findBestMatch(db, input.teamId, receiptOf(item));
      if (!best) {
        await setStatus('no_match');
        return { outcome: 'no_match' };
      }
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
      await suggestForReview(input.teamId, item.id, best);
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
    },

    /**
     * After new transactions arrive: receipts still waiting for one get matched now. A found match
     * becomes a pending suggestion the user reviews in the inbox (and a notification).
     */
    async rematchOpenInboxItems(input: { teamId: string }): Promise<{ checked: number; suggested: number }> {
      const open = await InboxItem.query(db)
        .where({ teamId: input.teamId })
        .whereIn('status', ['pending', 'no_match'])
        .whereNotNull('amount')
        .whereNull('deletedAt')
        .limit(500);
      let suggested = 0;
      for (const item of open) {
        const declined = await MatchSuggestion.query(db).where({ inboxItemId: item.id, status: 'declined' }).select('transactionId');
        const best = await findBestMatch(db, input.teamId, receiptOf(item));
        if (!best || declined.some((s) => s.transactionId === best.transaction.id)) continue;
        await suggestForReview(input.teamId, item.id, best);
        suggested++;
      }
      return { checked: open.length, suggested };
    },

    async decideMatch(input: {
      teamId: string;
      inboxItemId: string;
      transactionId: string;
      decision: Decision;
      via: 'chat' | 'api' | 'timeout';
    }): Promise<DecisionOutcome> {
      return decideSuggestion(db, input);
    },

    async sendMessage(input: { to: string; text: string }) {
      await sendOnce(db, () => messaging.sendText(input.to, input.text));
    },

    async sendReaction(input: { to: string; messageId: string; emoji: string }) {
      await messaging.sendReaction(input.to, input.messageId, input.emoji);
    },

    async sendMatchSuggestion(input: {
      to: string;
      inboxItemId: string;
      transactionId: string;
      receiptName: string | null;
      amount: number;
      currency: string;
      date: string;
      name: string;
    }) {
      const body = `Receipt${input.receiptName ? ` from ${input.receiptName}` : ''} matches "${input.name}", ${Math.abs(input.amount).toFixed(2)} ${input.currency} on ${input.date}. Is this right?`;
      await sendOnce(db, () =>
        messaging.sendButtons(input.to, body, [
          { id: decisionButtonId({ action: 'confirm', ...input }), title: 'Confirm' },
          { id: decisionButtonId({ action: 'decline', ...input }), title: 'Decline' },
        ]),
      );
    },
  };
}

export type ReceiptActivities = ReturnType<typeof receiptActivities>;
