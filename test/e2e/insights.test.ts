import { lastCompleteWeek } from '../../shared/domain/insights/compute';
import { notificationsOf } from '../../shared/domain/notifications/service';
import { weeklyInsightsScheduleId } from '../../shared/temporal/weekly-insights/contract';
import { sendJson, statusAndBody } from '../support/api';
import { eventually } from '../support/eventually';
import { createTeamAndOwner, insertApiKey, transactionRowFor } from '../support/fixtures';
import { withStack } from '../support/stack';
import { trpcAs, trpcError } from '../support/trpc';

// The week of Monday 2026-11-16, beside the week before and the four weeks before, for a team that
// books in EUR and once in USD; a real worker runs WeeklyInsights for every summary here.
const stack = withStack('insights');
const WEEK = '2026-11-16';

const json = (method: string, path: string, body?: unknown, token = stack.acme.sessionToken) =>
  sendJson(stack.api, method, path, token, body).then(statusAndBody);

beforeAll(async () => {
  const teamId = stack.acme.team.id;
  const db = stack.tdb.db;
  await db('teams').where({ id: teamId }).update({ baseCurrency: 'EUR' });
  await db('exchange_rates').insert({ base: 'EUR', quote: 'USD', date: '2026-11-20', rate: 1.25, source: 'ecb' });
  await db('transaction_categories').insert([
    { teamId, name: 'Software', slug: 'software' },
    { teamId, name: 'Travel', slug: 'travel' },
  ]);
  const tx = transactionRowFor(teamId);
  await db('transactions').insert([
    // Four weeks before: 200 on software every week (the last of them is also the week before).
    ...['2026-10-20', '2026-10-27', '2026-11-03', '2026-11-10'].map((d) => tx(d, -200, { categorySlug: 'software' })),
    // The week itself.
    tx('2026-11-17', 3000),
    tx('2026-11-18', -200, { categorySlug: 'software' }),
    tx('2026-11-19', -900, { categorySlug: 'travel' }),
    tx('2026-11-20', -50),
    tx('2026-11-21', -100, { currency: 'USD' }), // 80 EUR at Friday's rate, uncategorised
  ]);
  await db('inbox_items').insert([
    { teamId, source: 'upload', reference: 'a', status: 'pending' },
    { teamId, source: 'upload', reference: 'b', status: 'suggested_match' },
    { teamId, source: 'upload', reference: 'c', status: 'done' },
  ]);
  await db('invoices').insert([
    // 1,500 invoiced, 300 of it credited: 1,200 is overdue.
    { teamId, invoiceNumber: 'INV-1', status: 'unpaid', currency: 'EUR', amount: 1500, amountCredited: 300, dueDate: '2026-11-10' },
    { teamId, invoiceNumber: 'INV-2', status: 'unpaid', currency: 'EUR', amount: 500, dueDate: '2026-12-10' },
  ]);
});

describe('weekly insights', () => {
  it('summarises a week on demand in the base currency, beside the week before and the usual spending', async () => {
    const { status, body } = await json('POST', '/insights', { weekStart: WEEK });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ periodType: 'weekly', periodStart: WEEK, periodEnd: '2026-11-22' });
    expect(body.data.summary).toEqual({
      currency: 'EUR',
      income: 3000,
      spending: 1230,
      profit: 1770,
      previousWeek: { income: 0, spending: 200 },
      largestChanges: [
        { slug: 'travel', name: 'Travel', amount: 900, weeklyAverage: 0, change: 900 },
        { slug: null, name: 'Uncategorised', amount: 130, weeklyAverage: 0, change: 130 },
      ],
      uncategorisedTransactions: 3,
      receiptsWaiting: 2,
      overdueInvoices: { count: 1, totals: [{ currency: 'EUR', amount: 1200 }] },
      // August to October: 400 spent on software in October, nothing in.
      runway: { balance: 0, monthlyBurn: 133.33, runwayMonths: 0 },
      unconvertedTransactions: 0,
      // Payments named `x` at no rhythm: none of them recurring.
      recurringPayments: { new: [], changed: [], missing: [] },
    });
  });

  it('recomputes the same week in place and announces it once', async () => {
    const first = (await json('POST', '/insights', { weekStart: WEEK })).body.data;
    await stack.tdb
      .db('transactions')
      .insert({ teamId: stack.acme.team.id, date: '2026-11-22', amount: 500, name: 'late', currency: 'EUR' });
    const again = (await json('POST', '/insights', { weekStart: WEEK })).body.data;
    expect(again.id).toBe(first.id);
    expect(again.summary.income).toBe(3500);
    expect(Date.parse(again.updatedAt)).toBeGreaterThan(Date.parse(first.updatedAt));
    const notices = await notificationsOf(stack.tdb.db, stack.acme.team.id, 'insight_ready');
    expect(notices.filter((n) => n.metadata.insightId === first.id)).toHaveLength(1);
    expect(notices[0].metadata).toEqual({ insightId: first.id, periodStart: WEEK, periodEnd: '2026-11-22' });
  });

  it('lists newest week first across pages, reads one, and keeps other teams out', async () => {
    await json('POST', '/insights', { weekStart: '2026-11-09' });
    await json('POST', '/insights', { weekStart: '2026-11-02' });
    const p1 = (await json('GET', '/insights?pageSize=2')).body;
    expect(p1.data.map((i: { periodStart: string }) => i.periodStart)).toEqual([WEEK, '2026-11-09']);
    expect(p1.meta.hasNextPage).toBe(true);
    const p2 = (await json('GET', `/insights?pageSize=2&cursor=${p1.meta.cursor}`)).body;
    expect(p2.data.map((i: { periodStart: string }) => i.periodStart)).toEqual(['2026-11-02']);
    expect(p2.meta).toEqual({ cursor: null, hasNextPage: false });

    const one = await json('GET', `/insights/${p1.data[0].id}`);
    expect(one.body.data).toEqual(p1.data[0]);
    const other = await createTeamAndOwner(stack.tdb.db, 'Other');
    expect((await json('GET', `/insights/${p1.data[0].id}`, undefined, other.sessionToken)).status).toBe(404);
    expect((await json('GET', '/insights', undefined, other.sessionToken)).body.data).toEqual([]);
  });

  it('refuses a week that does not start on Monday, and callers without insights.read', async () => {
    const bad = await json('POST', '/insights', { weekStart: '2026-11-17' });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ field: 'weekStart', message: 'a Monday' }]);
    const key = await insertApiKey(stack.tdb.db, { teamId: stack.acme.team.id, userId: stack.acme.user.id }, ['reports.read']);
    expect((await json('GET', '/insights', undefined, key)).status).toBe(403);
    expect((await json('POST', '/insights', {}, key)).status).toBe(403);
  });

  it('answers the same over tRPC', async () => {
    const trpc = trpcAs(stack.api, stack.acme.sessionToken);
    const listed = await trpc.insights.get.query({ pageSize: 1 });
    expect({ data: listed }).toEqual({ data: (await json('GET', '/insights?pageSize=1')).body });
    expect(await trpc.insights.getById.query({ id: listed.data[0].id })).toEqual(listed.data[0]);
    expect((await trpc.insights.generate.mutate({ weekStart: WEEK })).id).toBe(listed.data[0].id);
    const key = await insertApiKey(stack.tdb.db, { teamId: stack.acme.team.id, userId: stack.acme.user.id }, ['reports.read']);
    expect(await trpcError(trpcAs(stack.api, key).insights.get.query({}))).toMatchObject({ httpStatus: 403 });
  });

  it("schedules Monday morning in the team's time zone, follows a change of zone, and a scheduled run summarises the last week there", async () => {
    const changed = await json('PATCH', '/teams/current', { timezone: 'Pacific/Auckland' });
    expect(changed.status).toBe(200);
    const client = await stack.api.deps.temporal.client();
    const schedule = client.schedule.getHandle(weeklyInsightsScheduleId(stack.acme.team.id));
    const described = await schedule.describe();
    expect(described.spec.timezone).toBe('Pacific/Auckland');
    expect(described.spec.calendars?.[0]).toMatchObject({
      dayOfWeek: [{ start: 'MONDAY', end: 'MONDAY', step: 1 }],
      hour: [{ start: 6, end: 6, step: 1 }],
    });

    await schedule.trigger();
    const expected = lastCompleteWeek('Pacific/Auckland');
    await eventually(
      async () => (await stack.tdb.db('insights').where({ teamId: stack.acme.team.id, periodStart: expected })).length === 1,
      30_000,
      'the scheduled run to store its week',
    );
    await schedule.delete();
  });

  it('knows the last complete week wherever the team is', () => {
    // Sunday noon in UTC is already Monday 01:00 in Auckland: the week just ended there, not in London.
    const sundayNoonUtc = new Date('2026-11-22T12:00:00Z');
    expect(lastCompleteWeek('Pacific/Auckland', sundayNoonUtc)).toBe('2026-11-16');
    expect(lastCompleteWeek('Europe/London', sundayNoonUtc)).toBe('2026-11-09');
    expect(lastCompleteWeek('UTC', new Date('2026-11-23T05:00:00Z'))).toBe('2026-11-16');
  });
});
