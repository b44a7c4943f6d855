import type { Knex } from 'knex';
import type { MergeReason } from '../../db/models';
import { MANUAL_DUPLICATE, IMPORTED_DUPLICATE, PENDING_TO_BOOKED, pairDuplicates, type MatchCandidate, type MatchRules } from './match';
import { mergeTransactions, type MergePair } from './merge';

/** A transaction a sync just inserted, as the reconciliation reads it. */
export interface Arrival extends MatchCandidate {
  status: string;
  /** The provider's id of the pending transaction this booked one replaces (bank-a's `pending_transaction_id`). */
  pendingProviderId: string | null;
}

interface Existing extends MatchCandidate {
  imported: boolean;
}

const CANDIDATE_COLUMNS = `t.id, to_char(t.date, 'YYYY-MM-DD') as date, t.amount::float8 as amount, t.currency,
  t.bank_account_id as "bankAccountId", array[t.name, t.merchant_name, t.counterparty_name, t.description] as names,
  t.import_hash is not null as imported`;

const shiftDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The existing rows a batch may duplicate: of `where`, dated around the batch, with one of its amounts. */
async function candidates(
  trx: Knex.Transaction,
  teamId: string,
  where: string,
  batch: readonly MatchCandidate[],
  rules: MatchRules,
  exclude: readonly string[],
): Promise<Existing[]> {
  if (!batch.length) return [];
  const dates = batch.map((b) => b.date).sort();
  const exact = rules.amountShare === 0;
  const { rows } = await trx.raw<{ rows: Existing[] }>(
    `select ${CANDIDATE_COLUMNS} from transactions t
      where t.team_id = ? and ${where} and t.date between ? and ?
        ${exact ? 'and t.amount = any(?::numeric[])' : ''}`,
    [
      teamId,
      shiftDays(dates[0], -rules.daysAfter),
      shiftDays(dates[dates.length - 1], rules.daysBefore),
      ...(exact ? [[...new Set(batch.map((b) => b.amount))]] : []),
    ],
  );
  // Left out here rather than in SQL, where each row read was compared with every id of the batch.
  const excluded = new Set(exclude);
  return rows.filter((r) => !excluded.has(r.id));
}

/**
 * Transactions a sync just inserted, merged with the rows they replace, in the sync's transaction
 * and before the rules run (so the rules see what the survivor took over, and leave what a person
 * set): a booked transaction takes over the pending one the provider links it to, or, where
 * `fuzzyPending` (a provider that links none), the pending one the matcher pairs it with; then a
 * booked transaction takes over a row entered by hand or imported that it duplicates. Two synced
 * rows with different provider ids are never duplicates of each other. Returns the ids merged away.
 */
export async function mergeArrivals(
  trx: Knex.Transaction,
  teamId: string,
  arrivals: readonly Arrival[],
  opts: { fuzzyPending: boolean },
): Promise<string[]> {
  return mergeTransactions(trx, teamId, await pairArrivals(trx, teamId, arrivals, opts));
}

/** mergeArrivals's pairs, not merged yet: each survivor is one of the arrivals. */
export async function pairArrivals(
  trx: Knex.Transaction,
  teamId: string,
  arrivals: readonly Arrival[],
  opts: { fuzzyPending: boolean },
): Promise<MergePair[]> {
  if (!arrivals.length) return [];
  const newIds = arrivals.map((a) => a.id);
  const pairs: MergePair[] = [];
  const taken = new Set<string>();
  const pair = (survivorId: string, mergedId: string, reason: MergeReason) => {
    pairs.push({ survivorId, mergedId, reason });
    taken.add(survivorId);
    taken.add(mergedId);
  };

  const linked = arrivals.flatMap((a) =>
    a.pendingProviderId && a.status !== 'pending' ? [{ id: a.id, pendingId: a.pendingProviderId }] : [],
  );
  if (linked.length) {
    const pending = await trx('transactions')
      .where({ teamId })
      .whereIn(
        'providerTransactionId',
        linked.map((a) => a.pendingId),
      )
      .select<{ id: string; providerTransactionId: string }[]>('id', 'providerTransactionId');
    const byProviderId = new Map(pending.map((p) => [p.providerTransactionId, p.id]));
    for (const a of linked) {
      const mergedId = byProviderId.get(a.pendingId);
      if (mergedId && !taken.has(mergedId) && mergedId !== a.id) pair(a.id, mergedId, 'booked');
    }
  }

  const booked = () => arrivals.filter((a) => a.status !== 'pending' && !taken.has(a.id));
  if (opts.fuzzyPending && booked().length) {
    const batch = booked().filter((a) => a.bankAccountId);
    const pending = await candidates(trx, teamId, 't.pending and t.provider_transaction_id is not null', batch, PENDING_TO_BOOKED, newIds);
    for (const p of pairDuplicates(batch, pending, PENDING_TO_BOOKED)) pair(p.incoming, p.existing, 'booked');
  }

  const rest = booked();
  if (rest.length) {
    const wide = { ...MANUAL_DUPLICATE, daysAfter: Math.max(MANUAL_DUPLICATE.daysAfter, IMPORTED_DUPLICATE.daysAfter) };
    const found = await candidates(trx, teamId, 't.provider_transaction_id is null', rest, wide, newIds);
    const manual = found.filter((f) => !f.imported && !taken.has(f.id));
    for (const p of pairDuplicates(rest, manual, MANUAL_DUPLICATE)) pair(p.incoming, p.existing, 'duplicate');
    const imported = found.filter((f) => f.imported && !taken.has(f.id));
    for (const p of pairDuplicates(booked(), imported, IMPORTED_DUPLICATE)) pair(p.incoming, p.existing, 'duplicate');
  }
  return pairs;
}
