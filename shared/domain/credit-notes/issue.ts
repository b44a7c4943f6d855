import type { ModelObject } from 'objection';
import type { Db } from '../../db/knex';
import { CreditNote, CreditNoteLineItem, Invoice, InvoiceLineItem, Team } from '../../db/models';
import { badRequest, conflict } from '../../errors';
import { roundMoney } from '../currencies/money';
import { todayIn } from '../common/time-zone';
import { lineAmounts } from '../invoices/totals';
import { nextCreditNoteNumber } from './numbering';
import type { CreateCreditNoteBody } from './schema';

/** An invoice is credited once it is issued: it has a number and went out (draft and scheduled have not). */
const CREDITABLE: readonly Invoice['status'][] = ['unpaid', 'overdue', 'paid', 'refunded'];

export const isIssued = (invoice: Pick<Invoice, 'status' | 'invoiceNumber'>) =>
  invoice.invoiceNumber !== null && CREDITABLE.includes(invoice.status);

interface Left {
  net: number;
  vat: number;
  tax: number;
}

type NewLine = Omit<ModelObject<CreditNoteLineItem>, 'id' | 'teamId' | 'creditNoteId' | 'createdAt' | 'position'>;

/**
 * Issues a credit note for a locked invoice (the caller holds its row): the chosen lines and amounts,
 * or everything left. Never more than is left: per line (its net amount less what earlier notes
 * credited on it) and in all (the invoice's total less what they credited): 400 for more, 409 when
 * nothing is left. Numbered from the team's series for the year in the same transaction.
 */
export async function issueCreditNote(
  trx: Db,
  invoice: Invoice,
  opts: { lineItems?: CreateCreditNoteBody['lineItems']; reason?: string | null; emailDelivery: boolean; userId: string | null },
): Promise<CreditNote> {
  const { teamId, currency } = invoice;
  if (!isIssued(invoice)) throw conflict(`Only an issued invoice can be credited; this one is ${invoice.status}`);
  const round = (n: number) => roundMoney(n, currency);
  const leftInAll = round(invoice.amount - invoice.amountCredited);
  if (leftInAll <= 0) throw conflict(`Invoice ${invoice.invoiceNumber} is fully credited: nothing is left to credit`);

  const invoiceLines = await InvoiceLineItem.query(trx).where({ teamId, invoiceId: invoice.id }).orderBy('position');
  const credited = await trx('credit_note_line_items as l')
    .join('credit_notes as n', 'n.id', 'l.credit_note_id')
    .where({ 'n.team_id': teamId, 'n.invoice_id': invoice.id })
    .groupBy('l.invoice_line')
    .select<{ invoiceLine: number; net: number; vat: number; tax: number }[]>(
      'l.invoice_line',
      trx.raw('sum(l.net)::float8 as net'),
      trx.raw('sum(l.vat_amount)::float8 as vat'),
      trx.raw('sum(l.tax_amount)::float8 as tax'),
    );
  const left: Left[] = invoiceLines.map((line, i) => {
    const printed = lineAmounts(line, currency);
    const done = credited.find((c) => c.invoiceLine === i);
    return {
      net: round(printed.net - (done?.net ?? 0)),
      vat: round(printed.vat - (done?.vat ?? 0)),
      tax: round(printed.tax - (done?.tax ?? 0)),
    };
  });

  const lines: NewLine[] = [];
  const asked = opts.lineItems ?? left.map((_, line) => ({ line, quantity: undefined, amount: undefined }));
  for (const [k, want] of asked.entries()) {
    const source = invoiceLines.at(want.line);
    const field = `lineItems.${k}`;
    if (!source)
      throw badRequest('No such invoice line', [{ field: `${field}.line`, message: `the invoice has ${invoiceLines.length} lines` }]);
    const rest = left[want.line];
    // Nothing left on the line: passed over in a full credit, refused when asked for by name.
    if (rest.net === 0 && rest.vat === 0 && rest.tax === 0) {
      if (opts.lineItems) throw conflict(`Line ${want.line} (${source.name}) of invoice ${invoice.invoiceNumber} is fully credited`);
      continue;
    }
    const rates = { vatRate: source.vatRate, taxRate: source.taxRate };
    let line: NewLine;
    if (want.quantity === undefined && want.amount === undefined) {
      // The whole remainder, exactly: what earlier notes left, so the line closes to the cent.
      const whole = rest.net === round(lineAmounts(source, currency).net);
      line = {
        invoiceLine: want.line,
        name: source.name,
        quantity: whole ? source.quantity : 1,
        unit: whole ? source.unit : null,
        price: whole ? source.price : rest.net,
        ...rates,
        net: rest.net,
        vatAmount: rest.vat,
        taxAmount: rest.tax,
      };
    } else {
      // A quantity at the line's price, or an amount as one unit.
      const quantity = want.quantity ?? 1;
      const price = want.amount ?? source.price;
      const a = lineAmounts({ quantity, price, ...rates }, currency);
      if (a.net > rest.net) {
        throw badRequest('More than is left to credit on the line', [
          { field, message: `at most ${rest.net} ${currency} (net) is left to credit on line ${want.line}` },
        ]);
      }
      line = {
        invoiceLine: want.line,
        name: source.name,
        quantity,
        unit: want.quantity !== undefined ? source.unit : null,
        price,
        ...rates,
        net: a.net,
        // Rounding never takes more VAT or tax than the line has left.
        vatAmount: Math.min(a.vat, rest.vat),
        taxAmount: Math.min(a.tax, rest.tax),
      };
    }
    lines.push(line);
  }

  const sum = (pick: (l: NewLine) => number) => round(lines.reduce((s, l) => s + pick(l), 0));
  const subtotal = sum((l) => l.net);
  const vat = sum((l) => l.vatAmount);
  const tax = sum((l) => l.taxAmount);
  const earlier = await earlierNotes(trx, invoice);
  // The invoice's discount goes back with the full remainder, not with a chosen part.
  const discount = opts.lineItems ? 0 : round(invoice.discount - earlier.discount);
  const amount = round(subtotal + vat + tax - discount);
  if (amount <= 0) throw conflict(`Invoice ${invoice.invoiceNumber} has nothing left to credit`);
  if (amount > leftInAll) {
    throw badRequest('More than is left to credit on the invoice', [
      { field: 'lineItems', message: `at most ${leftInAll} ${currency} is left to credit; this is ${amount}` },
    ]);
  }

  const team = await Team.query(trx).findById(teamId).select('timezone').throwIfNotFound();
  const issueDate = todayIn(team.timezone ?? 'UTC');
  const note = await CreditNote.query(trx).insert({
    teamId,
    invoiceId: invoice.id,
    creditNoteNumber: await nextCreditNoteNumber(trx, teamId, issueDate),
    sequence: earlier.count + 1,
    typeCode: '381',
    currency,
    subtotal,
    vat,
    tax,
    discount,
    amount,
    reason: opts.reason ?? null,
    issueDate,
    emailDelivery: opts.emailDelivery,
    createdBy: opts.userId,
  });
  await CreditNoteLineItem.query(trx).insert(lines.map((l, position) => ({ ...l, teamId, creditNoteId: note.id, position })));
  await Invoice.query(trx)
    .where({ teamId, id: invoice.id })
    .patch({ amountCredited: round(invoice.amountCredited + amount) });
  invoice.amountCredited = round(invoice.amountCredited + amount);
  return note;
}

/** How many notes the invoice already has, and how much of its discount they gave back: one read of them. */
async function earlierNotes(trx: Db, invoice: Invoice): Promise<{ count: number; discount: number }> {
  const row = await trx('credit_notes')
    .where({ team_id: invoice.teamId, invoice_id: invoice.id })
    .first<{ count: number; discount: number } | undefined>(
      trx.raw('count(*)::int as count'),
      trx.raw('coalesce(sum(discount), 0)::float8 as discount'),
    );
  return row ?? { count: 0, discount: 0 };
}

/** A credit note of the invoice waits to be emailed: its lifecycle run has work even once the invoice is closed. */
export async function hasCreditNoteToEmail(db: Db, teamId: string, invoiceId: string): Promise<boolean> {
  return Boolean(await CreditNote.query(db).findOne({ teamId, invoiceId, emailDelivery: true, sentAt: null }).select('id'));
}
