import type { Knex } from 'knex';
import { IMPORTED_DUPLICATE, pairDuplicates, type MatchCandidate } from '../transactions/match';
import type { StagedRow } from './rows';

const shiftDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The rows of an import that the account already has from elsewhere: a bank sync over the same
 * range, or entries made by hand. Such a row is not created; the import counts it as matched. Each
 * existing transaction matches at most one row of the whole import (the ones matched are
 * remembered across batches), so a statement with three identical coffees on a day where the sync
 * brought two creates one. Rows of earlier imports are not compared here: the row hash already
 * refuses the same row again.
 */
export class ImportOverlap {
  private readonly used = new Set<string>();
  /** How many rows matched so far. */
  matched = 0;

  constructor(
    private readonly teamId: string,
    private readonly bankAccountId: string,
  ) {}

  /** The batch without the rows that match an existing transaction. */
  async keepNew(trx: Knex.Transaction, rows: readonly StagedRow[]): Promise<StagedRow[]> {
    if (!rows.length) return [];
    const dates = rows.map((r) => r[0]).sort();
    const [first, last] = [dates[0], dates[dates.length - 1]];
    const amounts = [...new Set(rows.map((r) => r[1]))];
    const { rows: existing } = await trx.raw<{ rows: MatchCandidate[] }>(
      `select t.id, to_char(t.date, 'YYYY-MM-DD') as date, t.amount::float8 as amount, t.currency,
              t.bank_account_id as "bankAccountId", array[t.name, t.merchant_name, t.counterparty_name, t.description] as names
         from transactions t
        where t.team_id = ? and t.bank_account_id = ? and t.import_hash is null
          and t.date between ? and ? and t.amount = any(?::numeric[])`,
      [
        this.teamId,
        this.bankAccountId,
        shiftDays(first, -IMPORTED_DUPLICATE.daysBefore),
        shiftDays(last, IMPORTED_DUPLICATE.daysAfter),
        amounts,
      ],
    );
    const open = existing.filter((e) => !this.used.has(e.id));
    if (!open.length) return [...rows];
    // The row's hash is unique within the import: it names the row here.
    const incoming: MatchCandidate[] = rows.map((r) => ({
      id: r[6],
      date: r[0],
      amount: Number(r[1]),
      currency: r[2],
      bankAccountId: this.bankAccountId,
      names: [r[3], r[5], r[4]],
    }));
    const pairs = pairDuplicates(incoming, open, IMPORTED_DUPLICATE);
    for (const p of pairs) this.used.add(p.existing);
    this.matched += pairs.length;
    const gone = new Set(pairs.map((p) => p.incoming));
    return rows.filter((r) => !gone.has(r[6]));
  }
}
