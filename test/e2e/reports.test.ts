import { addDays, monthsBetween, previousPeriod } from '../../shared/domain/reports/period';
import { startTestApi, type TestApi } from '../support/api';
import { withTestDatabase } from '../support/database';
import { createTeamAndOwner, insertApiKey, transactionRowFor } from '../support/fixtures';
import { trpcAs, trpcError } from '../support/trpc';

// One team books in EUR (its base currency), USD and GBP, with a CHF payment on a day no rate covers;
// every figure below is computed here from the rows and the stored rates, not read back from SQL.

let api: TestApi;
let acme: Awaited<ReturnType<typeof createTeamAndOwner>>;
let other: Awaited<ReturnType<typeof createTeamAndOwner>>;
let oneOffId: string;

const Q1 = 'from=2026-01-01&to=2026-03-31';
const RATES = [
  { quote: 'USD', date: '2026-01-30', rate: 1.1 }, // covers 2026-02-01 (two days later)
  { quote: 'USD', date: '2026-03-06', rate: 1.08 }, // a Friday: covers Saturday 2026-03-07
  { quote: 'GBP', date: '2026-03-10', rate: 0.85 },
  { quote: 'CHF', date: '2026-01-02', rate: 0.95 }, // too old for 2026-03-20: that payment is left out
  { quote: 'JPY', date: '2026-03-02', rate: 161.2375 }, // 1,000 EUR is ¥161,237.5
  { quote: 'BHD', date: '2026-03-02', rate: 0.412345 }, // 1,000 EUR is BHD 412.345
];

const tdb = withTestDatabase({
  setUp: async () => {
    api = await startTestApi(tdb.db);
    acme = await createTeamAndOwner(tdb.db, 'Acme');
    other = await createTeamAndOwner(tdb.db, 'Other');
    const teamId = acme.team.id;
    await tdb.db('teams').where({ id: teamId }).update({ baseCurrency: 'EUR' });
    await tdb.db('exchange_rates').insert(RATES.map((r) => ({ base: 'EUR', source: 'ecb', ...r })));
    await tdb.db('transaction_categories').insert([
      { teamId, name: 'Rent', slug: 'rent', color: '#aa0000' },
      { teamId, name: 'Taxes paid', slug: 'taxes', excluded: true },
    ]);
    const tx = transactionRowFor(teamId);
    const [oneOff] = await tdb
      .db('transactions')
      .insert([
        tx('2026-01-15', -300.5, { manual: true }), // entered by hand: may be deleted
        tx('2025-12-15', 800), // the previous period of Q1
        tx('2025-12-20', -100, { categorySlug: 'rent', recurring: true }),
        tx('2026-01-05', 5000),
        tx('2026-01-10', -1200, { categorySlug: 'rent', recurring: true }),
        tx('2026-02-01', -100, { currency: 'USD' }),
        tx('2026-03-02', 1000, { taxRate: 25 }), // net 800
        tx('2026-03-03', -1200, { categorySlug: 'rent', recurring: true }),
        tx('2026-03-04', -999, { categorySlug: 'taxes' }), // excluded category: cash flow only
        tx('2026-03-05', -500, { internal: true }), // own transfer: nowhere
        tx('2026-03-06', -777, { status: 'excluded' }), // nowhere
        tx('2026-03-07', -50, { currency: 'USD' }),
        tx('2026-03-10', 200, { currency: 'GBP', taxAmount: 40 }),
        tx('2026-03-20', -30, { currency: 'CHF' }),
      ])
      .returning('id');
    oneOffId = oneOff.id;
    await tdb.db('bank_accounts').insert([
      { teamId, name: 'Main', currency: 'EUR', balance: 10_000, manual: true },
      { teamId, name: 'US', currency: 'USD', balance: 1_080, manual: true },
      { teamId, name: 'Kasse', currency: 'SEK', balance: 500, manual: true },
    ]);
    // Another team's money never reaches Acme's reports.
    await tdb.db('transactions').insert({ teamId: other.team.id, date: '2026-01-05', amount: 99_999, name: 'y', currency: 'EUR' });
  },
  tearDown: async () => {
    await api?.stop();
  },
});

const get = (path: string, token = acme.sessionToken) =>
  api.fetch(path, { token }).then(async (r) => ({ status: r.status, body: await r.json() }));

/** Units per euro on a day, from the rows stored above: the latest up to a week before (the test only asks where one exists). */
const eurRate = (currency: string, date: string) => {
  if (currency === 'EUR') return 1;
  const found = RATES.filter((r) => r.quote === currency && r.date <= date && Date.parse(date) - Date.parse(r.date) <= 7 * 86_400_000).sort(
    (a, b) => b.date.localeCompare(a.date),
  )[0];
  if (!found) throw new Error(`no ${currency} rate for ${date}`);
  return found.rate;
};
const cents = (n: number) => Math.round(n * 100) / 100;
const inEur = (amount: number, currency: string, date: string) => amount / eurRate(currency, date);

describe('reports in the base currency', () => {
  it('profit and loss converts each transaction at the rate of its date and lists what it could not convert', async () => {
    const { body } = await get(`/reports/profit-and-loss?${Q1}`);
    const income = 5000 + 1000 + inEur(200, 'GBP', '2026-03-10');
    const expenses = 300.5 + 1200 + inEur(100, 'USD', '2026-02-01') + 1200 + inEur(50, 'USD', '2026-03-07');
    expect(body.data.currency).toBe('EUR');
    expect(body.data.income).toBeCloseTo(income, 2);
    expect(body.data.expenses).toBeCloseTo(expenses, 2);
    expect(body.data.profit).toBeCloseTo(cents(income) - cents(expenses), 2);
    expect(body.data.months.map((m: { month: string }) => m.month)).toEqual(['2026-01', '2026-02', '2026-03']);
    expect(body.data.months[1].expenses).toBeCloseTo(100 / 1.1, 2);
    expect(body.data.conversion).toEqual({
      converted: 3,
      unconvertedTransactions: 1,
      unconverted: [{ currency: 'CHF', date: '2026-03-20', transactions: 1, amount: -30 }],
    });
    expect(body.data.previous).toEqual({
      from: '2025-10-03',
      to: '2025-12-31',
      conversion: { converted: 0, unconvertedTransactions: 0, unconverted: [] },
      income: 800,
      expenses: 100,
      profit: 700,
    });
  });

  it('counts every transaction it could not convert, past the 100 days it lists, and in the previous period too', async () => {
    const team = await createTeamAndOwner(tdb.db, 'Far and wide');
    const teamId = team.team.id;
    await tdb.db('teams').where({ id: teamId }).update({ baseCurrency: 'EUR' });
    const day = (n: number) => addDays('2026-06-01', n);
    // 120 days of yen and no yen rate stored at all; two payments a day on the first 10.
    const yen = Array.from({ length: 120 }, (_, n) => ({ teamId, date: day(n), amount: -1000, name: 'jp', currency: 'JPY' }));
    const twice = yen.slice(0, 10).map((t) => ({ ...t, amount: -500 }));
    await tdb.db('transactions').insert([
      ...yen,
      ...twice,
      { teamId, date: '2026-06-02', amount: -100, name: 'us', currency: 'USD' }, // 2026-01-30 is too old: left out
      // The previous period (2026-02-01 to 2026-05-31): one dollar payment with a rate, one franc payment without.
      { teamId, date: '2026-02-01', amount: 220, name: 'us', currency: 'USD' },
      { teamId, date: '2026-04-15', amount: -40, name: 'ch', currency: 'CHF' },
      { teamId, date: '2026-04-16', amount: 60, name: 'eu', currency: 'EUR' },
    ]);
    const { body } = await get('/reports/profit-and-loss?from=2026-06-01&to=2026-09-28', team.sessionToken);
    expect(body.data.conversion.unconvertedTransactions).toBe(120 + 10 + 1);
    expect(body.data.conversion.unconverted).toHaveLength(100);
    expect(body.data.conversion.unconverted.slice(0, 2)).toEqual([
      { currency: 'JPY', date: '2026-06-01', transactions: 2, amount: -1500 },
      { currency: 'JPY', date: '2026-06-02', transactions: 2, amount: -1500 },
    ]);
    expect(body.data.conversion.unconverted).toContainEqual({ currency: 'USD', date: '2026-06-02', transactions: 1, amount: -100 });
    expect(body.data.previous).toEqual({
      from: '2026-02-01',
      to: '2026-05-31',
      conversion: {
        converted: 1,
        unconvertedTransactions: 1,
        unconverted: [{ currency: 'CHF', date: '2026-04-15', transactions: 1, amount: -40 }],
      },
      income: cents(60 + inEur(220, 'USD', '2026-02-01')),
      expenses: 0,
      profit: cents(60 + inEur(220, 'USD', '2026-02-01')),
    });
    // Every report says the same of its previous period.
    const revenue = (await get('/reports/revenue?from=2026-06-01&to=2026-09-28', team.sessionToken)).body.data;
    expect(revenue.previous.conversion).toEqual(body.data.previous.conversion);
  });

  it('in another currency on request, converting the base currency too', async () => {
    const { body } = await get(`/reports/profit-and-loss?${Q1}&currency=USD`);
    // EUR → USD at each day's USD rate: only days within a week after a stored USD rate convert.
    expect(body.data.currency).toBe('USD');
    expect(body.data.conversion.unconverted.map((u: { currency: string; date: string }) => `${u.currency} ${u.date}`)).toEqual(
      expect.arrayContaining(['EUR 2026-01-05', 'EUR 2026-03-02', 'EUR 2026-03-03', 'CHF 2026-03-20']),
    );
    const march = body.data.months[2];
    expect(march.income).toBeCloseTo((200 / eurRate('GBP', '2026-03-10')) * eurRate('USD', '2026-03-10'), 2);
    expect(march.expenses).toBe(50);
  });

  it("in the report currency's minor unit: whole yen, and fils for the Bahraini dinar", async () => {
    // 2026-03-02: income 1,000 EUR; 2026-03-03: rent 1,200 EUR.
    const yen = (await get('/reports/profit-and-loss?from=2026-03-02&to=2026-03-03&currency=JPY')).body.data;
    expect(yen).toMatchObject({ currency: 'JPY', income: 161_238, expenses: 193_485, profit: -32_247 });
    const dinar = (await get('/reports/profit-and-loss?from=2026-03-02&to=2026-03-03&currency=BHD')).body.data;
    expect(dinar).toMatchObject({ currency: 'BHD', income: 412.345, expenses: 494.814, profit: -82.469 });
  });

  it('revenue gross and net of tax, beside the previous period', async () => {
    const gross = (await get(`/reports/revenue?${Q1}&type=gross`)).body.data;
    const net = (await get(`/reports/revenue?${Q1}`)).body.data;
    const gbp = inEur(200, 'GBP', '2026-03-10');
    expect(gross.type).toBe('gross');
    expect(gross.total).toBeCloseTo(6000 + gbp, 2);
    expect(net.type).toBe('net');
    expect(net.total).toBeCloseTo(5000 + 800 + inEur(160, 'GBP', '2026-03-10'), 2);
    expect(gross.previous).toMatchObject({ from: '2025-10-03', to: '2025-12-31', total: 800 });
    expect(gross.change).toBeCloseTo((6000 + gbp) / 800 - 1, 4);
    expect(gross.months.map((m: { current: number; previous: number }) => [m.current, m.previous])).toEqual([
      [5000, 0],
      [0, 0],
      [Math.round((1000 + gbp) * 100) / 100, 800],
    ]);
  });

  it('expenses recurring versus one-off, spending by category with the previous amounts', async () => {
    const exp = (await get(`/reports/expenses?${Q1}`)).body.data;
    const usd = inEur(100, 'USD', '2026-02-01') + inEur(50, 'USD', '2026-03-07');
    expect(exp.recurring).toBe(2400);
    expect(exp.oneOff).toBeCloseTo(300.5 + usd, 2);
    expect(exp.averagePerMonth).toBeCloseTo((2400 + 300.5 + usd) / 3, 2);
    expect(exp.previous).toMatchObject({ recurring: 100, oneOff: 0, total: 100 });

    const spent = (await get(`/reports/spending?${Q1}`)).body.data;
    expect(
      spent.categories.map((c: { slug: string | null; name: string; color: string | null; previousAmount: number }) => [
        c.slug,
        c.name,
        c.color,
        c.previousAmount,
      ]),
    ).toEqual([
      ['rent', 'Rent', '#aa0000', 100],
      [null, 'Uncategorised', null, 0],
    ]);
    expect(spent.categories[0].share).toBeCloseTo(2400 / spent.total, 4);
  });

  it('burn rate by month and cash flow counting excluded categories', async () => {
    const burn = (await get(`/reports/burn-rate?${Q1}`)).body.data;
    const marchBurn = 1200 + inEur(50, 'USD', '2026-03-07') - 1000 - inEur(200, 'GBP', '2026-03-10');
    expect(burn.months.map((m: { burn: number }) => m.burn)).toEqual([0, cents(100 / 1.1), cents(marchBurn)]);
    expect(burn.averageMonthlyBurn).toBeCloseTo((cents(100 / 1.1) + cents(marchBurn)) / 3, 2);
    expect(burn.previous.averageMonthlyBurn).toBe(0);

    const flow = (await get(`/reports/cash-flow?${Q1}`)).body.data;
    const pnl = (await get(`/reports/profit-and-loss?${Q1}`)).body.data;
    expect(flow.outflow).toBeCloseTo((pnl.expenses as number) + 999, 2);
    expect(flow.inflow).toBeCloseTo(pnl.income, 2);
    expect(flow.months[2].cumulative).toBeCloseTo(flow.net, 2);
  });

  it('runway converts balances at the newest rate and names the account it cannot', async () => {
    const { body } = await get('/reports/runway?from=2026-02-01&to=2026-02-28');
    expect(body.data.balance).toBeCloseTo(10_000 + 1_080 / 1.08, 2);
    expect(body.data.monthlyBurn).toBeCloseTo(100 / 1.1, 2);
    expect(body.data.accountsLeftOut).toEqual([{ id: expect.any(String), name: 'Kasse', currency: 'SEK', balance: 500 }]);
  });

  it('follows edits and deletions of transactions (the totals are kept by the database)', async () => {
    const before = (await get(`/reports/spending?${Q1}`)).body.data;
    const patched = await api.fetch(`/transactions/${oneOffId}`, {
      method: 'PATCH',
      token: acme.sessionToken,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ categorySlug: 'rent' }),
    });
    expect(patched.status).toBe(200);
    const after = (await get(`/reports/spending?${Q1}`)).body.data;
    expect(after.categories[0].amount).toBeCloseTo((before.categories[0].amount as number) + 300.5, 2);
    expect(after.total).toBeCloseTo(before.total, 2);

    expect((await api.fetch(`/transactions/${oneOffId}`, { method: 'DELETE', token: acme.sessionToken })).status).toBe(204);
    expect((await get(`/reports/spending?${Q1}`)).body.data.total).toBeCloseTo(before.total - 300.5, 2);
  });

  it('validates the period and needs reports.read', async () => {
    const bad = await get('/reports/spending?from=2026-05-01&to=2026-01-01');
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ field: 'from', message: '`from` must not be after `to`' }]);
    expect((await get('/reports/revenue?from=2026-01-01&to=2026-01-31&type=tax')).status).toBe(400);
    const key = await insertApiKey(tdb.db, { teamId: acme.team.id, userId: acme.user.id }, ['transactions.read']);
    for (const path of ['profit-and-loss', 'revenue', 'expenses', 'spending', 'burn-rate', 'cash-flow', 'runway'])
      expect((await get(`/reports/${path}?from=2026-01-01&to=2026-01-31`, key)).status).toBe(403);
  });

  it('answers the same over tRPC, with the same validation and scope', async () => {
    const trpc = trpcAs(api, acme.sessionToken);
    const period = { from: '2026-01-01', to: '2026-03-31' };
    const [pnl, revenue, expenses, burn, flow] = await Promise.all([
      trpc.reports.profitAndLoss.query(period),
      trpc.reports.revenue.query({ ...period, type: 'gross' }),
      trpc.reports.expenses.query(period),
      trpc.reports.burnRate.query(period),
      trpc.reports.cashFlow.query(period),
    ]);
    expect({ data: pnl }).toEqual((await get(`/reports/profit-and-loss?${Q1}`)).body);
    expect({ data: revenue }).toEqual((await get(`/reports/revenue?${Q1}&type=gross`)).body);
    expect({ data: expenses }).toEqual((await get(`/reports/expenses?${Q1}`)).body);
    expect({ data: burn }).toEqual((await get(`/reports/burn-rate?${Q1}`)).body);
    expect({ data: flow }).toEqual((await get(`/reports/cash-flow?${Q1}`)).body);
    expect({ data: await trpc.reports.spending.query(period) }).toEqual((await get(`/reports/spending?${Q1}`)).body);
    expect({ data: await trpc.reports.runway.query(period) }).toEqual((await get(`/reports/runway?${Q1}`)).body);

    expect(await trpcError(trpc.reports.runway.query({ from: '2026-05-01', to: '2026-01-01' }))).toMatchObject({
      httpStatus: 400,
      details: [{ field: 'from', message: '`from` must not be after `to`' }],
    });
    const key = await insertApiKey(tdb.db, { teamId: acme.team.id, userId: acme.user.id }, ['transactions.read']);
    expect(await trpcError(trpcAs(api, key).reports.profitAndLoss.query(period))).toMatchObject({ httpStatus: 403, error: 'Forbidden' });
  });

  it('another team sees only its own money', async () => {
    const { body } = await get(`/reports/profit-and-loss?${Q1}`, other.sessionToken);
    expect(body.data).toMatchObject({ currency: 'EUR', income: 99_999, expenses: 0 });
  });

  it('lists months across a year boundary; the previous period has the same length', () => {
    expect(monthsBetween('2025-11-15', '2026-02-01')).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
    expect(previousPeriod('2026-03-01', '2026-03-31')).toEqual({ from: '2026-01-29', to: '2026-02-28' });
  });
});
