import { createHash } from 'node:crypto';
import { log } from '@temporalio/activity';
import type { ReceiptFields } from '../../shared/domain/receipts/extract';
import { UnreadableDocumentError, type Extraction } from '../../shared/domain/receipts/extractor';
import { decideSuggestion, type Decision } from '../../shared/domain/receipts/decide';
import { findBestMatch } from '../../shared/domain/matching/service';
import { AUTO_THRESHOLD } from '../../shared/domain/matching/score';
import type { ActivityDeps } from '../deps';

export interface IngestInput {
  teamId: string;
  source: 'messaging' | 'email' | 'upload';
  reference: string;
  /** Chat media to download; or, for email attachments, the storage key the gateway stored it under. */
  mediaId?: string;
  storedKey?: string;
  mimeType: string;
  fileName?: string;
  /** What the sender wrote with the file (a chat caption). */
  caption?: string;
  sender?: string;
  workflowId?: string;
}

export type MatchOutcome =
  | { outcome: 'suggested'; transactionId: string; confidence: number; amount: number; currency: string; date: string; name: string }
  | { outcome: 'auto_matched'; transactionId: string; confidence: number }
  | { outcome: 'no_match' };

/** Enough for any receipt or invoice; a 300-page PDF's text is not worth keeping whole. */
const MAX_CONTENT_CHARS = 100_000;

const EXT: Record<string, string> = { 'application/pdf': 'pdf', 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'image/heic': 'heic' };

export function receiptActivities({ db, messaging, storage, receipts }: ActivityDeps) {
  return {
    /** Downloads and stores the file once per team (same bytes, same document) and records the inbox item. */
    async ingestReceipt(input: IngestInput): Promise<{ inboxItemId: string; documentId: string; duplicate: boolean }> {
      const { bytes, mimeType } = input.storedKey
        ? { bytes: await storage.get(input.storedKey), mimeType: input.mimeType }
        : await messaging.downloadMedia(input.mediaId!);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      let doc = await db('documents').where({ teamId: input.teamId, sha256 }).whereNull('deletedAt').first();
      let duplicate = Boolean(doc);
      if (!doc) {
        // Same bytes, same key: storing again is harmless, and a concurrent delivery of this file
        // loses the insert below (unique per team and content) and takes the winner's row.
        const storageKey = `${input.teamId}/${sha256}.${EXT[mimeType] ?? 'bin'}`;
        await storage.put(storageKey, bytes);
        [doc] = await db('documents')
          .insert({ teamId: input.teamId, name: input.fileName ?? `receipt.${EXT[mimeType] ?? 'bin'}`, storageKey, mimeType, size: bytes.length, sha256, processingStatus: 'processing' })
          .onConflict()
          .ignore()
          .returning('*');
        if (!doc) {
          doc = await db('documents').where({ teamId: input.teamId, sha256 }).whereNull('deletedAt').first();
          duplicate = true;
        }
      }
      const [item] = await db('inbox_items')
        .insert({ teamId: input.teamId, documentId: doc.id, source: input.source, reference: input.reference, status: 'processing', sender: input.sender ?? null, note: input.caption?.slice(0, 1000) ?? null, fileName: doc.name, mimeType, size: bytes.length, workflowId: input.workflowId ?? null })
        .onConflict(['teamId', 'reference'])
        .merge(['documentId', 'updatedAt'])
        .returning('id');
      return { inboxItemId: item.id, documentId: doc.id, duplicate };
    },

    /** PDF text, OCR for images, or the LLM when configured; what cannot be read with confidence stays empty. */
    async extractReceipt(input: { inboxItemId: string }): Promise<ReceiptFields> {
      const item = await db('inbox_items').where({ id: input.inboxItemId }).first();
      const doc = await db('documents').where({ teamId: item.teamId, id: item.documentId }).first();
      const bytes = await storage.get(doc.storageKey);
      let extraction: Extraction;
      try {
        extraction = await receipts.extract(bytes, doc.mimeType);
      } catch (err) {
        if (!(err instanceof UnreadableDocumentError)) throw err;
        // A broken file is kept and listed for someone to fill in by hand; retrying cannot read it.
        log.warn('receipt could not be read', { inboxItemId: item.id, reason: err.message });
        await db('documents').where({ teamId: item.teamId, id: doc.id }).update({ processingStatus: 'failed', updatedAt: new Date() });
        return { amount: null, currency: null, date: null, merchant: null, taxAmount: null, taxRate: null };
      }
      const { fields, method } = extraction;
      // pdf.js keeps NUL for glyphs without a Unicode mapping; PostgreSQL text refuses it.
      const text = extraction.text.replace(/\u0000/g, '');
      const merchant = fields.merchant?.replace(/\u0000/g, '') || null;
      await db('inbox_items').where({ id: item.id }).update({
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
      await db('documents').where({ teamId: item.teamId, id: doc.id }).update({ processingStatus: 'completed', title: merchant, content: text.slice(0, MAX_CONTENT_CHARS) || null, updatedAt: new Date() });
      return { ...fields, merchant };
    },

    /** Scores the team's transactions; records a pending suggestion, links at once (auto-match), or leaves the item open. */
    async matchReceipt(input: { teamId: string; inboxItemId: string }): Promise<MatchOutcome> {
      const item = await db('inbox_items').where({ teamId: input.teamId, id: input.inboxItemId }).first();
      // The same file sent again, already attached: it belongs where the first copy went, not to another transaction.
      const attached = item.documentId ? await db('transaction_attachments').where({ teamId: input.teamId, documentId: item.documentId }).first('transactionId') : null;
      if (attached) {
        await db('inbox_items').where({ id: item.id }).update({ status: 'done', transactionId: attached.transactionId, updatedAt: new Date() });
        return { outcome: 'auto_matched', transactionId: attached.transactionId, confidence: 1 };
      }
      const team = await db('teams').where({ id: input.teamId }).first();
      const best = await findBestMatch(db, input.teamId, { amount: item.amount, currency: item.currency, date: item.date, merchant: item.displayName });
      if (!best) {
        await db('inbox_items').where({ id: item.id }).update({ status: 'no_match', updatedAt: new Date() });
        return { outcome: 'no_match' };
      }
      const auto = team.autoMatch && best.score.confidence >= AUTO_THRESHOLD;
      await db('match_suggestions')
        .insert({ teamId: input.teamId, inboxItemId: item.id, transactionId: best.transaction.id, matchType: auto ? 'auto_matched' : 'suggested', ...best.score })
        .onConflict(['inboxItemId', 'transactionId'])
        .merge(['confidence', 'amountScore', 'currencyScore', 'dateScore', 'nameScore']);
      if (auto) {
        await decideSuggestion(db, { teamId: input.teamId, inboxItemId: item.id, transactionId: best.transaction.id, decision: 'confirm', via: 'auto' });
        return { outcome: 'auto_matched', transactionId: best.transaction.id, confidence: best.score.confidence };
      }
      await db('inbox_items').where({ id: item.id }).update({ status: 'suggested_match', updatedAt: new Date() });
      const t = best.transaction;
      return { outcome: 'suggested', transactionId: t.id, confidence: best.score.confidence, amount: t.amount, currency: t.currency, date: t.date, name: t.name };
    },

    /**
     * After new transactions arrive: receipts still waiting for one get matched now. A found match
     * becomes a pending suggestion the user reviews in the inbox (and a notification).
     */
    async rematchOpenInboxItems(input: { teamId: string }): Promise<{ checked: number; suggested: number }> {
      const open = await db('inbox_items').where({ teamId: input.teamId }).whereIn('status', ['pending', 'no_match']).whereNotNull('amount').whereNull('deletedAt').limit(500);
      let suggested = 0;
      for (const item of open) {
        const declined = await db('match_suggestions').where({ inboxItemId: item.id }).whereIn('status', ['declined']).pluck('transactionId');
        const best = await findBestMatch(db, input.teamId, { amount: item.amount, currency: item.currency, date: item.date, merchant: item.displayName });
        if (!best || declined.includes(best.transaction.id)) continue;
        await db('match_suggestions')
          .insert({ teamId: input.teamId, inboxItemId: item.id, transactionId: best.transaction.id, matchType: 'suggested', ...best.score })
          .onConflict(['inboxItemId', 'transactionId'])
          .ignore();
        await db('inbox_items').where({ id: item.id }).update({ status: 'suggested_match', updatedAt: new Date() });
        await db('notifications').insert({ teamId: input.teamId, type: 'inbox_needs_review', priority: 3, metadata: JSON.stringify({ inboxItemId: item.id, transactionId: best.transaction.id }) });
        suggested++;
      }
      return { checked: open.length, suggested };
    },

    async decideMatch(input: { teamId: string; inboxItemId: string; transactionId: string; decision: Decision; via: 'chat' | 'api' | 'timeout' }) {
      return decideSuggestion(db, input);
    },

    async sendMessage(input: { to: string; text: string }) {
      await messaging.sendText(input.to, input.text);
    },

    async sendReaction(input: { to: string; messageId: string; emoji: string }) {
      await messaging.sendReaction(input.to, input.messageId, input.emoji);
    },

    async sendMatchSuggestion(input: { to: string; inboxItemId: string; transactionId: string; receiptName: string | null; amount: number; currency: string; date: string; name: string }) {
      const body = `Receipt${input.receiptName ? ` from ${input.receiptName}` : ''} matches "${input.name}", ${Math.abs(input.amount).toFixed(2)} ${input.currency} on ${input.date}. Is this right?`;
      await messaging.sendButtons(input.to, body, [
        { id: `confirm:${input.inboxItemId}:${input.transactionId}`, title: 'Confirm' },
        { id: `decline:${input.inboxItemId}:${input.transactionId}`, title: 'Decline' },
      ]);
    },
  };
}

export type ReceiptActivities = ReturnType<typeof receiptActivities>;
