import { trpcAs } from '../support/trpc';
import { withTwoTeams } from '../support/two-teams';

/** API keys and OAuth applications, managed over REST as well as tRPC: a curl user can get a key. */
const { ctx, send } = withTwoTeams();

describe('API keys over REST', () => {
  it('creates a key whose secret is shown once, renames it, and deletes it so that it stops working', async () => {
    const created = await send('POST', '/api-keys', ctx.acme.sessionToken, { name: 'Bookkeeping export', scopes: ['transactions.read'] });
    expect(created.status).toBe(201);
    const { data } = await created.json();
    expect(data.key).toMatch(/^[a-z]+_[0-9a-f]{64}$/);
    expect(data.keyHint).toBe(data.key.slice(-4));
    expect((await ctx.api.fetch('/transactions', { token: data.key })).status).toBe(200);
    // A key acts within its scopes only.
    expect((await ctx.api.fetch('/invoices', { token: data.key })).status).toBe(403);

    const renamed = await send('PATCH', `/api-keys/${data.id}`, ctx.acme.sessionToken, { name: 'Export to the accountant' });
    expect(renamed.status).toBe(200);
    expect((await renamed.json()).data).toMatchObject({ id: data.id, name: 'Export to the accountant', scopes: ['transactions.read'] });

    const listed = (await (await ctx.api.fetch('/api-keys', { token: ctx.acme.sessionToken })).json()).data as Record<string, unknown>[];
    expect(listed.find((k) => k.id === data.id)).toMatchObject({ name: 'Export to the accountant', keyHint: data.keyHint });
    expect(JSON.stringify(listed)).not.toContain(data.key);
    // Another team neither sees nor touches it.
    expect((await send('DELETE', `/api-keys/${data.id}`, ctx.other.sessionToken)).status).toBe(404);

    expect((await send('DELETE', `/api-keys/${data.id}`, ctx.acme.sessionToken)).status).toBe(204);
    expect((await ctx.api.fetch('/transactions', { token: data.key })).status).toBe(401);
  });

  it('refuses a key without the right to manage keys, and unknown fields', async () => {
    const key = (await (await send('POST', '/api-keys', ctx.acme.sessionToken, { name: 'Reader', scopes: ['tags.read'] })).json()).data;
    const escalated = await send('POST', '/api-keys', key.key, { name: 'Wider', scopes: ['tags.read', 'tags.write'] });
    // A key holding only tags.read may not manage keys at all.
    expect(escalated.status).toBe(403);
    const unknown = await send('PATCH', `/api-keys/${key.id}`, ctx.acme.sessionToken, { name: 'x', secret: 'mine' });
    expect(unknown.status).toBe(400);
  });

  it('creates and renames over tRPC with the same names as REST', async () => {
    const trpc = trpcAs(ctx.api, ctx.acme.sessionToken);
    const created = await trpc.apiKeys.create.mutate({ name: 'Over tRPC', scopes: ['tags.read'] });
    expect(created.key.endsWith(created.keyHint)).toBe(true);
    const updated = await trpc.apiKeys.update.mutate({ id: created.id, changes: { scopes: ['tags.read', 'transactions.read'] } });
    expect(updated).toMatchObject({ name: 'Over tRPC', scopes: ['tags.read', 'transactions.read'] });
  });
});

describe('OAuth applications over REST', () => {
  const REDIRECT = 'https://agent.example/callback';

  it('registers, reads, edits, gives a new secret and deletes an application', async () => {
    const created = await send('POST', '/oauth-applications', ctx.acme.sessionToken, {
      name: 'Ledger agent',
      redirectUris: [REDIRECT],
      scopes: ['transactions.read'],
    });
    expect(created.status).toBe(201);
    const app = (await created.json()).data;
    expect(app).toMatchObject({ name: 'Ledger agent', isPublic: false, redirectUris: [REDIRECT] });
    expect(app.client_secret).toEqual(expect.any(String));

    const one = await ctx.api.fetch(`/oauth-applications/${app.id}`, { token: ctx.acme.sessionToken });
    expect((await one.json()).data).not.toHaveProperty('client_secret');
    expect((await ctx.api.fetch(`/oauth-applications/${app.id}`, { token: ctx.other.sessionToken })).status).toBe(404);
    const listed = (await (await ctx.api.fetch('/oauth-applications', { token: ctx.acme.sessionToken })).json()).data;
    expect(listed.map((a: { id: string }) => a.id)).toContain(app.id);

    const edited = await send('PATCH', `/oauth-applications/${app.id}`, ctx.acme.sessionToken, { name: 'Ledger agent v2' });
    expect((await edited.json()).data.name).toBe('Ledger agent v2');
    const rotated = await send('POST', `/oauth-applications/${app.id}/regenerate-secret`, ctx.acme.sessionToken);
    const secret = (await rotated.json()).data.client_secret;
    expect(secret).toEqual(expect.any(String));
    expect(secret).not.toBe(app.client_secret);

    const granted = await ctx.api.fetch('/oauth-applications/authorized', { token: ctx.acme.sessionToken });
    expect((await granted.json()).data).toEqual([]);

    expect((await send('DELETE', `/oauth-applications/${app.id}`, ctx.acme.sessionToken)).status).toBe(204);
    expect((await ctx.api.fetch(`/oauth-applications/${app.id}`, { token: ctx.acme.sessionToken })).status).toBe(404);
  });
});
