import { statusAndBody } from '../support/api';
import { trpcAs, trpcError } from '../support/trpc';
import { withTwoTeams } from '../support/two-teams';

const { ctx, send: sendJson } = withTwoTeams();
const send = (method: string, path: string, body?: unknown, token = ctx.acme.sessionToken) =>
  sendJson(method, path, token, body).then(statusAndBody);

const manual = async (name: string, amount: number) =>
  (await send('POST', '/transactions', { date: '2026-11-02', name, amount, currency: 'EUR' })).body.data.id as string;

describe('bulk edits of transactions', () => {
  it('changes the selected transactions all at once, says how many really changed, and refuses what is not the team’s', async () => {
    await send('POST', '/categories', { name: 'Travel', slug: 'travel' });
    const tag = (await send('POST', '/tags', { name: 'trip' })).body.data.id as string;
    const ids = [await manual('Taxi Berlin', -23), await manual('Taxi Munich', -31), await manual('Hotel', -120)];
    const [bank] = await ctx.tdb
      .db('transactions')
      .insert({
        teamId: ctx.acme.team.id,
        date: '2026-11-03',
        name: 'Taxi airport',
        amount: -45,
        currency: 'EUR',
        manual: false,
        providerTransactionId: 'bank-1',
      })
      .returning('id');
    const bankId = (bank as { id: string }).id;

    const first = await send('PATCH', '/transactions/bulk', { ids, set: { categorySlug: 'travel', addTags: [tag] } });
    expect(first.body.data).toEqual({ matched: 3, changed: 3 });
    expect((await send('PATCH', '/transactions/bulk', { ids, set: { categorySlug: 'travel', addTags: [tag] } })).body.data).toEqual({
      matched: 3,
      changed: 0,
    });
    const rows = await ctx.tdb.db('transactions').whereIn('id', ids).select('categorySlug');
    expect(rows.map((r) => r.categorySlug)).toEqual(['travel', 'travel', 'travel']);
    expect(await ctx.tdb.db('transaction_tags').whereIn('transactionId', ids).where({ tagId: tag })).toHaveLength(3);

    // By filter, bank-synced ones included: status is the user's to set on any transaction.
    const byFilter = await send('PATCH', '/transactions/bulk', { filter: { q: 'taxi' }, set: { status: 'excluded', removeTags: [tag] } });
    expect(byFilter.body.data).toEqual({ matched: 3, changed: 3 });
    const listed = (await send('GET', '/transactions?q=taxi')).body.data;
    expect(listed).toHaveLength(0);
    expect((await ctx.tdb.db('transactions').where({ id: bankId }).first()).status).toBe('excluded');

    // Another team's id among them: 404, nothing changed.
    const foreign = await manual('Foreign', -1).then(() =>
      send('POST', '/transactions', { date: '2026-11-02', name: 'Theirs', amount: -5, currency: 'EUR' }, ctx.other.sessionToken),
    );
    const refused = await send('PATCH', '/transactions/bulk', { ids: [ids[2], foreign.body.data.id], set: { note: 'checked' } });
    expect(refused.status).toBe(404);
    expect((await ctx.tdb.db('transactions').where({ id: ids[2] }).first()).note).toBeNull();
    // A category, tag or assignee of another team is 400.
    const otherTag = (await send('POST', '/tags', { name: 'theirs' }, ctx.other.sessionToken)).body.data.id;
    expect((await send('PATCH', '/transactions/bulk', { ids, set: { addTags: [otherTag] } })).status).toBe(400);
    expect((await send('PATCH', '/transactions/bulk', { ids, filter: {}, set: { note: 'x' } })).status).toBe(400);
  });

  it('changes 10,000 transactions by id in one request, and refuses 10,001 whole', async () => {
    // One statement for all the rows: a row per request would be most of this test's time.
    const seeded = await ctx.tdb.db.raw<{ rows: { id: string }[] }>(
      `insert into transactions (team_id, date, name, amount, currency, manual)
       select ?, date '2026-01-01' + (g % 300), 'Full ' || g, -1, 'EUR', true from generate_series(1, 10001) g
       returning id`,
      [ctx.acme.team.id],
    );
    const ids = seeded.rows.map((r) => r.id);
    const noted = async (note: string) =>
      (await ctx.tdb.db('transactions').where({ teamId: ctx.acme.team.id, note }).count<{ n: number }[]>({ n: '*' }))[0].n;

    const refused = await send('PATCH', '/transactions/bulk', { ids, set: { note: 'one too many' } });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([{ field: 'ids', message: expect.stringMatching(/10000/) }]);
    expect(await noted('one too many')).toBe(0);

    const full = await send('PATCH', '/transactions/bulk', { ids: ids.slice(0, 10_000), set: { note: 'reconciled' } });
    expect(full.status).toBe(200);
    expect(full.body.data).toEqual({ matched: 10_000, changed: 10_000 });
    expect(await noted('reconciled')).toBe(10_000);
    expect((await ctx.tdb.db('transactions').where({ id: ids[10_000] }).first()).note).toBeNull();
  }, 60_000);

  it('refuses a filter that selects more than 10,000 transactions', async () => {
    await ctx.tdb.db.raw(
      `insert into transactions (team_id, date, name, amount, currency, manual)
       select ?, date '2026-01-01' + (g % 300), 'Bulk ' || g, -1, 'EUR', true from generate_series(1, 10001) g`,
      [ctx.other.team.id],
    );
    const res = await send('PATCH', '/transactions/bulk', { filter: { q: 'Bulk' }, set: { note: 'too many' } }, ctx.other.sessionToken);
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: 'filter', message: 'matches more than 10,000; narrow it' }]);
    expect(await ctx.tdb.db('transactions').where({ teamId: ctx.other.team.id, note: 'too many' })).toHaveLength(0);
  });

  it('deletes manual transactions all or none, over REST and tRPC', async () => {
    const ids = [await manual('Old 1', -1), await manual('Old 2', -2)];
    const [bank] = await ctx.tdb
      .db('transactions')
      .insert({
        teamId: ctx.acme.team.id,
        date: '2026-11-03',
        name: 'From the bank',
        amount: -9,
        currency: 'EUR',
        manual: false,
        providerTransactionId: 'bank-2',
      })
      .returning('id');
    const mixed = await send('DELETE', '/transactions/bulk', { ids: [...ids, (bank as { id: string }).id] });
    expect(mixed.status).toBe(409);
    expect(await ctx.tdb.db('transactions').whereIn('id', ids)).toHaveLength(2);
    expect((await send('DELETE', '/transactions/bulk', { ids })).body.data).toEqual({ matched: 2, changed: 2 });

    const trpc = trpcAs(ctx.api, ctx.acme.sessionToken);
    const more = [await manual('Old 3', -3)];
    expect(await trpc.transactions.bulkUpdate.mutate({ ids: more, set: { note: 'to go' } })).toEqual({ matched: 1, changed: 1 });
    expect(await trpc.transactions.bulkDelete.mutate({ ids: more })).toEqual({ matched: 1, changed: 1 });
    expect(await trpcError(trpc.transactions.bulkDelete.mutate({ ids: more }))).toMatchObject({ httpStatus: 404 });
  });
});
