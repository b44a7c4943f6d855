import { createHmac } from 'node:crypto';
import type { Db } from '../../db/knex';
import { Invoice, InvoiceDelivery } from '../../db/models';
import { dbNow } from '../../db/timestamps';
import type { Storage } from '../../providers/storage';
import type { MailMessage, Mailer } from '../../providers/mail';
import { formatMoney } from '../currencies/money';
import { sha256Hex } from '../crypto/tokens';
import { invoiceEmailHtml, type InvoiceEmailContent } from './email-html';
import { emailAttachments, invoiceEInvoiceOf, type MailAttachment } from '../e-invoices/service';
import { invoiceForPdf, localeOf, paymentLines, renderInvoicePdf } from './pdf';
import { numberShown } from './numbering';

export type DeliveryKind = 'invoice' | 'reminder';

export interface DeliveryConfig {
  /** Where the public link points; without it the email carries the PDF only. */
  PUBLIC_URL?: string;
  MAIL_FROM: string;
  /** Keys the links' tokens, so a resent email carries the same link and only the link's hash is kept. */
  ENCRYPTION_KEY: string;
}

export type DeliveryOutcome = 'sent' | 'already_sent' | 'no_recipient';

/** A claim older than this belongs to an attempt that died: SMTP answers well within it. */
const CLAIM_LEASE_SECONDS = 120;

export class DeliveryInProgress extends Error {
  constructor() {
    super('an earlier attempt is sending this email; retry later');
    this.name = 'DeliveryInProgress';
  }
}

const mailDomain = (from: string) => /@([^>\s]+)/.exec(from)?.[1] ?? 'localhost';

/**
 * Emails the invoice (or one of its reminders) to the customer once: the PDF attached and a public
 * link. The delivery is claimed before the send and recorded after, so a retry finds it sent; a
 * crash between the two sends again after the lease with the same Message-ID and the same link,
 * which mail clients show as one message.
 */
export async function deliverInvoiceEmail(
  db: Db,
  mailer: Mailer,
  config: DeliveryConfig,
  storage: Pick<Storage, 'get'> | undefined,
  target: { teamId: string; invoiceId: string; kind: DeliveryKind; sequence: number },
): Promise<DeliveryOutcome> {
  const { teamId, invoiceId, kind } = target;
  const data = await invoiceForPdf(db, teamId, invoiceId, storage);
  const recipient = data.customer?.billingEmail ?? data.customer?.email;
  if (!recipient) return 'no_recipient';
  return deliverOnce(
    db,
    mailer,
    config,
    { ...target, recipient },
    {
      compose: async (messageId, deliveryId) => {
        const link = await deliveryLink(db, config, { teamId, invoiceId, deliveryId });
        const attachments = await emailAttachments(
          data.customer?.eInvoiceFormat,
          { filename: `${numberShown(data.invoice)}.pdf`, render: () => renderInvoicePdf(data) },
          (format) => invoiceEInvoiceOf(db, teamId, data, format),
        );
        return composeEmail(data, kind, link, messageId, recipient, attachments);
      },
      sent: async (trx) => {
        if (kind === 'invoice') await Invoice.query(trx).where({ teamId, id: invoiceId }).patch({ sentAt: dbNow() });
      },
    },
  );
}

/**
 * One email of an invoice, sent once: claimed (a row of invoice_deliveries per invoice, kind and
 * sequence) before the send and marked sent after, so a retry finds it sent; a claim whose attempt
 * died is taken again after the lease, and the resend carries the same Message-ID.
 */
export async function deliverOnce(
  db: Db,
  mailer: Mailer,
  config: Pick<DeliveryConfig, 'MAIL_FROM'>,
  target: { teamId: string; invoiceId: string; kind: InvoiceDelivery['kind']; sequence: number; recipient: string },
  how: { compose: (messageId: string, deliveryId: string) => Promise<MailMessage>; sent: (trx: Db) => Promise<void> },
): Promise<Exclude<DeliveryOutcome, 'no_recipient'>> {
  const { teamId, invoiceId, kind, sequence, recipient } = target;
  const messageId = `<invoice-${invoiceId}-${kind}-${sequence}@${mailDomain(config.MAIL_FROM)}>`;
  const { rows } = await db.raw<{ rows: { id: string }[] }>(
    `insert into invoice_deliveries (team_id, invoice_id, kind, sequence, recipient, message_id) values (?, ?, ?, ?, ?, ?)
     on conflict (invoice_id, kind, sequence) do update set claimed_at = now()
      where invoice_deliveries.sent_at is null and invoice_deliveries.claimed_at < now() - make_interval(secs => ?)
     returning id`,
    [teamId, invoiceId, kind, sequence, recipient, messageId, CLAIM_LEASE_SECONDS],
  );
  const claimed = rows.at(0);
  if (!claimed) {
    const row = await InvoiceDelivery.query(db).findOne({ invoiceId, kind, sequence }).select('sentAt');
    if (row?.sentAt) return 'already_sent';
    throw new DeliveryInProgress();
  }

  try {
    await mailer.send(await how.compose(messageId, claimed.id));
  } catch (err) {
    // Not sent: the next attempt may send at once.
    await InvoiceDelivery.query(db).findById(claimed.id).whereNull('sentAt').delete();
    throw err;
  }
  await db.transaction(async (trx) => {
    await InvoiceDelivery.query(trx).findById(claimed.id).patch({ sentAt: dbNow() });
    await how.sent(trx);
  });
  return 'sent';
}

/** The delivery's own public link, the same on a resend (its token derives from the delivery); null without PUBLIC_URL. */
async function deliveryLink(
  db: Db,
  config: DeliveryConfig,
  d: { teamId: string; invoiceId: string; deliveryId: string },
): Promise<string | null> {
  if (!config.PUBLIC_URL) return null;
  const token = `inv_${createHmac('sha256', config.ENCRYPTION_KEY).update(`invoice-link:${d.deliveryId}`).digest('base64url')}`;
  await db.raw(`insert into invoice_links (team_id, invoice_id, token_hash) values (?, ?, ?) on conflict (token_hash) do nothing`, [
    d.teamId,
    d.invoiceId,
    sha256Hex(token),
  ]);
  return `${config.PUBLIC_URL.replace(/\/$/, '')}/i/${token}`;
}

/** The email itself: what is due and by when, in the team's locale, the link, and the PDF attached. */
function composeEmail(
  data: Awaited<ReturnType<typeof invoiceForPdf>>,
  kind: DeliveryKind,
  link: string | null,
  messageId: string,
  recipient: string,
  attachments: MailAttachment[],
): MailMessage {
  const { invoice, team } = data;
  const locale = localeOf(team.countryCode);
  const money = (n: number) => formatMoney(n, invoice.currency, locale);
  const due = invoice.dueDate
    ? new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${invoice.dueDate}T00:00:00Z`))
    : null;
  const amountDue = money(invoice.amountDue);
  const number = numberShown(invoice);
  const content: InvoiceEmailContent = {
    teamName: team.name,
    invoiceNumber: number,
    lead:
      kind === 'invoice'
        ? `${team.name} has sent you invoice ${number} for ${amountDue}${due ? `, due on ${due}` : ''}.`
        : `A reminder from ${team.name}: invoice ${number}${due ? `, due on ${due},` : ''} is still open; ${amountDue} is due.`,
    amountDue,
    due,
    payment: paymentLines(invoice, team, (d) => d ?? ''),
    link,
    reminder: kind === 'reminder',
  };
  const text = [
    'Hello,',
    '',
    content.lead,
    '',
    ...(content.payment.length ? [...content.payment, ''] : []),
    ...(link ? [`View and download it here: ${link}`, ''] : []),
    attachments.length > 1 ? 'The invoice is attached as a PDF and as an e-invoice.' : 'The invoice is attached as a PDF.',
    ...(content.reminder ? ['', 'If you have paid it already, thank you, and please ignore this reminder.'] : []),
    '',
    team.name,
  ].join('\n');
  return {
    to: recipient,
    subject: kind === 'invoice' ? `Invoice ${number} from ${team.name}` : `Reminder: invoice ${number} from ${team.name} is overdue`,
    text,
    html: invoiceEmailHtml(content),
    messageId,
    replyTo: team.email ?? undefined,
    attachments,
  };
}
