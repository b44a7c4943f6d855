import { z } from 'zod';
import { buildOpenApiDocument } from '../../api/openapi';
import { OPERATIONS } from '../../api/operations';
import { encodeCursor } from '../../shared/domain/common/cursor';
import { afterKey, decodeSortedCursor, encodeSortedCursor, sortParam, type SortKeys } from '../../shared/domain/common/sort';
import { AppError } from '../../shared/errors';

const query = z.object({ sort: sortParam(['date', 'amount', 'name'], '-date') }).strict();
const ID = '3f1c2b4a-9d8e-4f70-8a1b-2c3d4e5f6a7b';

const problems = (sort: unknown) => {
  const parsed = query.safeParse({ sort });
  return parsed.success ? [] : parsed.error.issues.map((i) => [i.path.join('.'), i.message]);
};

describe('sortParam', () => {
  it('reads fields in order, each ascending or descending, and gives the default when absent', () => {
    expect(query.parse({ sort: ' -amount , name' }).sort).toEqual({
      terms: [
        { field: 'amount', descending: true },
        { field: 'name', descending: false },
      ],
      text: '-amount,name',
      isDefault: false,
    });
    expect(query.parse({}).sort).toEqual({ terms: [{ field: 'date', descending: true }], text: '-date', isDefault: true });
    expect(query.parse({ sort: '' }).sort.isDefault).toBe(true);
    expect(query.parse({ sort: '-date' }).sort.isDefault).toBe(true);
    expect(query.parse({ sort: 'date' }).sort.isDefault).toBe(false);
  });

  it('refuses an unknown field naming the allowed ones, a field named twice, an empty field, and a non-string', () => {
    const hint = 'sort by `date`, `amount` or `name`, each ascending or with a leading `-` for descending (`-date`)';
    expect(problems('amount,colour')).toEqual([['sort', `unknown sort field \`colour\`: ${hint}`]]);
    expect(problems('Date')).toEqual([['sort', `unknown sort field \`Date\`: ${hint}`]]);
    expect(problems('--date')).toEqual([['sort', `unknown sort field \`-date\`: ${hint}`]]);
    expect(problems('name,-name')).toEqual([['sort', '`name` is named twice: name each field at most once']]);
    expect(problems('name,')).toEqual([['sort', `an empty field in \`name,\`: ${hint}`]]);
    expect(problems(['date', 'name'])).toEqual([['sort', expect.stringContaining('expected string')]]);
  });

  it('refuses a default that is not one of its fields when the list is declared', () => {
    expect(() => sortParam(['date'], '-amount')).toThrow(/default sort `-amount`/);
  });

  it('documents every sorted list alike: the allowed fields, the default and a pattern generators can check', () => {
    const doc = buildOpenApiDocument(OPERATIONS) as {
      paths: Record<string, { get?: { parameters?: { name: string; schema: Record<string, unknown> }[] } }>;
    };
    const sorted = Object.entries(doc.paths).flatMap(([path, item]) =>
      (item.get?.parameters ?? []).filter((p) => p.name === 'sort').map((p) => [path, p.schema] as const),
    );
    expect(sorted.map(([path]) => path)).toEqual(expect.arrayContaining(['/transactions', '/invoices', '/customers']));
    for (const [, schema] of sorted) {
      expect(schema).toMatchObject({ type: 'string', default: expect.any(String), pattern: expect.any(String) });
      expect(schema.description).toMatch(/^Order of the list: .* Fields: `\w+`.*Default: `-?\w+`\./);
      expect(String(schema.default)).toMatch(new RegExp(String(schema.pattern)));
    }
    const transactions = sorted.find(([path]) => path === '/transactions')![1];
    expect(transactions.description).toContain('Fields: `date`, `amount`, `name` or `createdAt`.');
  });
});

describe('sorted cursors', () => {
  const keys: SortKeys<'date' | 'amount' | 'name'> = {
    fields: {
      date: { sql: 't.due', part: 'date', nullable: true },
      amount: { sql: 't.amount', part: 'number' },
      name: { sql: 't.name', part: 'text' },
    },
    id: 't.id',
  };
  const sortOf = (sort: string) => query.parse({ sort }).sort;

  it('round-trips the key with the order it was made for, nulls included', () => {
    const sort = sortOf('date,-amount');
    expect(decodeSortedCursor(encodeSortedCursor(sort, [null, '-12.5000', ID]), sort, keys)).toEqual([null, '-12.5000', ID]);
    expect(decodeSortedCursor(encodeSortedCursor(sort, ['2026-01-02', '3', ID]), sort, keys)).toEqual(['2026-01-02', '3', ID]);
  });

  it('tells a cursor of another order from one never issued', () => {
    const reason = (cursor: string, sort = sortOf('name')) => {
      try {
        decodeSortedCursor(cursor, sort, keys);
      } catch (e) {
        expect(e).toBeInstanceOf(AppError);
        expect((e as AppError).status).toBe(400);
        return (e as AppError).details;
      }
      throw new Error('accepted');
    };
    expect(reason(encodeSortedCursor(sortOf('-name'), ['x', ID]))).toEqual([{ field: 'cursor', message: 'made for sort=-name' }]);
    const never = [{ field: 'cursor', message: 'not a cursor this API issued' }];
    expect(reason(encodeCursor(['x', ID]))).toEqual(never);
    expect(reason(encodeSortedCursor(sortOf('name'), ['x\u0000', ID]))).toEqual(never);
    expect(reason(encodeSortedCursor(sortOf('name'), [null, ID]))).toEqual(never);
    expect(reason(encodeSortedCursor(sortOf('amount'), ['1e5', ID]), sortOf('amount'))).toEqual(never);
    expect(reason('%%%')).toEqual(never);
  });

  it('seeks with a row comparison when every column goes one way, field by field with a bound otherwise', () => {
    expect(afterKey(sortOf('-amount,-name'), keys, ['5', 'x', ID])).toEqual({
      sql: '(t.amount, t.name, t.id) < (?::numeric, ?, ?::uuid)',
      bindings: ['5', 'x', ID],
    });
    expect(afterKey(sortOf('amount,-name'), keys, ['5', 'x', ID])).toEqual({
      sql: 't.amount >= ?::numeric and (t.amount > ?::numeric or (t.amount = ?::numeric and (t.name < ? or (t.name = ? and t.id < ?::uuid))))',
      bindings: ['5', '5', '5', 'x', 'x', ID],
    });
    // Nulls sort after every date ascending: after a null only nulls with a greater id remain.
    expect(afterKey(sortOf('date'), keys, [null, ID])).toEqual({
      sql: 't.due is null and (t.due is null and t.id > ?::uuid)',
      bindings: [ID],
    });
    expect(afterKey(sortOf('date'), keys, ['2026-01-02', ID])).toEqual({
      sql: '((t.due > ?::date or t.due is null) or (t.due = ?::date and t.id > ?::uuid))',
      bindings: ['2026-01-02', '2026-01-02', ID],
    });
    // Descending they come first: after a null, the rest of the nulls and then every date.
    expect(afterKey(sortOf('-date'), keys, [null, ID])).toEqual({
      sql: '(t.due is not null or (t.due is null and t.id < ?::uuid))',
      bindings: [ID],
    });
  });
});
