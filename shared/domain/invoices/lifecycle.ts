import type { Db } from '../../db/knex';
import type { Mailer } from '../../providers/mail';
import type { Storage } from '../../providers/storage';
import { badRequest, conflict, notFound, workflowServiceUnreachable } from '../../errors';
import type { TemporalGateway } from '../../temporal/client';
import {
  keepInvoiceLifecycle,
  queryInvoiceLifecycle,
  signalInvoiceChanged,
  type InvoiceAbout,
} from '../../temporal/invoice-lifecycle/calls';
import type { InvoiceNextAction, InvoiceStepPlan } from '../../temporal/invoice-lifecycle/contract';
import { roundMoney } from '../currencies/money';
import { startOfDayIn, todayIn } from '../common/time-zone';
import { notify } from '../notifications/service';
import { addDays } from '../reports/period';
import { amountDue } from './amount-due';
import { deliverInvoiceEmail, type DeliveryConfig, type DeliveryOutcome } from './delivery';
import {
  canTransition,
  lockInvoice,
  transitionInvoice,
  type InvoiceStatus,
  type InvoiceTransition,
  type TransitionDetails,
} from './status';
import { CreditNote, Customer, Invoice, InvoiceDelivery, InvoicePayment, Team } from '../../db/models';
import { hasCreditNoteToEmail, isIssued, issueCreditNote } from '../credit-notes/issue';
import { deliverCreditNoteEmail } from '../credit-notes/delivery';
import type { CreateCreditNoteBody } from '../credit-notes/schema';
import { dbNow } from '../../db/timestamps';
import type { INVOICE_ACTIONS, InvoiceDto } from './schema';
import { getInvoice } from './service';
import { numberShown } from './numbering';

/** Statuses an InvoiceLifecycle run looks after; any other ends it. */
const LIVE: readonly InvoiceStatus[] = ['scheduled', 'unpaid', 'overdue'];
/** With nothing due (overdue, reminders done or off), the run still looks again now and then: a lost signal costs at most this. */
const RECHECK_DAYS = 7;

/**
 * One status change through the state machine, and the invoice's lifecycle told. A change that
 * leaves it live starts or wakes the run inside the transaction, while the row is locked: the run's
 * first read waits for the commit, and a Temporal that cannot be reached rolls the change back (503)
 * rather than leave an invoice that nothing will send. A change that ends it signals after the
 * commit, best effort: a run that misses it ends at its next wake-up, finding the invoice closed;
 * unless a credit note of it waits to be emailed (a cancellation's), which the run must live to send.
 * `before` runs in the transaction, on the locked invoice, before the transition.
 */
export async function changeInvoiceStatus(
  db: Db,
  temporal: TemporalGateway,
  target: { teamId: string; invoiceId: string },
  t: InvoiceTransition,
  details: TransitionDetails = {},
  before?: (trx: Db, invoice: Invoice) => Promise<void>,
): Promise<void> {
  const { teamId, invoiceId } = target;
  const live = await db.transaction(async (trx) => {
    const current = await lockInvoice(trx, teamId, invoiceId);
    if (!current) throw notFound(`Invoice ${invoiceId} not found`);
    await before?.(trx, current);
    const to = await transitionInvoice(trx, current, t, details);
    if (!LIVE.includes(to) && !(await hasCreditNoteToEmail(trx, teamId, invoiceId))) return false;
    await keepInvoiceLifecycle(temporal, target, await invoiceAbout(trx, teamId, invoiceId)).catch((err: unknown) => {
      throw workflowServiceUnreachable(err);
    });
    return true;
  });
  if (!live) await signalInvoiceChanged(temporal, invoiceId).catch(() => false);
}

/** What the invoice's run is listed by, read after the transition (issuing it sets its due date). */
async function invoiceAbout(trx: Db, teamId: string, invoiceId: string): Promise<InvoiceAbout> {
  const about = await trx('invoices as i')
    .leftJoin('customers as c', (on) => on.on('c.id', 'i.customer_id').andOn('c.team_id', 'i.team_id'))
    .where({ 'i.team_id': teamId, 'i.id': invoiceId })
    .first<InvoiceAbout | undefined>('i.invoice_number', 'c.name as customer_name', 'i.amount', 'i.currency', 'i.due_date');
  if (!about) throw notFound(`Invoice ${invoiceId} not found`);
  return about;
}

/** A REST/tRPC action on the status machine: finalize, send, mark-paid or cancel. */
export function applyInvoiceAction(
  db: Db,
  temporal: TemporalGateway,
  teamId: string,
  invoiceId: string,
  action: (typeof INVOICE_ACTIONS)[number],
  body: { paidAt?: string; paymentReference?: string },
  userId: string | null = null,
): Promise<void> {
  if (action === 'send') return sendInvoice(db, temporal, teamId, invoiceId);
  if (action === 'cancel') return cancelInvoice(db, temporal, { teamId, invoiceId, userId });
  return changeInvoiceStatus(db, temporal, { teamId, invoiceId }, action, {
    at: body.paidAt ? new Date(body.paidAt) : undefined,
    paymentReference: body.paymentReference,
  });
}

/**
 * Cancels an invoice. One that was issued is part of the books, so its cancellation is a document
 * too: the credit note of everything not yet credited, issued in the same transaction (and emailed
 * to the customer when the invoice was). A draft or a scheduled invoice, never issued, just ends.
 */
export function cancelInvoice(db: Db, temporal: TemporalGateway, target: { teamId: string; invoiceId: string; userId: string | null }) {
  const { teamId, invoiceId, userId } = target;
  return changeInvoiceStatus(db, temporal, { teamId, invoiceId }, 'cancel', {}, async (trx, invoice) => {
    if (!isIssued(invoice) || !canTransition(invoice.status, 'cancel')) return;
    if (roundMoney(invoice.amount - invoice.amountCredited, invoice.currency) <= 0) return;
    await issueCreditNote(trx, invoice, {
      reason: `Cancellation of invoice ${invoice.invoiceNumber}`,
      emailDelivery: invoice.emailDelivery,
      userId,
    });
  });
}

/**
 * Issues a credit note for the invoice (see issueCreditNote). When it leaves nothing to pay on an
 * open invoice, the invoice is closed with it: paid when payments and credit cover it, canceled when
 * credit alone does. A note to be emailed starts or wakes the invoice's run inside the transaction
 * (503 and nothing issued when Temporal cannot be reached); otherwise the run is told after the commit.
 */
export async function createCreditNote(
  db: Db,
  temporal: TemporalGateway,
  target: { teamId: string; invoiceId: string; userId: string | null },
  body: CreateCreditNoteBody,
): Promise<string> {
  const { teamId, invoiceId } = target;
  const { id, wake } = await db.transaction(async (trx) => {
    const invoice = await lockInvoice(trx, teamId, invoiceId);
    if (!invoice) throw notFound(`Invoice ${invoiceId} not found`);
    const note = await issueCreditNote(trx, invoice, {
      lineItems: body.lineItems,
      reason: body.reason,
      emailDelivery: body.send ?? false,
      userId: target.userId,
    });
    const open = invoice.status === 'unpaid' || invoice.status === 'overdue';
    if (open && amountDue(invoice) <= 0) await transitionInvoice(trx, invoice, invoice.amountPaid > 0 ? 'mark-paid' : 'cancel');
    if (!note.emailDelivery) return { id: note.id, wake: open };
    await keepInvoiceLifecycle(temporal, { teamId, invoiceId }, await invoiceAbout(trx, teamId, invoiceId)).catch((err: unknown) => {
      throw workflowServiceUnreachable(err);
    });
    return { id: note.id, wake: false };
  });
  // Reminders state what is still due, and a closed invoice ends its run.
  if (wake) await signalInvoiceChanged(temporal, invoiceId).catch(() => false);
  return id;
}

/** How long GET /invoices/:id waits for the run to answer before it shows the invoice without it. */
const QUERY_PATIENCE_MS = 1_500;

/** The invoice with what its lifecycle does next (a workflow query); `lifecycle` is null when no run is open or none answers in time. */
export async function getInvoiceWithLifecycle(db: Db, temporal: TemporalGateway, teamId: string, invoiceId: string): Promise<InvoiceDto> {
  const invoice = await getInvoice(db, teamId, invoiceId);
  if (!LIVE.includes(invoice.status)) return { ...invoice, lifecycle: null };
  const lifecycle = await queryInvoiceLifecycle(temporal, invoiceId, QUERY_PATIENCE_MS).catch(() => null);
  return { ...invoice, lifecycle };
}

/** An invoice that is to be emailed needs somewhere to go. */
async function assertRecipient(trx: Db, invoice: Invoice): Promise<void> {
  const customer = invoice.customerId
    ? await Customer.query(trx).findOne({ teamId: invoice.teamId, id: invoice.customerId }).select('email', 'billingEmail')
    : undefined;
  if (!customer?.billingEmail && !customer?.email) {
    throw conflict('The invoice has no customer email address to go to: set the customer’s billingEmail or email first');
  }
}

/** Issues the invoice and emails it to the customer now (a draft, or a scheduled one brought forward). */
export function sendInvoice(db: Db, temporal: TemporalGateway, teamId: string, invoiceId: string): Promise<void> {
  return changeInvoiceStatus(db, temporal, { teamId, invoiceId }, 'send', {}, assertRecipient);
}

/** Emails the invoice at `sendAt`; on a scheduled invoice, moves the time (the run's one timer follows). */
export function scheduleInvoice(db: Db, temporal: TemporalGateway, teamId: string, invoiceId: string, sendAt: Date): Promise<void> {
  if (sendAt.getTime() <= Date.now())
    throw badRequest('Invalid sendAt', [{ field: 'sendAt', message: 'must be in the future; send it now instead' }]);
  return changeInvoiceStatus(db, temporal, { teamId, invoiceId }, 'schedule', { sendAt }, assertRecipient);
}

/** A scheduled invoice goes back to draft; its run ends without sending. */
export function unscheduleInvoice(db: Db, temporal: TemporalGateway, teamId: string, invoiceId: string): Promise<void> {
  return changeInvoiceStatus(db, temporal, { teamId, invoiceId }, 'unschedule');
}

/**
 * Records a payment against an open invoice: the amount due goes down, and when the payments reach
 * the total the invoice is paid (and its lifecycle ends). More than is due is refused (400).
 */
export async function recordInvoicePayment(
  db: Db,
  temporal: TemporalGateway,
  target: { teamId: string; invoiceId: string; userId: string | null },
  payment: { amount: number; paidAt?: Date; reference?: string | null; transactionId?: string },
): Promise<void> {
  const { teamId, invoiceId } = target;
  const paidAt = payment.paidAt ?? new Date();
  const settled = await db.transaction(async (trx) => {
    const invoice = await lockInvoice(trx, teamId, invoiceId);
    if (!invoice) throw notFound(`Invoice ${invoiceId} not found`);
    if (invoice.status !== 'unpaid' && invoice.status !== 'overdue') {
      throw conflict(`Payments are recorded against unpaid or overdue invoices; this one is ${invoice.status}`);
    }
    // In the invoice currency's minor unit: a payment of ¥1,000.4 is one of ¥1,000.
    const due = amountDue(invoice);
    const amount = roundMoney(payment.amount, invoice.currency);
    if (amount > due) {
      throw badRequest('More than is due', [{ field: 'amount', message: `at most ${due} ${invoice.currency} is due` }]);
    }
    if (amount <= 0) {
      throw badRequest('Less than the currency can pay', [{ field: 'amount', message: `rounds to 0 ${invoice.currency}` }]);
    }
    await InvoicePayment.query(trx).insert({
      teamId,
      invoiceId,
      amount,
      paidAt,
      reference: payment.reference ?? null,
      transactionId: payment.transactionId ?? null,
      createdBy: target.userId,
    });
    const amountPaid = roundMoney(invoice.amountPaid + amount, invoice.currency);
    await Invoice.query(trx).where({ teamId, id: invoiceId }).patch({ amountPaid, updatedAt: dbNow() });
    // Settled when this payment covers what was due.
    if (roundMoney(due - amount, invoice.currency) > 0) return false;
    await transitionInvoice(trx, invoice, 'mark-paid', { at: paidAt, paymentReference: payment.reference ?? null });
    return true;
  });
  // A partial payment changes what reminders say, not when they go: only a settled invoice ends the run.
  if (settled) await signalInvoiceChanged(temporal, invoiceId).catch(() => false);
}

interface LifecycleRow {
  status: InvoiceStatus;
  invoiceNumber: string | null;
  scheduledAt: Date | null;
  dueDate: string | null;
  emailDelivery: boolean;
  amount: number;
  amountPaid: number;
  currency: string;
  timezone: string | null;
  invoiceReminderDays: number[];
  invoiceReminders: boolean | null;
  invoiceSent: boolean;
  lastReminder: number;
  creditNoteToEmail: boolean;
}

/**
 * The invoice as its lifecycle sees it. `for share` waits for an API transaction that holds the
 * row (it starts the run before it commits), so the run never plans from the state before a change.
 */
async function readLifecycleRow(db: Db, teamId: string, invoiceId: string): Promise<LifecycleRow | undefined> {
  return db.transaction(async (trx) => {
    const row = await trx('invoices as i')
      .join('teams as t', 't.id', 'i.team_id')
      .leftJoin('customers as c', 'c.id', 'i.customer_id')
      .where({ 'i.team_id': teamId, 'i.id': invoiceId })
      .forShare('i')
      .first<LifecycleRow | undefined>(
        'i.status',
        'i.invoice_number',
        'i.scheduled_at',
        'i.due_date',
        'i.email_delivery',
        'i.amount',
        'i.amount_paid',
        'i.currency',
        't.timezone',
        't.invoice_reminder_days',
        'c.invoice_reminders',
        trx.raw(
          `exists (select 1 from invoice_deliveries d where d.invoice_id = i.id and d.kind = 'invoice' and d.sent_at is not null) as invoice_sent`,
        ),
        trx.raw(
          `coalesce((select max(d.sequence) from invoice_deliveries d where d.invoice_id = i.id and d.kind = 'reminder'), 0) as last_reminder`,
        ),
        trx.raw(
          `exists (select 1 from credit_notes n where n.invoice_id = i.id and n.email_delivery and n.sent_at is null) as credit_note_to_email`,
        ),
      );
    return row;
  });
}

/** The reminders of the team's cadence still to come: their number (1-based) and when each is due. */
function remindersAfter(row: LifecycleRow): { reminder: number; at: Date }[] {
  const { dueDate } = row;
  if (!row.invoiceReminders || !dueDate) return [];
  const tz = row.timezone ?? 'UTC';
  return [...row.invoiceReminderDays]
    .sort((a, b) => a - b)
    .map((days, i) => ({ reminder: i + 1, at: startOfDayIn(addDays(dueDate, days), tz) }))
    .filter((r) => r.reminder > row.lastReminder);
}

/** When an unpaid invoice becomes overdue: the start of the day after its due date where the team is. */
const overdueAt = (dueDate: string, timezone: string | null) => startOfDayIn(addDays(dueDate, 1), timezone ?? 'UTC');

/** What the invoice's lifecycle does next, read from the database. */
export async function planInvoiceStep(db: Db, teamId: string, invoiceId: string, now = new Date()): Promise<InvoiceStepPlan> {
  const row = await readLifecycleRow(db, teamId, invoiceId);
  if (!row) return { stage: 'ended', status: 'deleted', action: null, at: null };
  const recheckAt = new Date(now.getTime() + RECHECK_DAYS * 86_400_000);
  const plan = (
    stage: InvoiceStepPlan['stage'],
    action: InvoiceNextAction | null,
    at: Date | null,
    reminder?: number,
  ): InvoiceStepPlan => ({
    stage,
    status: row.status,
    action,
    at: at?.toISOString() ?? null,
    ...(reminder ? { reminder } : {}),
  });
  // A credit note goes out first, whatever the invoice's status (a cancellation's goes after the invoice closed).
  if (row.creditNoteToEmail) return plan('sending', 'email-credit-note', now);
  switch (row.status) {
    case 'scheduled':
      return plan('scheduled', 'send', row.scheduledAt ?? now);
    case 'unpaid':
    case 'overdue': {
      if (row.emailDelivery && !row.invoiceSent) return plan('sending', 'email', now);
      if (row.status === 'unpaid')
        return row.dueDate
          ? plan('awaiting_payment', 'mark-overdue', overdueAt(row.dueDate, row.timezone))
          : plan('awaiting_payment', 'recheck', recheckAt);
      const coming = remindersAfter(row);
      // Of reminders already due, only the latest goes: an invoice found weeks overdue gets one reminder, not three at once.
      const due = coming.filter((r) => r.at <= now).at(-1);
      if (due) return plan('overdue', 'remind', now, due.reminder);
      if (coming[0]) return plan('overdue', 'remind', coming[0].at, coming[0].reminder);
      return plan('overdue', 'recheck', recheckAt);
    }
    default:
      return plan('ended', null, null);
  }
}

export interface StepDeps {
  db: Db;
  mailer: Mailer;
  config: DeliveryConfig;
  /** Where the team's logo is stored. */
  storage?: Pick<Storage, 'get'>;
}

export type StepOutcome = 'done' | 'skipped' | DeliveryOutcome;

/**
 * Does one planned step, after checking again under a lock that it is still due: a signal may have
 * been lost, or the invoice changed between the plan and now. Each step is safe to repeat.
 */
export async function performInvoiceStep(
  deps: StepDeps,
  step: { teamId: string; invoiceId: string; action: InvoiceNextAction; reminder?: number },
  now = new Date(),
): Promise<StepOutcome> {
  const { db } = deps;
  const { teamId, invoiceId } = step;
  switch (step.action) {
    case 'send':
      return db.transaction(async (trx) => {
        const invoice = await lockInvoice(trx, teamId, invoiceId);
        if (invoice?.status !== 'scheduled' || !invoice.scheduledAt || invoice.scheduledAt > now) return 'skipped';
        await transitionInvoice(trx, invoice, 'send');
        return 'done';
      });
    case 'mark-overdue':
      return db.transaction(async (trx) => {
        const invoice = await lockInvoice(trx, teamId, invoiceId);
        if (invoice?.status !== 'unpaid' || !invoice.dueDate) return 'skipped';
        const team = await Team.query(trx).findById(teamId).select('timezone');
        if (todayIn(team?.timezone ?? 'UTC', now) <= invoice.dueDate) return 'skipped';
        await transitionInvoice(trx, invoice, 'mark-overdue');
        await notify(trx, {
          teamId,
          type: 'invoice_overdue',
          metadata: {
            invoiceId,
            invoiceNumber: numberShown(invoice),
            dueDate: invoice.dueDate,
            amountDue: amountDue(invoice),
            currency: invoice.currency,
          },
        });
        return 'done';
      });
    case 'email':
    case 'remind': {
      const kind = step.action === 'email' ? 'invoice' : 'reminder';
      const row = await readLifecycleRow(db, teamId, invoiceId);
      const open = row && (row.status === 'unpaid' || row.status === 'overdue');
      if (!open || (kind === 'reminder' && (row.status !== 'overdue' || !row.invoiceReminders))) return 'skipped';
      const outcome = await deliverInvoiceEmail(db, deps.mailer, deps.config, deps.storage, {
        teamId,
        invoiceId,
        kind,
        sequence: kind === 'invoice' ? 0 : (step.reminder ?? row.lastReminder + 1),
      });
      if (outcome === 'no_recipient') {
        // Nobody to send to: the team hears of it once, and the run stops trying this email.
        await db.transaction(async (trx) => {
          if (kind === 'invoice') await Invoice.query(trx).where({ teamId, id: invoiceId }).patch({ emailDelivery: false });
          // The reminder is passed over (an unsent delivery row), so the next one in the cadence is planned.
          else
            await InvoiceDelivery.query(trx)
              .insert({ teamId, invoiceId, kind, sequence: step.reminder ?? row.lastReminder + 1, recipient: '', messageId: '' })
              .onConflict(['invoice_id', 'kind', 'sequence'])
              .ignore();
          await notify(trx, { teamId, type: 'invoice_undeliverable', metadata: { invoiceId, invoiceNumber: numberShown(row), kind } });
        });
      }
      return outcome;
    }
    case 'email-credit-note':
      return emailCreditNotes(deps, teamId, invoiceId);
    case 'recheck':
      return 'skipped';
  }
}

/** Emails each credit note of the invoice that waits for it; one whose customer has no address is passed over, and the team told. */
async function emailCreditNotes(deps: StepDeps, teamId: string, invoiceId: string): Promise<StepOutcome> {
  const { db } = deps;
  const waiting = await CreditNote.query(db).where({ teamId, invoiceId, emailDelivery: true, sentAt: null }).orderBy('sequence');
  let outcome: StepOutcome = 'skipped';
  for (const note of waiting) {
    outcome = await deliverCreditNoteEmail(db, deps.mailer, deps.config, deps.storage, { teamId, creditNoteId: note.id });
    if (outcome !== 'no_recipient') continue;
    await db.transaction(async (trx) => {
      await CreditNote.query(trx).where({ teamId, id: note.id }).patch({ emailDelivery: false });
      const invoice = await Invoice.query(trx).findOne({ teamId, id: invoiceId }).select('invoiceNumber');
      await notify(trx, {
        teamId,
        type: 'invoice_undeliverable',
        metadata: { invoiceId, invoiceNumber: invoice ? numberShown(invoice) : note.creditNoteNumber, kind: 'credit_note' },
      });
    });
  }
  return outcome;
}
