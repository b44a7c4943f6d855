import { monthsBetween } from '../../shared/domain/reports/service';
import { startTestApi, type TestApi } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createTeamAndOwner, insertApiKey } from '../support/fixtures';
import { trpcAs, trpcError } from '../support/trpc';

let tdb: TestDatabase;
let api: TestApi;
let acme: Awaited<ReturnType<typeof createTeamAndOwner>>;

beforeAll(async () => {
  tdb = await createTestDatabase();
  api = await startTestApi(tdb.db);
  acme = await createTeamAndOwner(tdb.db, 'Acme');
  const teamId = acme.team.id;
  await tdb.db('transaction_categories').insert([
    { teamId, name: 'Rent', slug: 'rent' },
    { teamId, name: 'Taxes paid', slug: 'taxes', excluded: true },
  ]);
  const tx = (date: string, amount: number, extra: Record<string, unknown> = {}) => ({
    teamId,
    date,
    amount,
    name: 'x',
    currency: 'EUR',
    ...extra,
  });
  await tdb.db('transactions').insert([
    tx('2026-01-05', 5000),
    tx('2026-01-10', -1200, { categorySlug: 'rent' }),
    tx('2026-01-15', -300.5),
    tx('2026-03-02', 1000),
    tx('2026-03-03', -1200, { categorySlug: 'rent' }),
    tx('2026-03-04', -999, { categorySlug: 'taxes' }), // excluded category
    tx('2026-03-05', -500, { internal: true }), // own transfer
    tx('2026-03-06', -777, { status: 'excluded' }),
    tx('2026-03-07', -50, { currency: 'USD' }),
  ]);
  await tdb.db('bank_accounts').insert({ teamId, name: 'Main', currency: 'EUR', balance: 10_000, manual: true });
});
afterAll(async () => {
  await api?.stop();
  await tdb?.drop();
});

const get = (path: string, token = acme.sessionToken) =>
  api.fetch(path, { token }).then(async (r) => ({ status: r.status, body: await r.json() }));

describe('reports', () => {
  it('profit and loss by month, every month present, leaving out transfers, excluded rows and categories', async () => {
    const { body } = await get('/reports/profit-and-loss?from=2026-01-01&to=2026-03-31');
    expect(body.data).toMatchObject({ currency: 'EUR', income: 6000, expenses: 2700.5, profit: 3299.5 });
    expect(body.data.months).toEqual([
      { month: '2026-01', income: 5000, expenses: 1500.5, profit: 3499.5 },
      { month: '2026-02', income: 0, expenses: 0, profit: 0 },
      { month: '2026-03', income: 1000, expenses: 1200, profit: -200 },
    ]);
  });

  it('spending by category, largest first, with shares', async () => {
    const { body } = await get('/reports/spending?from=2026-01-01&to=2026-03-31');
    expect(body.data.total).toBe(2700.5);
    expect(body.data.categories.map((c: { slug: string | null; amount: number }) => [c.slug, c.amount])).toEqual([
      ['rent', 2400],
      [null, 300.5],
    ]);
    expect(body.data.categories[0].share).toBeCloseTo(2400 / 2700.5, 4);
  });

  it('runway from balances and burn; another currency on request', async () => {
    const burning = await get('/reports/runway?from=2026-03-01&to=2026-03-31');
    expect(burning.body.data).toEqual({ currency: 'EUR', balance: 10000, monthlyBurn: 200, runwayMonths: 50 });
    const profitable = await get('/reports/runway?from=2026-01-01&to=2026-01-31');
    expect(profitable.body.data.runwayMonths).toBeNull();
    const usd = await get('/reports/spending?from=2026-01-01&to=2026-12-31&currency=USD');
    expect(usd.body.data.total).toBe(50);
  });

  it('validates the period and needs reports.read', async () => {
    expect((await get('/reports/spending?from=2026-05-01&to=2026-01-01')).status).toBe(400);
    const key = await insertApiKey(tdb.db, { teamId: acme.team.id, userId: acme.user.id }, ['transactions.read']);
    expect((await get('/reports/spending?from=2026-01-01&to=2026-01-31', key)).status).toBe(403);
  });

  it('answers the same over tRPC, with the same validation and scope', async () => {
    const trpc = trpcAs(api, acme.sessionToken);
    const period = { from: '2026-01-01', to: '2026-03-31' };
    const [pnl, spent, runway] = await Promise.all([
      trpc.reports.profitAndLoss.query(period),
      trpc.reports.spending.query(period),
      trpc.reports.runway.query({ from: '2026-03-01', to: '2026-03-31' }),
    ]);
    const viaRest: unknown = (await get('/reports/profit-and-loss?from=2026-01-01&to=2026-03-31')).body;
    expect({ data: pnl }).toEqual(viaRest);
    expect(pnl).toMatchObject({ currency: 'EUR', income: 6000, expenses: 2700.5, profit: 3299.5 });
    expect(spent.categories.map((c) => [c.slug, c.name, c.amount])).toEqual([
      ['rent', 'Rent', 2400],
      [null, 'Uncategorised', 300.5],
    ]);
    expect(runway).toEqual({ currency: 'EUR', balance: 10000, monthlyBurn: 200, runwayMonths: 50 });
    expect((await trpc.reports.spending.query({ ...period, currency: 'USD' })).total).toBe(50);

    expect(await trpcError(trpc.reports.runway.query({ from: '2026-05-01', to: '2026-01-01' }))).toMatchObject({
      httpStatus: 400,
      details: [{ field: 'from', message: '`from` must not be after `to`' }],
    });
    const key = await insertApiKey(tdb.db, { teamId: acme.team.id, userId: acme.user.id }, ['transactions.read']);
    expect(await trpcError(trpcAs(api, key).reports.profitAndLoss.query(period))).toMatchObject({ httpStatus: 403, error: 'Forbidden' });
  });

  it('lists months across a year boundary', () => {
    expect(monthsBetween('2025-11-15', '2026-02-01')).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
  });
});
