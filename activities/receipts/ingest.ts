import { ApplicationFailure, log } from '@temporalio/activity';
import { formatAmountWithCode } from '../../shared/domain/currencies/money';
import { readEInvoice } from '../../shared/domain/e-invoices/incoming/read';
import { recordEInvoice, refuseEInvoice } from '../../shared/domain/e-invoices/incoming/record';
import type { ReceiptFields } from '../../shared/domain/receipts/extract';
import { UnreadableDocumentError, type Extraction } from '../../shared/domain/receipts/extractor';
import { decideSuggestion } from '../../shared/domain/receipts/decide';
import { decisionButtonId } from '../../shared/domain/receipts/chat-buttons';
import { inboxItemWithDocument, markReceiptUnreadable, recordExtraction, recordReceipt } from '../../shared/domain/receipts/ingest';
import { matchReceipt, rematchOpenInboxItems, type MatchOutcome } from '../../shared/domain/receipts/match';
import type { Decision, DecisionOutcome, IngestInput } from '../../shared/temporal/receipt-ingestion/contract';
import type { ActivityDeps } from '../deps';
import { sendOnce } from '../messaging/send-once';

export function receiptActivities({ db, messaging, storage, receipts }: ActivityDeps) {
  /** The item and its document, which every step after ingestReceipt reads; gone means nothing left to do. */
  async function itemWithDocument(inboxItemId: string) {
    const found = await inboxItemWithDocument(db, inboxItemId);
    if (!found) throw ApplicationFailure.nonRetryable(`inbox item ${inboxItemId} or its document not found`, 'InboxItemNotFound');
    return found;
  }

  async function download(input: IngestInput): Promise<{ bytes: Buffer; mimeType: string }> {
    if (input.storedKey) return { bytes: await storage.get(input.storedKey), mimeType: input.mimeType };
    if (input.mediaId) return messaging.downloadMedia(input.mediaId);
    throw ApplicationFailure.nonRetryable('a receipt needs a storedKey or a mediaId', 'NoReceiptFile');
  }

  return {
    /** Downloads and stores the file once per team (same bytes, same document) and records the inbox item. */
    async ingestReceipt(input: IngestInput): Promise<{ inboxItemId: string; documentId: string; duplicate: boolean }> {
      return recordReceipt({ db, storage }, input, await download(input));
    },

    /**
     * A supplier's e-invoice (Factur-X/ZUGFeRD PDF, XRechnung, UBL or CII) read structurally, before
     * any OCR; otherwise PDF text, OCR for images, or the LLM when configured. What cannot be read with
     * confidence stays empty; an e-invoice that is malformed or whose totals disagree fails the item.
     */
    async extractReceipt(input: { inboxItemId: string }): Promise<ReceiptFields> {
      const { item, doc } = await itemWithDocument(input.inboxItemId);
      const bytes = await storage.get(doc.storageKey);
      const eInvoice = await readEInvoice(bytes, doc.mimeType);
      if (eInvoice.kind === 'read') return recordEInvoice(db, item, doc.id, eInvoice.invoice);
      if (eInvoice.kind === 'refused') {
        log.warn('e-invoice refused', { inboxItemId: item.id, reason: eInvoice.reason });
        await refuseEInvoice(db, item, doc.id, eInvoice.format, eInvoice.reason);
        return { amount: null, currency: null, date: null, merchant: null, taxAmount: null, taxRate: null };
      }
      let extraction: Extraction;
      try {
        extraction = await receipts.extract(bytes, doc.mimeType);
      } catch (err) {
        if (!(err instanceof UnreadableDocumentError)) throw err;
        // A broken file is kept and listed for someone to fill in by hand; retrying cannot read it.
        log.warn('receipt could not be read', { inboxItemId: item.id, reason: err.message });
        await markReceiptUnreadable(db, item, doc.id);
        return { amount: null, currency: null, date: null, merchant: null, taxAmount: null, taxRate: null };
      }
      return recordExtraction(db, item, doc.id, extraction);
    },

    /** Scores the team's transactions; records a pending suggestion, links at once (auto-match), or leaves the item open. */
    async matchReceipt(input: { teamId: string; inboxItemId: string }): Promise<MatchOutcome> {
      const outcome = await matchReceipt(db, input);
      if (!outcome) throw ApplicationFailure.nonRetryable(`inbox item ${input.inboxItemId} not found`, 'InboxItemNotFound');
      return outcome;
    },

    /** After new transactions arrive: receipts still waiting for one get matched now, as suggestions to review. */
    async rematchOpenInboxItems(input: { teamId: string }): Promise<{ checked: number; suggested: number }> {
      return rematchOpenInboxItems(db, input.teamId);
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
      const body = `Receipt${input.receiptName ? ` from ${input.receiptName}` : ''} matches "${input.name}", ${formatAmountWithCode(Math.abs(input.amount), input.currency)} on ${input.date}. Is this right?`;
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
