import type { Db } from '../../../db/knex';
import { Document, InboxItem } from '../../../db/models';
import { minorUnitsOf } from '../../currencies/money';
import { storableContent } from '../../documents/processing';
import type { ReceiptFields } from '../../receipts/extract';
import { eInvoiceText } from './read';
import type { ReceivedEInvoice, ReceivedFormat } from './received';

/** Minor units back to the decimal the inbox item's amount columns hold (numeric, exact for any currency's digits). */
const major = (units: number, currency: string) => units / 10 ** minorUnitsOf(currency);

/**
 * A supplier's e-invoice read in full: its figures on the inbox item as written (what is payable,
 * its VAT, the one rate when there is one), the whole structure beside them, and its words on the
 * document for search. Returns the fields as stored, as any receipt's reading does.
 */
export async function recordEInvoice(
  db: Db,
  item: Pick<InboxItem, 'id' | 'teamId'>,
  documentId: string,
  inv: ReceivedEInvoice,
): Promise<ReceiptFields> {
  const rates = [...new Set(inv.vatBreakdown.map((b) => b.rate))];
  const fields: ReceiptFields = {
    amount: major(inv.totals.payable, inv.currency),
    currency: inv.currency,
    date: inv.issueDate,
    merchant: inv.supplier.name.slice(0, 200),
    taxAmount: major(inv.totals.tax, inv.currency),
    taxRate: rates.length === 1 ? rates[0] : null,
  };
  await db.transaction(async (trx) => {
    await InboxItem.query(trx).findById(item.id).patch({
      status: 'analyzing',
      displayName: fields.merchant,
      amount: fields.amount,
      currency: fields.currency,
      date: fields.date,
      taxAmount: fields.taxAmount,
      taxRate: fields.taxRate,
      extractionMethod: 'e_invoice',
      eInvoiceFormat: inv.format,
      eInvoice: inv,
      failureReason: null,
      updatedAt: new Date(),
    });
    await Document.query(trx)
      .findOne({ teamId: item.teamId, id: documentId })
      .patch({ processingStatus: 'completed', title: fields.merchant, content: storableContent(eInvoiceText(inv)), updatedAt: new Date() });
  });
  return fields;
}

/**
 * A file that claims to be an e-invoice and is not a sound one (malformed, a DTD, totals that
 * disagree): the item fails with the reason, keeps no figures, and is never matched; its document
 * is kept, marked failed with the same reason.
 */
export async function refuseEInvoice(
  db: Db,
  item: Pick<InboxItem, 'id' | 'teamId'>,
  documentId: string,
  format: ReceivedFormat | null,
  reason: string,
): Promise<void> {
  await db.transaction(async (trx) => {
    await InboxItem.query(trx)
      .findById(item.id)
      .patch({
        status: 'failed',
        failureReason: `E-invoice refused: ${reason}`.slice(0, 1000),
        eInvoiceFormat: format,
        eInvoice: null,
        amount: null,
        taxAmount: null,
        taxRate: null,
        extractionMethod: null,
        updatedAt: new Date(),
      });
    await Document.query(trx)
      .findOne({ teamId: item.teamId, id: documentId })
      .patch({ processingStatus: 'failed', processingError: reason.slice(0, 500), processedAt: new Date(), updatedAt: new Date() });
  });
}
