import { withTwoTeams } from '../support/two-teams';
import type { UntypedJson } from '../support/untyped-json';

const { ctx, send } = withTwoTeams();

/** A tRPC call as any client makes it on the wire (no typed client: it knows only today's names). */
async function call(name: string, kind: 'query' | 'mutation', input?: unknown) {
  const encoded = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const res =
    kind === 'query'
      ? await send('GET', `/trpc/${name}${encoded}`, ctx.acme.sessionToken)
      : await send('POST', `/trpc/${name}`, ctx.acme.sessionToken, input);
  const body = await res.json();
  // An error names the procedure it came from; all else must be the same under either name.
  if (body.error?.data) delete body.error.data.path;
  return { status: res.status, body };
}

describe('deprecated tRPC names, kept for one release', () => {
  it.each([
    ['team.current', 'teams.current', 'query', undefined],
    ['user.me', 'users.me', 'query', undefined],
    ['teams.list', 'teams.get', 'query', undefined],
    ['insights.list', 'insights.get', 'query', undefined],
    ['transactions.listExports', 'transactionExports.get', 'query', undefined],
    ['invoices.paymentSuggestions', 'invoicePaymentSuggestions.get', 'query', { status: 'pending' }],
    ['chat.get', 'chatConversations.getById', 'query', { id: 'not-a-uuid' }],
    ['team.update', 'teams.updateCurrent', 'mutation', { fiscalYearStartMonth: 13 }],
    ['transactions.export', 'transactionExports.create', 'mutation', { format: 'pdf' }],
  ] as const)('%s answers as %s', async (old, name, kind, input) => {
    const [before, now] = [await call(old, kind, input), await call(name, kind, input)];
    expect(before).toEqual(now);
    expect(before.status === 200 || before.body.error?.data?.httpStatus === 400).toBe(true);
  });

  it('teams.get still reads one team when given its id, and lists them without', async () => {
    const team = { teamId: ctx.acme.team.id };
    expect(await call('teams.get', 'query', team)).toEqual(await call('teams.getById', 'query', team));
    expect((await call('teams.get', 'query', team)).body.result.data.id).toBe(ctx.acme.team.id);
    const listed = await call('teams.get', 'query');
    expect(listed.body.result.data.map((t: UntypedJson) => t.id)).toEqual([ctx.acme.team.id]);
    // A malformed id is refused as the old procedure refused it.
    expect((await call('teams.get', 'query', { teamId: 'nope' })).body.error.data).toMatchObject({ httpStatus: 400 });
  });

  it('oauthApplications.get still reads one application when given its id, and lists them without', async () => {
    const app = (
      await call('oauthApplications.create', 'mutation', {
        name: 'Old client',
        redirectUris: ['https://example.com/cb'],
        scopes: ['transactions.read'],
      })
    ).body.result.data;
    expect(await call('oauthApplications.get', 'query', { id: app.id })).toEqual(
      await call('oauthApplications.getById', 'query', { id: app.id }),
    );
    expect((await call('oauthApplications.get', 'query')).body.result.data.map((a: UntypedJson) => a.id)).toEqual([app.id]);
  });
});
