import { statusAndBody } from '../support/api';
import { trpcAs, trpcError } from '../support/trpc';
import { withTwoTeams } from '../support/two-teams';

const { ctx, send: sendJson } = withTwoTeams();
const send = (method: string, path: string, body?: unknown, token = ctx.acme.sessionToken) =>
  sendJson(method, path, token, body).then(statusAndBody);

describe('manual bank accounts', () => {
  it('keeps an opening balance and adds the booked transactions since, refuses to delete a provider account, and keeps teams apart', async () => {
    const created = await send('POST', '/bank-accounts', {
      name: 'Petty cash',
      currency: 'EUR',
      openingBalance: 500,
      openingBalanceDate: '2026-11-01',
    });
    expect(created.status).toBe(201);
    const account = created.body.data;
    expect(account).toMatchObject({
      manual: true,
      connectionId: null,
      balance: 500,
      openingBalance: 500,
      openingBalanceDate: '2026-11-01',
    });

    const tx = (date: string, amount: number, extra: Record<string, unknown> = {}) =>
      send('POST', '/transactions', { date, name: 'Cash', amount, currency: 'EUR', bankAccountId: account.id, ...extra });
    await tx('2026-11-03', -42.5);
    await tx('2026-11-04', 100);
    await tx('2026-10-30', -999); // before the opening balance: already in it
    await tx('2026-11-05', -10, { status: 'pending' }); // not booked yet
    expect((await send('GET', `/bank-accounts/${account.id}`)).body.data.balance).toBe(557.5);
    expect((await send('GET', '/bank-accounts')).body.data.find((a: { id: string }) => a.id === account.id).balance).toBe(557.5);
    expect((await send('PATCH', `/bank-accounts/${account.id}`, { name: 'Cash box' })).body.data).toMatchObject({
      name: 'Cash box',
      balance: 557.5,
    });
    // The runway counts the computed balance.
    await send('PATCH', '/teams/current', { baseCurrency: 'EUR' });
    expect((await send('GET', '/reports/runway?from=2026-11-01&to=2026-11-30')).body.data.balance).toBe(557.5);

    expect((await send('GET', `/bank-accounts/${account.id}`, undefined, ctx.other.sessionToken)).status).toBe(404);
    expect((await send('DELETE', `/bank-accounts/${account.id}`, undefined, ctx.other.sessionToken)).status).toBe(404);

    const [fed] = await ctx.tdb
      .db('bank_accounts')
      .insert({ teamId: ctx.acme.team.id, name: 'Fed', currency: 'EUR', balance: 10, manual: false })
      .returning('id');
    const fedId = (fed as { id: string }).id;
    expect((await send('DELETE', `/bank-accounts/${fedId}`)).status).toBe(409);
    expect((await send('GET', `/bank-accounts/${fedId}`)).body.data.balance).toBe(10);

    expect((await send('DELETE', `/bank-accounts/${account.id}`)).status).toBe(204);
    // Its transactions stay, without an account.
    expect(await ctx.tdb.db('transactions').where({ teamId: ctx.acme.team.id, name: 'Cash' }).whereNull('bankAccountId')).toHaveLength(4);
  });

  it("changes a manual account's opening balance and date, recomputing its balance, and refuses them for a provider's account", async () => {
    const account = (
      await send('POST', '/bank-accounts', { name: 'Till', currency: 'EUR', openingBalance: 100, openingBalanceDate: '2026-11-10' })
    ).body.data;
    for (const [date, amount] of [
      ['2026-10-25', -30],
      ['2026-11-12', 20],
    ] as const)
      await send('POST', '/transactions', { date, name: 'Till', amount, currency: 'EUR', bankAccountId: account.id });
    expect((await send('GET', `/bank-accounts/${account.id}`)).body.data.balance).toBe(120);

    const moved = await send('PATCH', `/bank-accounts/${account.id}`, { openingBalance: 250, openingBalanceDate: '2026-11-01' });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ openingBalance: 250, openingBalanceDate: '2026-11-01', balance: 270 });
    expect((await send('PATCH', `/bank-accounts/${account.id}`, { openingBalanceDate: null })).body.data).toMatchObject({
      openingBalanceDate: null,
      balance: 240,
    });
    expect((await send('PATCH', `/bank-accounts/${account.id}`, { openingBalanceDate: '01.11.2026' })).status).toBe(400);
    expect((await send('PATCH', `/bank-accounts/${account.id}`, { openingBalance: 1 }, ctx.other.sessionToken)).status).toBe(404);

    const trpc = trpcAs(ctx.api, ctx.acme.sessionToken);
    const viaTrpc = await trpc.bankAccounts.update.mutate({
      id: account.id,
      data: { openingBalance: 0, openingBalanceDate: '2026-11-12' },
    });
    expect(viaTrpc).toMatchObject({ openingBalance: 0, openingBalanceDate: '2026-11-12', balance: 20 });
    expect((await send('GET', '/bank-accounts')).body.data.find((a: { id: string }) => a.id === account.id).balance).toBe(20);

    const [fed] = await ctx.tdb
      .db('bank_accounts')
      .insert({ teamId: ctx.acme.team.id, name: 'Fed', currency: 'EUR', balance: 10, manual: false })
      .returning<{ id: string }[]>('id');
    const refused = await send('PATCH', `/bank-accounts/${fed.id}`, { name: 'Renamed', openingBalance: 5 });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 'Conflict', description: expect.stringMatching(/manual account/) });
    expect(await trpcError(trpc.bankAccounts.update.mutate({ id: fed.id, data: { openingBalanceDate: '2026-11-01' } }))).toMatchObject({
      httpStatus: 409,
    });
    expect(await ctx.tdb.db('bank_accounts').where({ id: fed.id }).first()).toMatchObject({
      name: 'Fed',
      balance: 10,
      openingBalance: null,
      openingBalanceDate: null,
    });
    // Its name and state stay changeable.
    expect((await send('PATCH', `/bank-accounts/${fed.id}`, { name: 'Renamed' })).body.data).toMatchObject({
      name: 'Renamed',
      balance: 10,
    });
  });

  it('speaks tRPC', async () => {
    const trpc = trpcAs(ctx.api, ctx.acme.sessionToken);
    const card = await trpc.bankAccounts.create.mutate({ name: 'Card without a feed', currency: 'USD', type: 'credit' });
    expect(card).toMatchObject({ balance: 0, type: 'credit', manual: true });
    await trpc.bankAccounts.delete.mutate({ id: card.id });
    expect(await trpcError(trpc.bankAccounts.getById.query({ id: card.id }))).toMatchObject({ httpStatus: 404 });
  });
});
