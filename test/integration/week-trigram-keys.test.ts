import { withTestDatabase } from '../support/database';

/**
 * Migration 0083 replaced the body of the week trigram index's function without rebuilding the
 * index: that holds only while the new body gives every row exactly the keys 0081's gave. Here both
 * are computed side by side, 0081's as the SQL it was, over texts that reach every corner of
 * pg_trgm (words, digits, punctuation, letters outside ASCII, text pg_trgm hashes, empty and
 * missing fields, long text) and dates either side of the weeks' origin.
 */
const tdb = withTestDatabase();

const TEXTS = [
  'Merchant 417',
  'AMAZON MKTPLACE PMTS*2K4L',
  'Über Café crème – Straße',
  '東京タワー 入場券',
  '☕ Coffee & cake, 2×',
  'ab',
  'a b c d',
  '',
  "O'Reilly-Media / invoice #2026-001",
  'Payee 7, Berlin',
  'lorem ipsum dolor sit amet '.repeat(20),
];
const DATES = ['0500-03-01', '1969-12-28', '1970-01-04', '1970-01-05', '1970-01-11', '2025-12-31', '2026-11-26', '2400-02-29'];
const TEAMS = ['00000000-0000-4000-8000-000000000000', 'fedcba98-7654-4321-8fed-cba987654321', '3f2a1b0c-9d8e-4f7a-b6c5-d4e3f2a1b0c9'];

describe('transaction_week_trigrams', () => {
  it("gives every row the keys migration 0081's function gave, in the same order", async () => {
    const { rows } = await tdb.db.raw<{ rows: { checked: string; differing: string; sample: string[] }[] }>(
      `with input as (
         select team, day, name, description, counterparty, merchant
           from unnest(?::uuid[]) team, unnest(?::date[]) day, unnest(?::text[]) name,
                unnest(array[null, 'SEPA ref 0042', 'Zürich']) description,
                unnest(array[null, 'Jane Doe GmbH']) counterparty,
                unnest(array[null, '', 'Starbücks']) merchant
       ), keyed as (
         select transaction_week_trigrams(team, day, name, description, counterparty, merchant) as now,
                array(select left(team::text, 8) || ':' || floor((day - date '1970-01-05') / 7.0)::int || ':' || t
                        from unnest(show_trgm(transaction_text(name, description, counterparty, merchant))) t
                       where position(' ' in t) = 0) as before
           from input
       )
       select count(*) as checked,
              count(*) filter (where now is distinct from before) as differing,
              (select now from keyed where cardinality(now) > 0 limit 1) as sample
         from keyed`,
      [TEAMS, DATES, TEXTS],
    );
    const [{ checked, differing, sample }] = rows;
    expect(Number(checked)).toBe(TEAMS.length * DATES.length * TEXTS.length * 3 * 2 * 3);
    expect(Number(differing)).toBe(0);
    // Not vacuous: the keys are there, prefixed by team and week.
    expect(sample.length).toBeGreaterThan(3);
    expect(sample[0]).toMatch(/^[0-9a-f]{8}:-?\d+:\S{3}/);
  });
});
