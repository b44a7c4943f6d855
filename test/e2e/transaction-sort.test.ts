import { listTransactionsQuery } from '../../shared/domain/transactions/schema';
import { listTransactionsSql } from '../../shared/domain/transactions/service';
import { encodeSortedCursor } from '../../shared/domain/common/sort';
import { insertTransactions, transactionRowFor } from '../support/fixtures';
import { planOf, withoutSequentialScans } from '../support/query-plan';
import { trpcAs, trpcError } from '../support/trpc';
import { withTwoTeams } from '../support/two-teams';
import type { UntypedJson } from '../support/untyped-json';

const { ctx } = withTwoTeams();

/** A row as the database orders it: created_at in microseconds, which the API's ISO time rounds to milliseconds. */
interface Stored {
  id: string;
  date: string;
  amount: number;
  name: string;
  micros: bigint;
  status: string;
}

const LONG = 'Z'.repeat(200);
let stored: Stored[] = [];

beforeAll(async () => {
  const row = transactionRowFor(ctx.acme.team.id);
  // Few distinct values of each field, so every order has ties that fall across page boundaries; five
  // rows share a created_at to the microsecond, two differ from each other only in the microsecond,
  // and two names differ only past the 200 characters the name is sorted by.
  const names = ['Alpha', 'Bravo', 'Charlie'];
  const amounts = [-10, -5, 0.5, 20, 1234.5678];
  const rows = Array.from({ length: 61 }, (_, i) =>
    row(`2026-05-0${1 + (i % 4)}`, amounts[i % 5], {
      name: names[i % 3],
      createdAt: `2026-11-0${1 + (i % 3)} 10:00:00.${String(100000 + (i % 6)).padStart(6, '0')}+00`,
      status: i === 7 ? 'excluded' : 'posted',
    }),
  );
  rows.push(row('2026-05-02', 20, { name: `${LONG}b` }), row('2026-05-03', -5, { name: `${LONG}a` }));
  await ctx.tdb.db('transactions').insert(rows);
  await insertTransactions(ctx.tdb.db, ctx.other.team.id, 9, '2026-05-02');
  stored = (
    await ctx.tdb.db.raw<{ rows: (Omit<Stored, 'micros' | 'amount'> & { micros: string; amount: string })[] }>(
      `select id, date::text as date, amount::text as amount, name, status,
              (extract(epoch from created_at) * 1000000)::bigint::text as micros
         from transactions where team_id = ?`,
      [ctx.acme.team.id],
    )
  ).rows.map((r) => ({ ...r, amount: Number(r.amount), micros: BigInt(r.micros) }));
});

type Field = 'date' | 'amount' | 'name' | 'createdAt';

/** The order `sort` asks for, computed here: each field, then the id in the last field's direction. */
function sortedHere(rows: Stored[], sort: string): string[] {
  const terms = sort.split(',').map((t) => ({ field: t.replace(/^-/, '') as Field, sign: t.startsWith('-') ? -1 : 1 }));
  const value = (r: Stored, f: Field) => (f === 'createdAt' ? r.micros : f === 'name' ? r.name.slice(0, 200) : r[f]);
  const cmp = <T extends string | number | bigint>(a: T, b: T) => (a < b ? -1 : a > b ? 1 : 0);
  return [...rows]
    .sort((a, b) => {
      for (const { field, sign } of terms) {
        const c = cmp(value(a, field), value(b, field));
        if (c) return sign * c;
      }
      return terms.at(-1)!.sign * cmp(a.id, b.id);
    })
    .map((r) => r.id);
}

async function pageThrough(query: string, token = ctx.acme.sessionToken) {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await ctx.api.fetch(`/transactions?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token });
    const body = await res.json();
    expect(res.status).toBe(200);
    ids.push(...body.data.map((r: UntypedJson) => r.id));
    cursor = body.meta.cursor;
    pages++;
  } while (cursor && pages < 100);
  return { ids, pages };
}

const listed = () => stored.filter((r) => r.status !== 'excluded');

describe('GET /transactions?sort=', () => {
  it.each([
    'amount',
    '-amount',
    'name',
    '-name',
    'createdAt',
    '-createdAt',
    'date',
    '-date',
    '-date,amount',
    'amount,-createdAt',
    'name,-date,amount',
  ])('pages through every row by %s, five at a time, none missed or repeated across ties', async (sort) => {
    const { ids, pages } = await pageThrough(`sort=${sort}&pageSize=5`);
    expect(pages).toBe(Math.ceil(listed().length / 5));
    expect(ids).toEqual(sortedHere(listed(), sort));
  });

  it('keeps the filters in another order, and a text search', async () => {
    const { ids } = await pageThrough('sort=-amount,name&pageSize=4&statuses=posted,excluded&from=2026-05-02');
    expect(ids).toEqual(
      sortedHere(
        stored.filter((r) => r.date >= '2026-05-02'),
        '-amount,name',
      ),
    );
    const searched = await pageThrough('sort=amount&pageSize=3&q=bravo');
    expect(searched.ids).toEqual(
      sortedHere(
        listed().filter((r) => r.name === 'Bravo'),
        'amount',
      ),
    );
    const common = await pageThrough(`sort=-name&pageSize=3&q=${'Z'.repeat(30)}`);
    expect(common.ids).toEqual(
      sortedHere(
        listed().filter((r) => r.name.startsWith(LONG)),
        '-name',
      ),
    );
  });

  it("shows only the caller's team", async () => {
    const { ids } = await pageThrough('sort=amount&pageSize=4', ctx.other.sessionToken);
    expect(ids).toHaveLength(9);
    expect(ids.some((id) => stored.some((r) => r.id === id))).toBe(false);
  });

  it('takes an explicit -date as the default order, with the same cursor', async () => {
    const plain = await (await ctx.api.fetch('/transactions?pageSize=5', { token: ctx.acme.sessionToken })).json();
    const explicit = await (await ctx.api.fetch('/transactions?pageSize=5&sort=-date', { token: ctx.acme.sessionToken })).json();
    expect(explicit).toEqual(plain);
  });

  it.each([
    [
      'foo',
      [
        'unknown sort field `foo`: sort by `date`, `amount`, `name` or `createdAt`, each ascending or with a leading `-` for descending (`-date`)',
      ],
    ],
    ['date,-date', ['`date` is named twice: name each field at most once']],
    [
      'amount,,name',
      [
        'an empty field in `amount,,name`: sort by `date`, `amount`, `name` or `createdAt`, each ascending or with a leading `-` for descending (`-date`)',
      ],
    ],
    ['id,description', [expect.stringMatching(/^unknown sort field `id`/), expect.stringMatching(/^unknown sort field `description`/)]],
  ])('refuses sort=%s with 400 naming the field', async (sort, messages) => {
    const res = await ctx.api.fetch(`/transactions?sort=${encodeURIComponent(sort)}`, { token: ctx.acme.sessionToken });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error).toBe('Bad Request');
    expect(body.description).toMatch(/^Invalid query parameters: sort: /);
    expect(body.details).toEqual(messages.map((message) => ({ field: 'sort', message })));
  });

  it('refuses a cursor made for another order with 400 naming that order', async () => {
    const byAmount = await (await ctx.api.fetch('/transactions?sort=-amount&pageSize=5', { token: ctx.acme.sessionToken })).json();
    const newest = await (await ctx.api.fetch('/transactions?pageSize=5', { token: ctx.acme.sessionToken })).json();
    const cases = [
      [`sort=amount&cursor=${byAmount.meta.cursor}`, '-amount'],
      [`cursor=${byAmount.meta.cursor}`, '-amount'],
      [`q=bravo&cursor=${byAmount.meta.cursor}`, '-amount'],
      [`sort=name&cursor=${newest.meta.cursor}`, '-date'],
    ];
    for (const [query, madeFor] of cases) {
      const res = await ctx.api.fetch(`/transactions?${query}`, { token: ctx.acme.sessionToken });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.description).toMatch(new RegExp(`^This cursor continues the list sorted by \`${madeFor}\`, not \``));
      expect(body.details).toEqual([{ field: 'cursor', message: `made for sort=${madeFor}` }]);
    }
  });

  it('refuses a forged key in a sorted cursor with 400, before PostgreSQL would fail to cast it', async () => {
    const id = stored[0].id;
    const sort = listTransactionsQuery.parse({ sort: 'amount,createdAt' }).sort;
    for (const key of [
      ['12abc', '2026-11-01 10:00:00+00', id],
      ['5', 'yesterday', id],
      ['5', '2026-11-01 10:00:00+00'],
      ['5', '2026-11-01 10:00:00+00', id, id],
    ]) {
      const res = await ctx.api.fetch(`/transactions?sort=amount,createdAt&cursor=${encodeSortedCursor(sort, key)}`, {
        token: ctx.acme.sessionToken,
      });
      expect(res.status).toBe(400);
      expect((await res.json()).details).toEqual([{ field: 'cursor', message: 'not a cursor this API issued' }]);
    }
  });

  it('reads a sorted first page and the page after a cursor in the order’s index, without sorting the team’s rows', async () => {
    const plans = await withoutSequentialScans(ctx.tdb.db, async (trx) => {
      await trx.raw(
        `insert into transactions (team_id, date, name, amount, currency, created_at)
         select ?, date '2026-01-01' - (g % 400), 'Filler ' || (g % 700), -(g % 997), 'EUR', now() - g * interval '1 minute'
           from generate_series(1, 20000) g`,
        [ctx.acme.team.id],
      );
      await trx.raw('analyze transactions');
      const out: Record<string, { first: string; next: string }> = {};
      for (const sort of ['amount', '-amount', 'name', '-name', 'createdAt', '-createdAt', 'date', '-date,amount']) {
        const query = listTransactionsQuery.parse({ sort, pageSize: 50 });
        const key = { amount: '-500.0000', name: 'Filler 350', createdAt: '2026-11-01 10:00:00.5+00', date: '2025-06-01' }[
          query.sort.terms[0].field
        ];
        const rest = query.sort.terms.length > 1 ? ['-3.0000'] : [];
        const cursor = encodeSortedCursor(query.sort, [key, ...rest, stored[0].id]);
        out[sort] = {
          first: await planOf(trx, listTransactionsSql(trx, ctx.acme.team.id, query)),
          next: await planOf(trx, listTransactionsSql(trx, ctx.acme.team.id, { ...query, cursor })),
        };
      }
      return out;
    });
    const index = (sort: string) =>
      ({
        amount: 'transactions_team_amount_id_idx',
        name: 'transactions_team_name_id_idx',
        createdAt: 'transactions_team_created_at_id_idx',
      })[sort.replace(/^-/, '').split(',')[0]] ?? 'transactions_team_date_id_idx';
    for (const [sort, { first, next }] of Object.entries(plans)) {
      for (const plan of [first, next]) {
        const page = pageSubtree(plan);
        expect({ sort, page }).toEqual({ sort, page: expect.stringMatching(new RegExp(`Index Scan (Backward )?using ${index(sort)} `)) });
        // A Sort under the page's limit would sort every row of the team before the first 50 (the
        // Sort over the joined page, above the limit, orders those 50); an incremental sort (a second
        // field within the index's first) sorts one group of equal first values at a time.
        expect({ sort, page }).toEqual({ sort, page: expect.not.stringMatching(/(^|->)\s*Sort\s+\(/m) });
      }
      // The page after a cursor starts at the cursor in the index rather than filtering the rows before it.
      expect({ sort, next }).toEqual({
        sort,
        next: expect.stringMatching(/Index Cond: \(\(team_id = '[^']+'::uuid\) AND \((ROW|date <=)/),
      });
    }
  });
});

/** The lines of a plan from its first Limit down: how the page's rows are found, before they are joined. */
function pageSubtree(plan: string): string {
  const lines = plan.split('\n');
  const indent = (line: string) => line.search(/\S/);
  const at = lines.findIndex((l) => /\bLimit\s+\(/.test(l));
  const end = lines.findIndex((l, i) => i > at && indent(l) <= indent(lines[at]));
  return lines.slice(at, end === -1 ? undefined : end).join('\n');
}

describe('tRPC transactions.get with sort', () => {
  it('takes the same sort text and pages the same as REST', async () => {
    const trpc = trpcAs(ctx.api, ctx.acme.sessionToken);
    const first = await trpc.transactions.get.query({ sort: 'name,-amount', pageSize: 6 });
    const rest = await (await ctx.api.fetch('/transactions?sort=name,-amount&pageSize=6', { token: ctx.acme.sessionToken })).json();
    expect(first).toEqual(rest);
    const next = await trpc.transactions.get.query({ sort: 'name,-amount', pageSize: 6, cursor: first.meta.cursor! });
    expect(next.data.map((r) => r.id)).toEqual(sortedHere(listed(), 'name,-amount').slice(6, 12));
  });

  it('refuses a bad sort and a cursor of another order with 400 and the same details', async () => {
    const trpc = trpcAs(ctx.api, ctx.acme.sessionToken);
    const bad = await trpcError(trpc.transactions.get.query({ sort: '-amount,size' }));
    expect(bad.httpStatus).toBe(400);
    expect(bad.details).toEqual([
      { field: 'sort', message: expect.stringMatching(/^unknown sort field `size`: sort by `date`, `amount`/) },
    ]);
    const first = await trpc.transactions.get.query({ pageSize: 2 });
    const mismatch = await trpcError(trpc.transactions.get.query({ sort: 'amount', cursor: first.meta.cursor! }));
    expect(mismatch.httpStatus).toBe(400);
    expect(mismatch.details).toEqual([{ field: 'cursor', message: 'made for sort=-date' }]);
  });
});
