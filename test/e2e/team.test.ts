import { insertApiKey } from '../support/fixtures';
import { trpcAs, trpcError } from '../support/trpc';
import { withTwoTeams } from '../support/two-teams';

const { ctx, send } = withTwoTeams();

describe('the current team over tRPC', () => {
  it("shows the caller's own team with its inbox address, as REST does", async () => {
    const team = await trpcAs(ctx.api, ctx.acme.sessionToken).teams.current.query();
    expect(team).toMatchObject({ id: ctx.acme.team.id, name: 'Acme', plan: 'trial', autoMatch: false, baseCurrency: null });
    expect(team.inboxEmail).toBe(`${team.inboxId}@${ctx.api.deps.config.INBOX_DOMAIN}`);
    const viaRest: unknown = await (await send('GET', '/teams/current', ctx.acme.sessionToken)).json();
    expect({ data: team }).toEqual(viaRest);
    expect((await trpcAs(ctx.api, ctx.other.sessionToken).teams.current.query()).id).toBe(ctx.other.team.id);
  });

  it('changes only the fields sent, validates them, and needs teams.write', async () => {
    const trpc = trpcAs(ctx.api, ctx.acme.sessionToken);
    const before = await trpc.teams.current.query();
    const updated = await trpc.teams.updateCurrent.mutate({ baseCurrency: 'EUR', autoMatch: true, countryCode: 'DE' });
    expect(updated).toEqual({ ...before, baseCurrency: 'EUR', autoMatch: true, countryCode: 'DE' });
    expect((await trpcAs(ctx.api, ctx.other.sessionToken).teams.current.query()).baseCurrency).toBeNull();

    expect(await trpcError(trpc.teams.updateCurrent.mutate({ baseCurrency: 'euro' }))).toMatchObject({
      httpStatus: 400,
      details: [{ field: 'baseCurrency', message: 'ISO 4217, upper case' }],
    });
    const reader = await insertApiKey(ctx.tdb.db, { teamId: ctx.acme.team.id, userId: ctx.acme.user.id }, ['teams.read']);
    expect((await trpcAs(ctx.api, reader).teams.current.query()).id).toBe(ctx.acme.team.id);
    expect(await trpcError(trpcAs(ctx.api, reader).teams.updateCurrent.mutate({ name: 'Hijacked' }))).toMatchObject({
      httpStatus: 403,
      description: 'Insufficient permissions. Required scopes: teams.write. Your scopes: teams.read',
    });
  });
});
