import { textArrayLiteral } from '../../shared/db/array-literal';
import { withTestDatabase } from '../support/database';

/** The import sends each column as a literal it wrote itself: PostgreSQL must read back exactly the text it was given. */
const tdb = withTestDatabase();

const TRICKY = [
  'Payee 7, Berlin',
  'say "hi"',
  'back\\slash and \\"both\\"',
  '{braces}, {and,commas}',
  'NULL',
  'null',
  '',
  '  leading and trailing  ',
  'tab\there',
  'Über Café crème – 東京 ☕',
  '\\',
  '"',
  "O'Reilly",
];

describe('textArrayLiteral', () => {
  it('is read back by PostgreSQL as the very strings it was written from, none of them null', async () => {
    const { rows } = await tdb.db.raw<{ rows: { back: string[]; nulls: number }[] }>(
      `select ?::text[] as back, (select count(*) from unnest(?::text[]) v where v is null)::int as nulls`,
      [textArrayLiteral(TRICKY), textArrayLiteral(TRICKY)],
    );
    expect(rows[0]).toEqual({ back: TRICKY, nulls: 0 });
  });

  it('casts to the typed arrays the import inserts from', async () => {
    const { rows } = await tdb.db.raw<{ rows: { dates: string; amounts: string; hashes: string }[] }>(
      `select ?::date[]::text as dates, ?::numeric[]::text as amounts, ?::uuid[]::text as hashes`,
      [
        textArrayLiteral(['2025-01-01', '2026-02-28']),
        textArrayLiteral(['-12.37', '1000000.5', '0']),
        textArrayLiteral(['6f1c2b9e-8d3a-4e5f-9a7b-1c2d3e4f5a6b']),
      ],
    );
    expect(rows[0]).toEqual({
      dates: '{2025-01-01,2026-02-28}',
      amounts: '{-12.37,1000000.5,0}',
      hashes: '{6f1c2b9e-8d3a-4e5f-9a7b-1c2d3e4f5a6b}',
    });
  });

  it('writes an empty array as {}', () => {
    expect(textArrayLiteral([])).toBe('{}');
  });
});
