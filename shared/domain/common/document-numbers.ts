import type { Db } from '../../db/knex';

/**
 * Takes the next number of one of a team's series (`invoice:<prefix>`, `credit-note:<year>`): at
 * least `floor`, else one more than the last taken. The upsert locks the counter row until the
 * caller's transaction ends, so issuers of the same series take turns, and a transaction that rolls
 * back gives its number back: the numbers that commit have neither gaps nor repeats.
 */
export async function takeNextNumber(trx: Db, teamId: string, series: string, floor = 1): Promise<number> {
  const { rows } = await trx.raw<{ rows: { n: string | number }[] }>(
    `insert into document_number_counters (team_id, series, last_number) values (?, ?, ?)
     on conflict (team_id, series) do update set last_number = greatest(document_number_counters.last_number + 1, excluded.last_number)
     returning last_number as n`,
    [teamId, series, floor],
  );
  return Number(rows[0].n);
}

/** `0042`: at least four digits, more when the series outgrows them. */
export const padNumber = (n: number) => String(n).padStart(4, '0');
