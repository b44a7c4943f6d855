import { trpcAs, trpcError } from '../support/trpc';
import { withTwoTeams } from '../support/two-teams';
import type { UntypedJson } from '../support/untyped-json';

const { ctx } = withTwoTeams();

/** A value as the database orders it; null sorts after every value (PostgreSQL's default). */
type Value = string | number | bigint | null;
type Stored = { id: string } & Record<string, Value>;

let invoices: Stored[] = [];
let customers: Stored[] = [];

const micros = '(extract(epoch from created_at) * 1000000)::bigint::text as "createdAt"';

beforeAll(async () => {
  const db = ctx.tdb.db;
  const team = ctx.acme.team.id;
  // Ties everywhere: three names, four amounts, created_at shared by groups of rows, and undated drafts.
  await db('customers').insert(
    Array.from({ length: 14 }, (_, i) => ({
      teamId: team,
      name: ['Kunde Alpha', 'Kunde Beta', 'Kunde Gamma'][i % 3],
      createdAt: `2026-10-0${1 + (i % 4)} 09:00:00.00000${i % 2}+00`,
    })),
  );
  await db('customers').insert({ teamId: ctx.other.team.id, name: 'Kunde Alpha' });
  await db('invoices').insert(
    Array.from({ length: 17 }, (_, i) => ({
      teamId: team,
      invoiceNumber: `INV-${String(i).padStart(4, '0')}`,
      status: i % 4 === 0 ? 'draft' : 'unpaid',
      currency: 'EUR',
      amount: [100, 250.5, 100, 9999.9999][i % 4],
      issueDate: i % 4 === 0 ? null : `2026-09-0${1 + (i % 3)}`,
      dueDate: i % 4 === 0 ? null : `2026-10-0${1 + (i % 2)}`,
      createdAt: `2026-09-0${1 + (i % 3)} 08:00:00+00`,
    })),
  );
  await db('invoices').insert({ teamId: ctx.other.team.id, invoiceNumber: 'INV-0001', currency: 'EUR', amount: 1 });
  customers = (await db.raw(`select id, name, ${micros} from customers where team_id = ?`, [team])).rows.map((r: Stored) => ({
    ...r,
    createdAt: BigInt(r.createdAt as string),
  }));
  invoices = (
    await db.raw(
      `select id, invoice_number as "invoiceNumber", amount::float8 as amount, issue_date::text as "issueDate",
              due_date::text as "dueDate", ${micros} from invoices where team_id = ?`,
      [team],
    )
  ).rows.map((r: Stored) => ({ ...r, createdAt: BigInt(r.createdAt as string) }));
});

/** The order `sort` asks for, computed here: each field (nulls last ascending), then the id in the last field's direction. */
function sortedHere(rows: Stored[], sort: string): string[] {
  const terms = sort.split(',').map((t) => ({ field: t.replace(/^-/, ''), sign: t.startsWith('-') ? -1 : 1 }));
  const cmp = (a: Value, b: Value) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);
  return [...rows]
    .sort((a, b) => {
      for (const { field, sign } of terms) {
        const c = cmp(a[field], b[field]);
        if (c) return sign * c;
      }
      return terms.at(-1)!.sign * cmp(a.id, b.id);
    })
    .map((r) => r.id);
}

async function pageThrough(path: string, query: string) {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await ctx.api.fetch(`${path}?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
      token: ctx.acme.sessionToken,
    });
    const body = await res.json();
    expect({ status: res.status, body: res.status === 200 ? null : body }).toEqual({ status: 200, body: null });
    ids.push(...body.data.map((r: UntypedJson) => r.id));
    cursor = body.meta.cursor;
    pages++;
  } while (cursor && pages < 50);
  return ids;
}

describe('GET /invoices?sort=', () => {
  it.each([
    '-createdAt',
    'createdAt',
    'issueDate',
    '-issueDate',
    'dueDate,-amount',
    '-dueDate,invoiceNumber',
    'amount,-issueDate',
    '-invoiceNumber',
  ])('pages through every invoice by %s, three at a time, undated drafts in their place', async (sort) => {
    expect(await pageThrough('/invoices', `sort=${sort}&pageSize=3`)).toEqual(sortedHere(invoices, sort));
  });

  it('keeps the default newest first, and filters in another order', async () => {
    expect(await pageThrough('/invoices', 'pageSize=4')).toEqual(sortedHere(invoices, '-createdAt'));
    const undated = invoices.filter((i) => i.issueDate === null);
    expect(await pageThrough('/invoices', 'sort=-amount&statuses=draft&pageSize=2')).toEqual(sortedHere(undated, '-amount'));
  });

  it('refuses an unknown field naming the allowed ones, and a cursor of another order', async () => {
    const bad = await ctx.api.fetch('/invoices?sort=total', { token: ctx.acme.sessionToken });
    expect(bad.status).toBe(400);
    expect((await bad.json()).details).toEqual([
      {
        field: 'sort',
        message:
          'unknown sort field `total`: sort by `createdAt`, `issueDate`, `dueDate`, `amount` or `invoiceNumber`, each ascending or with a leading `-` for descending (`-createdAt`)',
      },
    ]);
    const first = await (await ctx.api.fetch('/invoices?sort=dueDate&pageSize=2', { token: ctx.acme.sessionToken })).json();
    const other = await ctx.api.fetch(`/invoices?sort=-dueDate&cursor=${first.meta.cursor}`, { token: ctx.acme.sessionToken });
    expect(other.status).toBe(400);
    expect((await other.json()).details).toEqual([{ field: 'cursor', message: 'made for sort=dueDate' }]);
  });

  it('takes the same sort over tRPC', async () => {
    const trpc = trpcAs(ctx.api, ctx.acme.sessionToken);
    const page = await trpc.invoices.get.query({ sort: '-dueDate,invoiceNumber', pageSize: 5 });
    expect(page.data.map((i) => i.id)).toEqual(sortedHere(invoices, '-dueDate,invoiceNumber').slice(0, 5));
    const next = await trpc.invoices.get.query({ sort: '-dueDate,invoiceNumber', pageSize: 5, cursor: page.meta.cursor! });
    expect(next.data.map((i) => i.id)).toEqual(sortedHere(invoices, '-dueDate,invoiceNumber').slice(5, 10));
    expect((await trpcError(trpc.invoices.get.query({ sort: 'amount,amount' }))).details).toEqual([
      { field: 'sort', message: '`amount` is named twice: name each field at most once' },
    ]);
  });
});

describe('GET /customers?sort=', () => {
  it.each(['name', '-name', 'createdAt', '-createdAt', 'name,-createdAt'])(
    'pages through every customer by %s, two at a time',
    async (sort) => {
      expect(await pageThrough('/customers', `sort=${sort}&pageSize=2`)).toEqual(sortedHere(customers, sort));
    },
  );

  it('sorts the matches of a search, and only the caller’s team', async () => {
    expect(await pageThrough('/customers', 'sort=name&q=alpha&pageSize=2')).toEqual(
      sortedHere(
        customers.filter((c) => c.name === 'Kunde Alpha'),
        'name',
      ),
    );
  });

  it('takes the same sort over tRPC and refuses a bad one with 400', async () => {
    const trpc = trpcAs(ctx.api, ctx.acme.sessionToken);
    const page = await trpc.customers.get.query({ sort: '-name', pageSize: 4 });
    expect(page.data.map((c) => c.id)).toEqual(sortedHere(customers, '-name').slice(0, 4));
    const bad = await trpcError(trpc.customers.get.query({ sort: 'email' }));
    expect(bad.httpStatus).toBe(400);
    expect(bad.details).toEqual([
      {
        field: 'sort',
        message: 'unknown sort field `email`: sort by `name` or `createdAt`, each ascending or with a leading `-` for descending (`-name`)',
      },
    ]);
  });
});
