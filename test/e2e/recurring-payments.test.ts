import { addMonths } from '../../shared/domain/recurring-payments/detect';
import { addDays } from '../../shared/domain/reports/period';
import { startBankAFake, type BankAFake } from '../fakes/bank-a';
import { sendJson, statusAndBody } from '../support/api';
import { createTeamAndOwner, insertApiKey, transactionRowFor } from '../support/fixtures';
import { importStatement, withStack } from '../support/stack';
import { trpcAs, trpcError } from '../support/trpc';

/**
 * Recurring payments end to end: a team's payments seeded months back (the detection reads them as
 * of today, so the dates are counted back from today), found by the weekly summary's detection and by
 * a statement import, listed by both doors, and named by the weekly summary when one is new, changed
 * its amount or did not come. Another team sees none of them.
 */
let bankA: BankAFake;
beforeAll(async () => {
  bankA = await startBankAFake();
});
afterAll(async () => {
  await bankA?.close();
});
const stack = withStack('recurring', () => ({ BANK_A_API_URL: bankA.url }));
const call = (method: string, path: string, body?: unknown, token = stack.acme.sessionToken) =>
  sendJson(stack.api, method, path, token, body).then(statusAndBody);
const db = () => stack.tdb.db;

const TODAY = new Date().toISOString().slice(0, 10);
const mondayOf = (day: string) => addDays(day, -((new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7));
const monthly = (last: string, n: number) => Array.from({ length: n }, (_, i) => addMonths(last, i - n + 1));

// Netflix: six months, the last five days ago. Dropbox: six months that stopped two months ago.
// Slack: five months at 8, its sixth at 10 comes later in the test. A corner shop: no rhythm at all.
const NETFLIX_LAST = addDays(TODAY, -5);
const DROPBOX_LAST = addMonths(TODAY, -2);
const SLACK_SIXTH = addDays(TODAY, -3);
const SHOP = [-200, -170, -110, -58, -50, -17, -3].map((d) => addDays(TODAY, d));

type Listed = {
  id: string;
  counterparty: { name: string; key: string };
  frequency: string;
  expectedAmount: number;
  nextExpectedDate: string;
  status: string;
  lastPayment: { transactionId: string | null; date: string; amount: number };
  occurrences: number;
  detectedOn: string;
};
const list = async (token = stack.acme.sessionToken): Promise<Listed[]> =>
  (await call('GET', '/recurring-payments', undefined, token)).body.data;
const byName = (rows: { counterparty: string }[]) => rows.map((r) => r.counterparty);

beforeAll(async () => {
  const teamId = stack.acme.team.id;
  await db()('teams').where({ id: teamId }).update({ timezone: 'UTC' });
  const tx = transactionRowFor(teamId);
  await db()('transactions').insert([
    ...monthly(NETFLIX_LAST, 6).map((d, i) => tx(d, -15.99, { name: `NETFLIX.COM 866-579-${7100 + i}` })),
    ...monthly(DROPBOX_LAST, 6).map((d) => tx(d, -11.99, { name: 'Dropbox Inc' })),
    ...monthly(addMonths(SLACK_SIXTH, -1), 5).map((d) => tx(d, -8, { name: 'Slack Technologies' })),
    ...SHOP.map((d, i) => tx(d, [-3.2, -48, -12.5, -7, -140, -22, -9.9][i], { name: 'Corner Shop' })),
    // Income at a rhythm is no payment out.
    ...monthly(addDays(TODAY, -1), 6).map((d) => tx(d, 4000, { name: 'Customer retainer' })),
  ]);
});

describe('recurring payments', () => {
  it('detects a monthly subscription seeded over six months with its next date, and marks its payments', async () => {
    const insight = await call('POST', '/insights', { weekStart: mondayOf(NETFLIX_LAST) });
    expect(insight.status).toBe(200);
    expect(byName(insight.body.data.summary.recurringPayments.new)).toEqual([expect.stringMatching(/^NETFLIX\.COM/)]);

    const rows = await list();
    expect(rows.map((r) => r.counterparty.key)).toEqual(['dropbox', 'slack technologies', 'netflix com']);
    const netflix = rows[2];
    expect(netflix).toMatchObject({
      counterparty: { name: 'NETFLIX.COM 866-579-7105', key: 'netflix com' },
      frequency: 'monthly',
      expectedAmount: -15.99,
      nextExpectedDate: addMonths(NETFLIX_LAST, 1),
      status: 'active',
      lastPayment: { date: NETFLIX_LAST, amount: -15.99 },
      occurrences: 6,
      detectedOn: NETFLIX_LAST,
    });
    expect(rows[0]).toMatchObject({ frequency: 'monthly', nextExpectedDate: addMonths(DROPBOX_LAST, 1), status: 'missing' });

    const marked = await db()('transactions')
      .where({ teamId: stack.acme.team.id })
      .where('name', 'like', 'NETFLIX%')
      .select('recurring', 'frequency', 'fieldSources');
    expect(marked).toHaveLength(6);
    for (const t of marked) {
      expect(t).toMatchObject({ recurring: true, frequency: 'monthly' });
      expect(t.fieldSources.recurring).toMatchObject({ by: 'detected' });
    }
    const shop = await db()('transactions').where({ teamId: stack.acme.team.id, name: 'Corner Shop' }).pluck('recurring');
    expect(shop.every((r: boolean) => !r)).toBe(true);
    const { body } = await call('GET', `/transactions/${netflix.lastPayment.transactionId}`);
    expect(body.data).toMatchObject({ recurring: true, frequency: 'monthly' });
  });

  it('when the seventh payment does not come, the weekly summary says it is missing', async () => {
    const expected = addMonths(DROPBOX_LAST, 1);
    // The week in which the expected date and its seven days of grace passed.
    const week = mondayOf(addDays(expected, 8));
    const { body } = await call('POST', '/insights', { weekStart: week });
    const said = body.data.summary.recurringPayments;
    expect(said.missing).toEqual([
      expect.objectContaining({
        counterparty: 'Dropbox Inc',
        frequency: 'monthly',
        nextExpectedDate: expected,
        lastPaymentDate: DROPBOX_LAST,
      }),
    ]);
    expect(said.new).toEqual([]);
    // The week before the grace ran out, it was not yet missing.
    const before = await call('POST', '/insights', { weekStart: mondayOf(addDays(expected, -7)) });
    expect(before.body.data.summary.recurringPayments.missing).toEqual([]);
  });

  it('names a payment that changed the amount by more than the set share, and keeps it the same series', async () => {
    await db()('transactions').insert(transactionRowFor(stack.acme.team.id)(SLACK_SIXTH, -10, { name: 'Slack Technologies' }));
    const { body } = await call('POST', '/insights', { weekStart: mondayOf(SLACK_SIXTH) });
    const said = body.data.summary.recurringPayments;
    expect(said.changed).toEqual([
      expect.objectContaining({ counterparty: 'Slack Technologies', lastAmount: -10, previousAmount: -8, lastPaymentDate: SLACK_SIXTH }),
    ]);
    expect(byName(said.new)).not.toContain('Slack Technologies');
    const slack = (await list()).find((r) => r.counterparty.key === 'slack technologies');
    expect(slack).toMatchObject({ occurrences: 6, nextExpectedDate: addMonths(SLACK_SIXTH, 1), lastPayment: { amount: -10 } });
  });

  it('detects the payments a statement import brings', async () => {
    const [account] = await db()('bank_accounts')
      .insert({ teamId: stack.acme.team.id, name: 'Giro', currency: 'EUR', balance: 0, manual: true })
      .returning<{ id: string }[]>('id');
    await importStatement(
      stack,
      account.id,
      monthly(addDays(TODAY, -2), 4).map((d) => `${d},FIGMA MONTHLY,-45.00`),
    );
    const figma = (await list()).find((r) => r.counterparty.key === 'figma monthly');
    expect(figma).toMatchObject({
      frequency: 'monthly',
      occurrences: 4,
      expectedAmount: -45,
      nextExpectedDate: addMonths(addDays(TODAY, -2), 1),
    });
  });

  it('detects the payments a bank sync brings', async () => {
    const item = bankA.addItem();
    // bank-a's amounts are positive for money out; its names carry a reference per payment.
    const txs = bankA.addTransactions(item.itemId, 4, 1000);
    monthly(addDays(TODAY, -9), 4).forEach((date, i) =>
      Object.assign(txs[i], { date, amount: 9.99, name: `SPOTIFY P${4200 + i}A`, merchant_name: null }),
    );
    const connection = (await call('POST', '/bank-connections', { provider: 'bank-a', publicToken: item.publicToken })).body.data;
    await stack.worker.client.workflow.getHandle(`sync-connection:${connection.id}`).result();
    const spotify = (await list()).find((r) => r.counterparty.key === 'spotify');
    expect(spotify).toMatchObject({
      frequency: 'monthly',
      occurrences: 4,
      expectedAmount: -9.99,
      nextExpectedDate: addMonths(addDays(TODAY, -9), 1),
    });
  });

  it('pages by next expected date through both doors, refuses bad input and a missing scope, and shows another team nothing', async () => {
    const all = await list();
    const p1 = (await call('GET', '/recurring-payments?pageSize=2')).body;
    expect(p1.data).toEqual(all.slice(0, 2));
    expect(p1.meta.hasNextPage).toBe(true);
    const p2 = (await call('GET', `/recurring-payments?pageSize=2&cursor=${p1.meta.cursor}`)).body;
    expect(p2.data).toEqual(all.slice(2, 4));
    expect(all).toHaveLength(5);
    const dates = all.map((r) => r.nextExpectedDate);
    expect(dates).toEqual([...dates].sort());

    const trpc = trpcAs(stack.api, stack.acme.sessionToken);
    expect(await trpc.recurringPayments.get.query({ pageSize: 2 })).toEqual(p1);

    expect((await call('GET', '/recurring-payments?pageSize=0')).status).toBe(400);
    expect((await call('GET', '/recurring-payments?cursor=nonsense')).status).toBe(400);
    const key = await insertApiKey(db(), { teamId: stack.acme.team.id, userId: stack.acme.user.id }, ['insights.read']);
    expect((await call('GET', '/recurring-payments', undefined, key)).status).toBe(403);
    expect(await trpcError(trpcAs(stack.api, key).recurringPayments.get.query({}))).toMatchObject({ httpStatus: 403 });

    const other = await createTeamAndOwner(db(), 'Other');
    expect(await list(other.sessionToken)).toEqual([]);
    expect((await trpcAs(stack.api, other.sessionToken).recurringPayments.get.query({})).data).toEqual([]);
    // Its own summary detects its own payments only: Acme's stay Acme's.
    await call('POST', '/insights', {}, other.sessionToken);
    expect(await list(other.sessionToken)).toEqual([]);
    expect(await db()('recurring_payments').where({ teamId: other.team.id })).toEqual([]);
  });
});
