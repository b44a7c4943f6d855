import { insertApiKey } from '../support/fixtures';
import { trpcAs, trpcError } from '../support/trpc';
import { withTwoTeams } from '../support/two-teams';

const { ctx, send } = withTwoTeams();

describe('GET /invoices/summary', () => {
  it('groups drafts, outstanding, overdue and paid this month per currency and in the base currency', async () => {
    const teamId = ctx.acme.team.id;
    await ctx.tdb.db('teams').where({ id: teamId }).update({ baseCurrency: 'EUR' });
    await ctx.tdb.db('exchange_rates').insert({ base: 'EUR', quote: 'USD', date: '2026-11-20', rate: 1.25, source: 'ecb' });
    const now = new Date();
    const thisMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1, 12));
    const longAgo = new Date(Date.UTC(now.getUTCFullYear() - 1, 0, 15));
    const inv = (n: number, status: string, currency: string, amount: number, extra: Record<string, unknown> = {}) => ({
      teamId,
      invoiceNumber: `S-${n}`,
      status,
      currency,
      amount,
      ...extra,
    });
    await ctx.tdb.db('invoices').insert([
      inv(1, 'draft', 'EUR', 100),
      inv(2, 'unpaid', 'EUR', 1000, { dueDate: '2999-01-01' }),
      inv(3, 'unpaid', 'USD', 500, { dueDate: '2000-01-01' }), // past due: outstanding and overdue
      inv(4, 'overdue', 'EUR', 200),
      inv(5, 'paid', 'EUR', 300, { paidAt: thisMonth }),
      inv(6, 'paid', 'USD', 125, { paidAt: thisMonth }),
      inv(7, 'paid', 'EUR', 999, { paidAt: longAgo }), // not this month
      inv(8, 'unpaid', 'SEK', 50, { dueDate: '2999-01-01' }), // no SEK rate
      // Credit notes and part payments lower what is outstanding: 60 and 30 still due.
      inv(9, 'unpaid', 'EUR', 100, { amountCredited: 40, dueDate: '2999-01-01' }),
      inv(10, 'overdue', 'EUR', 100, { amountPaid: 30, amountCredited: 40 }),
    ]);

    const res = await send('GET', '/invoices/summary', ctx.acme.sessionToken);
    expect(res.status).toBe(200);
    const summary = (await res.json()).data;
    expect(summary.currency).toBe('EUR');
    expect(summary.draft).toEqual({ count: 1, amount: 100, byCurrency: [{ currency: 'EUR', count: 1, amount: 100 }] });
    expect(summary.outstanding.count).toBe(6);
    expect(summary.outstanding.amount).toBe(1000 + 200 + 60 + 30 + 500 / 1.25); // SEK left out of the total
    expect(summary.outstanding.byCurrency).toContainEqual({ currency: 'EUR', count: 4, amount: 1290 });
    expect(summary.overdue.count).toBe(3);
    expect(summary.overdue.amount).toBe(200 + 30 + 500 / 1.25);
    expect(summary.paidThisMonth).toMatchObject({ count: 2, amount: 300 + 125 / 1.25 });
    expect(summary.unconvertedCurrencies).toEqual(['SEK']);

    expect(await trpcAs(ctx.api, ctx.acme.sessionToken).invoices.summary.query()).toEqual(summary);
    const theirs = (await (await send('GET', '/invoices/summary', ctx.other.sessionToken)).json()).data;
    expect(theirs.outstanding.count).toBe(0);
    const key = await insertApiKey(ctx.tdb.db, { teamId, userId: ctx.acme.user.id }, ['customers.read']);
    expect((await send('GET', '/invoices/summary', key)).status).toBe(403);
    expect(await trpcError(trpcAs(ctx.api, key).invoices.summary.query())).toMatchObject({ httpStatus: 403 });
  });
});
