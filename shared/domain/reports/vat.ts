import type { Db } from '../../db/knex';
import { Team } from '../../db/models';
import { minorUnitsOf, unitsRounder } from '../currencies/money';
import type { ReceivedVat } from '../e-invoices/incoming/received';
import { lineAmounts } from '../invoices/totals';
import type { VatReport, VatReportQuery } from './schema';

// Every figure is summed in ten-thousandths (numeric(19,4)) after each document's or transaction's
// VAT and net are rounded to the report currency's minor unit, so the totals are the sums of what
// each row shows, without float drift.

const UNATTRIBUTED_LISTED = 200;
type Unattributed = VatReport['unattributed']['items'][number];

/** One document's or transaction's share at one rate, in ten-thousandths of the report currency. */
interface VatPart {
  rate: number;
  net: number;
  vat: number;
  source: string;
}

const toUnits = (n: number) => Math.sign(n) * Math.round(Math.abs(n) * 10_000);

/** Into the report currency: `factor` is null when a rate is missing. */
const factorSql = (dateColumn: string, currencyColumn: string) =>
  `case when ${currencyColumn} = :base then cast(1 as float8)
        else cast(eur_rate(:base, ${dateColumn}) / eur_rate(${currencyColumn}, ${dateColumn}) as float8) end`;

// An invoice counts once it is issued: numbered and open, paid or refunded; a canceled one only when it
// was issued before (its cancellation is a credit note, which counts against it).
const INVOICE_LINES = `
  select i.id, to_char(i.issue_date, 'YYYY-MM-DD') as date, i.currency, cast(i.amount as float8) as amount,
         cast(l.quantity as float8) as quantity, cast(l.price as float8) as price, cast(l.vat_rate as float8) as "vatRate",
         ${factorSql('i.issue_date', 'i.currency')} as factor
    from invoices i
    join invoice_line_items l on l.team_id = i.team_id and l.invoice_id = i.id
   where i.team_id = :teamId and i.invoice_number is not null and i.issue_date between :from and :to
     and (i.status in ('unpaid', 'overdue', 'paid', 'refunded')
          or (i.status = 'canceled' and exists (select 1 from credit_notes c where c.team_id = i.team_id and c.invoice_id = i.id)))
   order by i.issue_date, i.id, l.position`;

const CREDIT_NOTE_LINES = `
  select c.id, to_char(c.issue_date, 'YYYY-MM-DD') as date, c.currency, cast(c.amount as float8) as amount,
         cast(l.vat_rate as float8) as "vatRate", cast(l.net as float8) as net, cast(l.vat_amount as float8) as vat,
         ${factorSql('c.issue_date', 'c.currency')} as factor
    from credit_notes c
    join credit_note_line_items l on l.team_id = c.team_id and l.credit_note_id = c.id
   where c.team_id = :teamId and c.issue_date between :from and :to
   order by c.issue_date, c.id, l.position`;

// A received e-invoice counts while its inbox item stands (not refused, not deleted).
const RECEIVED_STANDS = `r.e_invoice is not null and r.status not in ('failed', 'deleted') and r.deleted_at is null`;

// Expenses as the other reports count them (posted or completed, no internal transfers, no excluded
// category such as taxes paid to the office), less those paid against a received e-invoice: its
// exact breakdown counts instead, by the invoice's date. A split transaction counts as its parts, each
// at its own category's rate with its share of a stated tax (migration 0098 counts the totals alike).
const EXPENSES = `
  select t.id, to_char(t.date, 'YYYY-MM-DD') as date, t.currency, cast(p.amount as float8) as amount,
         cast(p.tax_amount as float8) as "taxAmount", cast(coalesce(t.tax_rate, c.tax_rate) as float8) as rate,
         c.id is not null as categorised, ${factorSql('t.date', 't.currency')} as factor
    from transactions t
    cross join lateral (
      select t.category_slug, t.amount, t.tax_amount where t.splits is null
      union all
      select s ->> 'categorySlug', (s ->> 'amount')::numeric, t.tax_amount * (s ->> 'amount')::numeric / t.amount
        from jsonb_array_elements(t.splits) s
    ) p(category_slug, amount, tax_amount)
    left join transaction_categories c on c.team_id = t.team_id and c.slug = p.category_slug
   where t.team_id = :teamId and t.date between :from and :to and t.amount < 0
     and t.status in ('posted', 'completed') and not t.internal and c.excluded is not true
     and not exists (select 1 from inbox_items r where r.team_id = t.team_id and r.transaction_id = t.id and ${RECEIVED_STANDS})
   order by t.date, t.id`;

const RECEIVED_DATE = `cast(r.e_invoice ->> 'issueDate' as date)`;
const RECEIVED_E_INVOICES = `
  select r.id, r.e_invoice ->> 'issueDate' as date, r.e_invoice ->> 'currency' as currency, r.e_invoice ->> 'typeCode' as "typeCode",
         cast(r.e_invoice -> 'totals' ->> 'payable' as float8) as payable, r.e_invoice -> 'vatBreakdown' as breakdown,
         ${factorSql(RECEIVED_DATE, `cast(r.e_invoice ->> 'currency' as char(3))`)} as factor
    from inbox_items r
   where r.team_id = :teamId and ${RECEIVED_STANDS} and ${RECEIVED_DATE} between :from and :to
   order by ${RECEIVED_DATE}, r.id`;

// Unmatched received e-invoices whose payment window (7 days before the issue date to 120 after)
// reaches into the period, and the unmatched expenses that could be their payments: same currency,
// exactly the payable amount, counted at a VAT rate (their own or their category's).
const PAIR_BEFORE_DAYS = 7;
const PAIR_AFTER_DAYS = 120;
const UNPAIRED_E_INVOICES = `
  select r.id, r.e_invoice ->> 'issueDate' as date, r.e_invoice ->> 'currency' as currency,
         cast(r.e_invoice -> 'totals' ->> 'payable' as float8) as payable
    from inbox_items r
   where r.team_id = :teamId and ${RECEIVED_STANDS} and r.transaction_id is null
     and coalesce(r.e_invoice ->> 'typeCode', '380') <> '381'
     and ${RECEIVED_DATE} between cast(:from as date) - ${PAIR_AFTER_DAYS} and cast(:to as date) + ${PAIR_BEFORE_DAYS}
   order by ${RECEIVED_DATE}, r.id`;
const UNPAIRED_PAYMENTS = `
  select t.id, to_char(t.date, 'YYYY-MM-DD') as date, t.currency, cast(t.amount as float8) as amount
    from transactions t
    join jsonb_to_recordset(cast(:amounts as jsonb)) as a(currency text, amount numeric)
      on t.currency = a.currency and t.amount = -a.amount
    left join transaction_categories c on c.team_id = t.team_id and c.slug = t.category_slug
   where t.team_id = :teamId and t.status in ('posted', 'completed') and not t.internal
     and t.date between cast(:from as date) - ${PAIR_AFTER_DAYS + PAIR_BEFORE_DAYS} and cast(:to as date) + ${PAIR_AFTER_DAYS + PAIR_BEFORE_DAYS}
     and (t.splits is not null or (coalesce(t.tax_rate, c.tax_rate) is not null and c.excluded is not true))
     and not exists (select 1 from inbox_items r where r.team_id = t.team_id and r.transaction_id = t.id and ${RECEIVED_STANDS})
   order by t.date, t.id`;

type Scope = {
  teamId: string;
  base: string;
  from: string;
  to: string;
};

interface Collected {
  parts: VatPart[];
  unattributed: Unattributed[];
}

async function outputParts(db: Db, scope: Scope): Promise<Collected> {
  const round = unitsRounder(scope.base);
  const out: Collected = { parts: [], unattributed: [] };
  const invoices = await db.raw<{
    rows: {
      id: string;
      date: string;
      currency: string;
      amount: number;
      quantity: number;
      price: number;
      vatRate: number | null;
      factor: number | null;
    }[];
  }>(INVOICE_LINES, scope);
  // Per invoice and rate: the lines as printed, summed in the invoice's currency, then converted once.
  const byDoc = new Map<string, { row: (typeof invoices.rows)[number]; rates: Map<number, { net: number; vat: number }> }>();
  for (const r of invoices.rows) {
    const doc = byDoc.get(r.id) ?? { row: r, rates: new Map<number, { net: number; vat: number }>() };
    const rate = r.vatRate ?? 0;
    const l = lineAmounts(r, r.currency);
    const g = doc.rates.get(rate) ?? { net: 0, vat: 0 };
    g.net += toUnits(l.net);
    g.vat += toUnits(l.vat);
    doc.rates.set(rate, g);
    byDoc.set(r.id, doc);
  }
  for (const { row, rates } of byDoc.values()) {
    if (row.factor === null) {
      out.unattributed.push({
        type: 'invoice',
        id: row.id,
        date: row.date,
        amount: row.amount,
        currency: row.currency.trim(),
        reason: 'no_exchange_rate',
      });
      continue;
    }
    const f = row.factor;
    for (const [rate, g] of rates) out.parts.push({ rate, net: round(g.net * f), vat: round(g.vat * f), source: row.id });
  }

  const notes = await db.raw<{
    rows: {
      id: string;
      date: string;
      currency: string;
      amount: number;
      vatRate: number | null;
      net: number;
      vat: number;
      factor: number | null;
    }[];
  }>(CREDIT_NOTE_LINES, scope);
  const noteRates = new Map<string, { row: (typeof notes.rows)[number]; rates: Map<number, { net: number; vat: number }> }>();
  for (const r of notes.rows) {
    const doc = noteRates.get(r.id) ?? { row: r, rates: new Map<number, { net: number; vat: number }>() };
    const rate = r.vatRate ?? 0;
    const g = doc.rates.get(rate) ?? { net: 0, vat: 0 };
    g.net += toUnits(r.net);
    g.vat += toUnits(r.vat);
    doc.rates.set(rate, g);
    noteRates.set(r.id, doc);
  }
  for (const { row, rates } of noteRates.values()) {
    if (row.factor === null) {
      out.unattributed.push({
        type: 'credit_note',
        id: row.id,
        date: row.date,
        amount: -row.amount,
        currency: row.currency.trim(),
        reason: 'no_exchange_rate',
      });
      continue;
    }
    const f = row.factor;
    for (const [rate, g] of rates) out.parts.push({ rate, net: -round(g.net * f), vat: -round(g.vat * f), source: row.id });
  }
  return out;
}

/**
 * Input VAT from expenses: what each states, else what its category's rate implies. An expense paid
 * against a received e-invoice is left to the e-invoice (EXPENSES), so the pair counts once.
 */
async function expenseParts(db: Db, scope: Scope): Promise<Collected> {
  const round = unitsRounder(scope.base);
  const out: Collected = { parts: [], unattributed: [] };
  const { rows } = await db.raw<{
    rows: {
      id: string;
      date: string;
      currency: string;
      amount: number;
      taxAmount: number | null;
      rate: number | null;
      categorised: boolean;
      factor: number | null;
    }[];
  }>(EXPENSES, scope);
  for (const t of rows) {
    const item = { type: 'transaction' as const, id: t.id, date: t.date, amount: t.amount, currency: t.currency.trim() };
    if (t.rate === null) {
      out.unattributed.push({ ...item, reason: t.categorised ? 'no_rate' : 'no_category' });
      continue;
    }
    if (t.factor === null) {
      out.unattributed.push({ ...item, reason: 'no_exchange_rate' });
      continue;
    }
    const own = unitsRounder(t.currency);
    const gross = toUnits(-t.amount);
    // The VAT the transaction states, else what its rate implies in the gross amount, in its own currency's minor unit.
    const vat = t.taxAmount !== null ? own(toUnits(Math.abs(t.taxAmount))) : own((gross * t.rate) / (100 + t.rate));
    const grossBase = round(gross * t.factor);
    const vatBase = round(vat * t.factor);
    out.parts.push({ rate: t.rate, net: grossBase - vatBase, vat: vatBase, source: t.id });
  }
  return out;
}

/**
 * Input VAT from suppliers' e-invoices read structurally: their own breakdown per rate, exact to the
 * cent in their currency, by their issue date, whether paid yet or not. A credit note (type 381)
 * counts against the input VAT.
 */
async function receivedParts(db: Db, scope: Scope): Promise<Collected> {
  const round = unitsRounder(scope.base);
  const out: Collected = { parts: [], unattributed: [] };
  const { rows } = await db.raw<{
    rows: {
      id: string;
      date: string;
      currency: string;
      typeCode: string;
      payable: number;
      breakdown: ReceivedVat[];
      factor: number | null;
    }[];
  }>(RECEIVED_E_INVOICES, scope);
  for (const r of rows) {
    const sign = r.typeCode === '381' ? -1 : 1;
    // Minor units of its currency to ten-thousandths.
    const scale = 10 ** (4 - Math.min(4, minorUnitsOf(r.currency)));
    if (r.factor === null) {
      const amount = (-sign * r.payable * scale) / 10_000;
      out.unattributed.push({ type: 'e_invoice', id: r.id, date: r.date, amount, currency: r.currency, reason: 'no_exchange_rate' });
      continue;
    }
    for (const b of r.breakdown)
      out.parts.push({
        rate: b.rate ?? 0,
        net: sign * round(b.base * scale * r.factor),
        vat: sign * round(b.vat * scale * r.factor),
        source: r.id,
      });
  }
  return out;
}

async function inputParts(db: Db, scope: Scope): Promise<Collected> {
  const [expenses, received] = await Promise.all([expenseParts(db, scope), receivedParts(db, scope)]);
  return { parts: [...expenses.parts, ...received.parts], unattributed: [...expenses.unattributed, ...received.unattributed] };
}

function byRate(parts: VatPart[]) {
  const groups = new Map<number, { net: number; vat: number; sources: Set<string> }>();
  for (const p of parts) {
    const g = groups.get(p.rate) ?? { net: 0, vat: 0, sources: new Set<string>() };
    g.net += p.net;
    g.vat += p.vat;
    g.sources.add(p.source);
    groups.set(p.rate, g);
  }
  const rates = [...groups.entries()]
    .sort(([a], [b]) => b - a)
    .map(([rate, g]) => ({ rate, net: g.net / 10_000, vat: g.vat / 10_000, documents: g.sources.size }));
  const sum = (pick: (p: VatPart) => number) => parts.reduce((s, p) => s + pick(p), 0);
  return { rates, netUnits: sum((p) => p.net), vatUnits: sum((p) => p.vat) };
}

type CountedTwice = VatReport['countedTwice']['items'][number];

const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

/**
 * Each unmatched received e-invoice paired with at most one unmatched expense that is probably its
 * payment (the one paid nearest after its issue date), where either falls in the period: both count
 * as input VAT until someone matches them. Listed, never subtracted.
 */
async function countedTwice(db: Db, scope: Scope): Promise<CountedTwice[]> {
  const { rows: invoices } = await db.raw<{ rows: { id: string; date: string; currency: string; payable: number }[] }>(
    UNPAIRED_E_INVOICES,
    scope,
  );
  if (!invoices.length) return [];
  // The payable amount in minor units of its currency, as the amount a bank books.
  const owed = invoices.map((r) => {
    const digits = Math.min(4, minorUnitsOf(r.currency));
    return { ...r, amount: (r.payable / 10 ** digits).toFixed(digits) };
  });
  const amounts = [...new Map(owed.map((o) => [`${o.currency}:${o.amount}`, { currency: o.currency, amount: o.amount }])).values()];
  const { rows: payments } = await db.raw<{ rows: { id: string; date: string; currency: string; amount: number }[] }>(UNPAIRED_PAYMENTS, {
    ...scope,
    amounts: JSON.stringify(amounts),
  });
  const [from, to] = [dayOf(scope.from), dayOf(scope.to)];
  const inPeriod = (day: number) => day >= from && day <= to;
  const taken = new Set<string>();
  const pairs: CountedTwice[] = [];
  for (const invoice of owed) {
    const issued = dayOf(invoice.date);
    let best: { id: string; date: string; currency: string; amount: number; distance: number } | undefined;
    for (const p of payments) {
      const paid = dayOf(p.date);
      const fits = p.currency.trim() === invoice.currency && -p.amount === Number(invoice.amount);
      if (!fits || taken.has(p.id) || paid < issued - PAIR_BEFORE_DAYS || paid > issued + PAIR_AFTER_DAYS) continue;
      if (!inPeriod(paid) && !inPeriod(issued)) continue;
      // Paid after issue is likelier than paid before: a day before weighs as a week after.
      const distance = paid >= issued ? paid - issued : (issued - paid) * 7;
      if (!best || distance < best.distance) best = { ...p, distance };
    }
    if (!best) continue;
    taken.add(best.id);
    pairs.push({
      inboxItemId: invoice.id,
      invoiceDate: invoice.date,
      transactionId: best.id,
      transactionDate: best.date,
      amount: best.amount,
      currency: invoice.currency,
    });
  }
  return pairs;
}

/** Output and input VAT of the period by rate, in the team's base currency, and what could not be attributed. */
export async function vatReport(db: Db, teamId: string, q: VatReportQuery): Promise<VatReport> {
  const team = await Team.query(db).findById(teamId).select('baseCurrency');
  const base = team?.baseCurrency?.trim() ?? 'EUR';
  const scope: Scope = { teamId, base, from: q.from, to: q.to };
  const [output, input, twice] = await Promise.all([outputParts(db, scope), inputParts(db, scope), countedTwice(db, scope)]);
  const o = byRate(output.parts);
  const i = byRate(input.parts);
  const unattributed = [...output.unattributed, ...input.unattributed].sort(
    (a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id),
  );
  return {
    currency: base,
    from: q.from,
    to: q.to,
    output: { rates: o.rates, net: o.netUnits / 10_000, vat: o.vatUnits / 10_000 },
    input: { rates: i.rates, net: i.netUnits / 10_000, vat: i.vatUnits / 10_000 },
    payable: (o.vatUnits - i.vatUnits) / 10_000,
    unattributed: { count: unattributed.length, items: unattributed.slice(0, UNATTRIBUTED_LISTED) },
    countedTwice: { count: twice.length, items: twice.slice(0, UNATTRIBUTED_LISTED) },
  };
}
