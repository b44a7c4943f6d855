import { statusAndBody } from '../support/api';
import { insertApiKey } from '../support/fixtures';
import { trpcAs, trpcError } from '../support/trpc';
import { withTwoTeams } from '../support/two-teams';

const { ctx, send: sendJson } = withTwoTeams();
const send = (path: string, token = ctx.acme.sessionToken) => sendJson('GET', path, token).then(statusAndBody);

interface Currency {
  code: string;
  name: string;
  minorUnits: number;
}

describe('GET /currencies', () => {
  it('lists every ISO 4217 currency once, by code, with its minor units, the same through both doors', async () => {
    const rest = await send('/currencies');
    expect(rest.status).toBe(200);
    expect(Object.keys(rest.body)).toEqual(['data']);
    const list = rest.body.data as Currency[];

    const codes = list.map((c) => c.code);
    expect(codes.length).toBeGreaterThan(150);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes).toEqual([...codes].sort());
    for (const c of list) {
      expect(c.code).toMatch(/^[A-Z]{3}$/);
      expect(c.name).not.toBe('');
      expect(Number.isInteger(c.minorUnits)).toBe(true);
    }

    const units = Object.fromEntries(list.map((c) => [c.code, c.minorUnits]));
    expect(units).toMatchObject({ EUR: 2, USD: 2, GBP: 2, JPY: 0, KRW: 0, KWD: 3, BHD: 3, CLF: 4 });
    expect(list.find((c) => c.code === 'EUR')).toEqual({ code: 'EUR', name: 'Euro', minorUnits: 2 });
    // Precious metals, test and no-currency codes are not currencies to format money in.
    for (const code of ['XAU', 'XAG', 'XTS', 'XXX']) expect(codes).not.toContain(code);

    const trpc = await trpcAs(ctx.api, ctx.acme.sessionToken).currencies.get.query();
    expect(trpc).toEqual(list);
  });

  it('is the same for every team', async () => {
    const mine = await send('/currencies');
    const theirs = await send('/currencies', ctx.other.sessionToken);
    expect(theirs.status).toBe(200);
    expect(theirs.body).toEqual(mine.body);
  });

  it('needs transactions.read (or apis.read), through both doors', async () => {
    const owner = { teamId: ctx.acme.team.id, userId: ctx.acme.user.id };
    const reader = await insertApiKey(ctx.tdb.db, owner, ['transactions.read']);
    const allReads = await insertApiKey(ctx.tdb.db, owner, ['apis.read']);
    const invoicesOnly = await insertApiKey(ctx.tdb.db, owner, ['invoices.read']);
    const writer = await insertApiKey(ctx.tdb.db, owner, ['transactions.write']);

    expect((await send('/currencies', reader)).status).toBe(200);
    expect((await send('/currencies', allReads)).status).toBe(200);
    for (const token of [invoicesOnly, writer]) {
      const refused = await send('/currencies', token);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ error: 'Forbidden' });
      expect(await trpcError(trpcAs(ctx.api, token).currencies.get.query())).toMatchObject({ httpStatus: 403, error: 'Forbidden' });
    }
    expect(await trpcAs(ctx.api, reader).currencies.get.query()).toContainEqual({ code: 'JPY', name: 'Japanese Yen', minorUnits: 0 });
  });
});
