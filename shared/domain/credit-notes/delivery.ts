import type { Db } from '../../db/knex';
import { CreditNote } from '../../db/models';
import { dbNow } from '../../db/timestamps';
import type { Mailer } from '../../providers/mail';
import type { Storage } from '../../providers/storage';
import { formatMoney } from '../currencies/money';
import { deliverOnce, type DeliveryConfig, type DeliveryOutcome } from '../invoices/delivery';
import { invoiceEmailHtml } from '../invoices/email-html';
import { numberShown } from '../invoices/numbering';
import { localeOf } from '../invoices/pdf';
import { creditNoteEInvoiceOf, emailAttachments } from '../e-invoices/service';
import { creditNoteForPdf, renderCreditNotePdf } from './pdf';

/**
 * Emails the credit note to the invoice's customer once, with its PDF: the invoice's delivery
 * (claim, send, mark sent) under kind `credit_note` and the note's sequence on the invoice.
 */
export async function deliverCreditNoteEmail(
  db: Db,
  mailer: Mailer,
  config: DeliveryConfig,
  storage: Pick<Storage, 'get'> | undefined,
  target: { teamId: string; creditNoteId: string },
): Promise<DeliveryOutcome> {
  const { teamId, creditNoteId } = target;
  const data = await creditNoteForPdf(db, teamId, creditNoteId, storage);
  const recipient = data.customer?.billingEmail ?? data.customer?.email;
  if (!recipient) return 'no_recipient';
  const { creditNote: cn, invoice, team } = data;
  const note = await CreditNote.query(db).findOne({ teamId, id: creditNoteId }).select('sequence').throwIfNotFound();
  const invoiceNumber = numberShown(invoice);
  const credited = formatMoney(cn.amount, cn.currency, localeOf(team.countryCode));
  const lead = `${team.name} has issued credit note ${cn.creditNoteNumber} for ${credited}, correcting invoice ${invoiceNumber}.`;
  const payment = [...(cn.reason ? [cn.reason] : []), 'It is set against what is due on the invoice; what was already paid is refunded.'];
  return deliverOnce(
    db,
    mailer,
    config,
    { teamId, invoiceId: invoice.id, kind: 'credit_note', sequence: note.sequence, recipient },
    {
      compose: async (messageId) => ({
        to: recipient,
        subject: `Credit note ${cn.creditNoteNumber} for invoice ${invoiceNumber} from ${team.name}`,
        text: ['Hello,', '', lead, '', ...payment, '', 'The credit note is attached as a PDF.', '', team.name].join('\n'),
        html: invoiceEmailHtml({
          teamName: team.name,
          invoiceNumber: cn.creditNoteNumber,
          lead,
          amountDue: credited,
          due: null,
          payment,
          link: null,
          reminder: false,
          document: 'Credit note',
          amountLabel: 'Credited',
        }),
        messageId,
        replyTo: team.email ?? undefined,
        attachments: await emailAttachments(
          data.customer?.eInvoiceFormat,
          { filename: `${cn.creditNoteNumber}.pdf`, render: () => renderCreditNotePdf(data) },
          (format) => creditNoteEInvoiceOf(db, teamId, data, format),
        ),
      }),
      sent: async (trx) => {
        await CreditNote.query(trx).where({ teamId, id: creditNoteId }).patch({ sentAt: dbNow() });
      },
    },
  );
}
