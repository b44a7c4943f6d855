import type { Db } from '../../db/knex';
import { RecurringPayment, Team, type FieldSource, type RecurringFrequency, type RecurringMention } from '../../db/models';
import { toIso } from '../../db/timestamps';
import { decodeCursor, encodeCursor, type Page } from '../common/cursor';
import { todayIn } from '../common/time-zone';
import { roundMoney } from '../currencies/money';
import { addDays } from '../reports/period';
import { emitTransactionEvents } from '../webhook-endpoints/events';
import { counterpartyKey } from './counterparty-key';
import { amountChanged, detectSeries, statusOn, type DetectedSeries, type Payment } from './detect';
import type { ListRecurringPaymentsQuery, RecurringPaymentDto } from './schema';

/** How far back the detection reads: three yearly payments span two years and their tolerance. */
const WINDOW_DAYS = 800;

/** Today where the team is (UTC when it has no time zone): the day statuses are read on. */
export async function teamToday(db: Db, teamId: string, now = new Date()): Promise<string> {
  const team = await Team.query(db).findById(teamId).select('timezone');
  return todayIn(team?.timezone ?? 'UTC', now);
}

interface PaymentRow extends Payment {
  currency: string;
  counterparty: string;
}

interface Group {
  key: string;
  currency: string;
  name: string;
  payments: Payment[];
}

/** The team's payments out of the window, grouped by counterparty key and currency, oldest first. */
async function paymentGroups(db: Db, teamId: string, today: string): Promise<Group[]> {
  // Booked payments out only: a pending one comes back booked under another id, and a transfer
  // between the team's own accounts is no payment to anyone.
  const { rows } = await db.raw<{ rows: PaymentRow[] }>(
    `select id, date, amount::float8 as amount, currency,
            coalesce(nullif(merchant_name, ''), nullif(counterparty_name, ''), name) as counterparty
       from transactions
      where team_id = ? and amount < 0 and not internal and status in ('posted', 'completed')
        and date > ?::date and date <= ?::date
      order by date, id`,
    [teamId, addDays(today, -WINDOW_DAYS), today],
  );
  const groups = new Map<string, Group>();
  for (const r of rows) {
    const key = counterpartyKey(r.counterparty);
    if (!key) continue;
    const id = `${key}\u0000${r.currency}`;
    let g = groups.get(id);
    if (!g) groups.set(id, (g = { key, currency: r.currency.trim(), name: r.counterparty, payments: [] }));
    g.payments.push({ id: r.id, date: r.date, amount: r.amount });
    g.name = r.counterparty;
  }
  return [...groups.values()];
}

interface Upsert {
  counterpartyKey: string;
  counterpartyName: string;
  currency: string;
  frequency: RecurringFrequency;
  expectedAmount: number;
  lastAmount: number;
  previousAmount: number;
  lastDate: string;
  lastTransactionId: string;
  firstDate: string;
  occurrences: number;
  nextExpectedDate: string;
  detectedOn: string;
}

function upsertOf(g: Group, s: DetectedSeries): Upsert {
  const last = s.payments[s.payments.length - 1];
  return {
    counterpartyKey: g.key,
    counterpartyName: g.name,
    currency: g.currency,
    frequency: s.frequency,
    expectedAmount: s.expectedAmount,
    lastAmount: s.lastAmount,
    previousAmount: s.previousAmount,
    lastDate: last.date,
    lastTransactionId: last.id,
    firstDate: s.payments[0].date,
    occurrences: s.payments.length,
    nextExpectedDate: s.nextExpectedDate,
    detectedOn: last.date,
  };
}

const COMPARED = [
  'counterpartyName',
  'frequency',
  'expectedAmount',
  'lastAmount',
  'previousAmount',
  'lastDate',
  'lastTransactionId',
  'firstDate',
  'occurrences',
  'nextExpectedDate',
] as const;

const sourceOf = (frequency: RecurringFrequency, name: string): FieldSource => ({
  by: 'detected',
  ruleId: null,
  ruleName: null,
  explanation: `Recurring ${frequency} payment to ${name} detected`,
});

/**
 * Finds the team's recurring payments in its payments out of the last 800 days and keeps
 * `recurring_payments` in line with them: a new series is inserted (`detectedOn` its latest payment),
 * a known one updated when a figure moved, and one no longer found left as it was, so that its
 * expected date passes and it reads as missing, then ended. The payments of each series are marked
 * `recurring` with its frequency (and why, in `field_sources`), except where a user set `recurring`
 * by hand; each marked one emits `transaction.updated`. Everything is derived from the transactions,
 * so running it again changes nothing, and it may run whenever transactions arrived.
 */
export async function detectRecurringPayments(db: Db, teamId: string, today: string): Promise<{ series: number; marked: number }> {
  const groups = await paymentGroups(db, teamId, today);
  const known = new Map(
    (await RecurringPayment.query(db).where({ teamId })).map((r) => [`${r.counterpartyKey}\u0000${r.currency.trim()}`, r]),
  );
  const upserts: Upsert[] = [];
  const marks: { id: string; frequency: RecurringFrequency; source: FieldSource }[] = [];
  let series = 0;
  for (const g of groups) {
    const before = known.get(`${g.key}\u0000${g.currency}`);
    const s = detectSeries(g.payments, before?.frequency);
    if (!s) continue;
    series++;
    const next = upsertOf(g, s);
    if (!before || COMPARED.some((f) => before[f] !== next[f])) upserts.push(next);
    const source = sourceOf(s.frequency, g.name);
    for (const p of s.payments) marks.push({ id: p.id, frequency: s.frequency, source });
  }
  if (!upserts.length && !marks.length) return { series, marked: 0 };
  return db.transaction(async (trx) => {
    if (upserts.length) {
      await trx.raw(
        `insert into recurring_payments (team_id, counterparty_key, counterparty_name, currency, frequency, expected_amount,
           last_amount, previous_amount, last_date, last_transaction_id, first_date, occurrences, next_expected_date, detected_on)
         select ?, u."counterpartyKey", u."counterpartyName", u.currency, u.frequency, u."expectedAmount", u."lastAmount",
                u."previousAmount", u."lastDate", u."lastTransactionId", u."firstDate", u.occurrences, u."nextExpectedDate", u."detectedOn"
           from jsonb_to_recordset(?::jsonb) as u("counterpartyKey" text, "counterpartyName" text, currency text, frequency text,
                "expectedAmount" numeric, "lastAmount" numeric, "previousAmount" numeric, "lastDate" date, "lastTransactionId" uuid,
                "firstDate" date, occurrences integer, "nextExpectedDate" date, "detectedOn" date)
         on conflict (team_id, counterparty_key, currency) do update set
           counterparty_name = excluded.counterparty_name, frequency = excluded.frequency,
           expected_amount = excluded.expected_amount, last_amount = excluded.last_amount,
           previous_amount = excluded.previous_amount, last_date = excluded.last_date,
           last_transaction_id = excluded.last_transaction_id, first_date = excluded.first_date,
           occurrences = excluded.occurrences, next_expected_date = excluded.next_expected_date, updated_at = now()`,
        [teamId, JSON.stringify(upserts)],
      );
    }
    let marked: string[] = [];
    if (marks.length) {
      const { rows } = await trx.raw<{ rows: { id: string }[] }>(
        `update transactions t set recurring = true, frequency = c.frequency,
           field_sources = t.field_sources || jsonb_build_object('recurring', c.source), updated_at = now()
           from jsonb_to_recordset(?::jsonb) as c(id uuid, frequency text, source jsonb)
          where t.team_id = ? and t.id = c.id and not ('recurring' = any(t.manual_fields))
            and (not t.recurring or t.frequency is distinct from c.frequency)
          returning t.id`,
        [JSON.stringify(marks), teamId],
      );
      marked = rows.map((r) => r.id);
      await emitTransactionEvents(trx, teamId, 'transaction.updated', marked);
    }
    return { series, marked: marked.length };
  });
}

const toDto = (r: RecurringPayment, today: string): RecurringPaymentDto => ({
  id: r.id,
  counterparty: { name: r.counterpartyName, key: r.counterpartyKey },
  currency: r.currency.trim(),
  frequency: r.frequency,
  expectedAmount: roundMoney(r.expectedAmount, r.currency),
  nextExpectedDate: r.nextExpectedDate,
  status: statusOn(r.frequency, r.nextExpectedDate, today),
  lastPayment: { transactionId: r.lastTransactionId, date: r.lastDate, amount: r.lastAmount },
  occurrences: r.occurrences,
  firstPaymentDate: r.firstDate,
  detectedOn: r.detectedOn,
  updatedAt: toIso(r.updatedAt),
});

/** The team's recurring payments, the next one due first; the status as of today in the team's time zone. */
export async function listRecurringPayments(db: Db, teamId: string, query: ListRecurringPaymentsQuery): Promise<Page<RecurringPaymentDto>> {
  const q = RecurringPayment.query(db)
    .where({ teamId })
    .orderBy([
      { column: 'nextExpectedDate', order: 'asc' },
      { column: 'id', order: 'asc' },
    ])
    .limit(query.pageSize + 1);
  if (query.cursor) {
    const [next, id] = decodeCursor(query.cursor, ['date', 'uuid']);
    q.whereRaw('(next_expected_date, id) > (?::date, ?::uuid)', [next, id]);
  }
  const [rows, today] = await Promise.all([q, teamToday(db, teamId)]);
  const hasNextPage = rows.length > query.pageSize;
  const page = rows.slice(0, query.pageSize);
  const last = page.at(-1);
  return {
    data: page.map((r) => toDto(r, today)),
    meta: { cursor: hasNextPage && last ? encodeCursor([last.nextExpectedDate, last.id]) : null, hasNextPage },
  };
}

export interface RecurringOfWeek {
  new: RecurringMention[];
  changed: RecurringMention[];
  missing: RecurringMention[];
}

/**
 * What a week's insight says of the recurring payments: those first found in the week (their
 * establishing payment fell in it), those whose payment in the week moved the amount by more than
 * `changeShare` of the usual one, and those missing at the week's end (expected date and grace
 * passed, not yet ended).
 */
export async function recurringOfWeek(
  db: Db,
  teamId: string,
  week: { from: string; to: string },
  changeShare: number,
): Promise<RecurringOfWeek> {
  const rows = await RecurringPayment.query(db).where({ teamId }).orderBy(['counterpartyName', 'id']);
  const mention = (r: RecurringPayment): RecurringMention => ({
    id: r.id,
    counterparty: r.counterpartyName,
    frequency: r.frequency,
    currency: r.currency.trim(),
    expectedAmount: roundMoney(r.expectedAmount, r.currency),
    nextExpectedDate: r.nextExpectedDate,
    lastPaymentDate: r.lastDate,
    lastAmount: r.lastAmount,
    previousAmount: roundMoney(r.previousAmount, r.currency),
  });
  const inWeek = (d: string) => d >= week.from && d <= week.to;
  const isNew = (r: RecurringPayment) => inWeek(r.detectedOn);
  return {
    new: rows.filter(isNew).map(mention),
    changed: rows.filter((r) => !isNew(r) && inWeek(r.lastDate) && amountChanged(r.previousAmount, r.lastAmount, changeShare)).map(mention),
    missing: rows.filter((r) => statusOn(r.frequency, r.nextExpectedDate, week.to) === 'missing').map(mention),
  };
}

/**
 * After transactions arrived (a bank sync that added some, an import): the detection as of today
 * where the team is. It is derived data the next weekly summary computes again, so a failure here is
 * reported to `onError` and never fails the sync or the import that brought the transactions.
 */
export async function detectAfterArrival(db: Db, teamId: string, onError: (err: unknown) => void): Promise<void> {
  try {
    await detectRecurringPayments(db, teamId, await teamToday(db, teamId));
  } catch (err) {
    onError(err);
  }
}
