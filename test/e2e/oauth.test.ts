import { generators, Issuer, type BaseClient } from 'openid-client';
import { startTestApi, type TestApi } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createTeamAndOwner } from '../support/fixtures';

let tdb: TestDatabase;
let api: TestApi;
let acme: Awaited<ReturnType<typeof createTeamAndOwner>>;
const REDIRECT = 'https://client.example.com/callback';

beforeAll(async () => {
  tdb = await createTestDatabase();
  api = await startTestApi(tdb.db);
  acme = await createTeamAndOwner(tdb.db, 'Acme');
});
afterAll(async () => {
  await api?.stop();
  await tdb?.drop();
});

const post = (path: string, token: string, input: unknown) =>
  api.fetch(`/trpc/${path}`, { method: 'POST', token, headers: { 'content-type': 'application/json' }, body: JSON.stringify(input) }).then((r) => r.json());

async function registerApp(input: Record<string, unknown> = {}) {
  const res = await post('oauthApplications.create', acme.sessionToken, { name: 'Bookkeeper', redirectUris: [REDIRECT], scopes: ['transactions.read', 'invoices.read'], ...input });
  return res.result.data;
}

/** The consent decision as an API caller makes it (Bearer session token, JSON). */
async function consent(params: Record<string, string>, decision = 'allow'): Promise<URL> {
  const res = await api.fetch('/oauth/authorize', {
    method: 'POST',
    token: acme.sessionToken,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...params, decision }),
  });
  expect(res.status).toBe(200);
  return new URL((await res.json()).redirect_url);
}

describe('OAuth applications', () => {
  it('shows a confidential secret once, stores it hashed, gives public clients none, and refuses escalation', async () => {
    const app = await registerApp();
    expect(app.client_secret).toMatch(/^svc_secret_/);
    expect(app.client_id).toMatch(/^svc_client_/);
    const row = await tdb.db('oauth_applications').where({ id: app.id }).first();
    expect(JSON.stringify(row)).not.toContain(app.client_secret);
    const got = (await api.fetch(`/trpc/oauthApplications.get?input=${encodeURIComponent(JSON.stringify({ id: app.id }))}`, { token: acme.sessionToken }).then((r) => r.json())).result.data;
    expect(got.client_secret).toBeUndefined();

    const pub = await registerApp({ isPublic: true, name: 'SPA' });
    expect(pub.client_secret).toBeNull();

    const regenerated = (await post('oauthApplications.regenerateSecret', acme.sessionToken, { id: app.id })).result.data;
    expect(regenerated.client_secret).not.toBe(app.client_secret);

    const bad = await post('oauthApplications.create', acme.sessionToken, { name: 'x', redirectUris: ['http://evil.example/cb'], scopes: ['apis.read'] });
    expect(bad.error.data.httpStatus).toBe(400);
  });
});

describe('authorization request validation', () => {
  it('answers 400 JSON, never a redirect, until client and redirect URI are trusted', async () => {
    const app = await registerApp();
    for (const q of [`client_id=nope&redirect_uri=${encodeURIComponent(REDIRECT)}`, `client_id=${app.client_id}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}`, `client_id=${app.client_id}`]) {
      const res = await api.fetch(`/oauth/authorize?response_type=code&scope=transactions.read&state=s&${q}`, { redirect: 'manual', token: acme.sessionToken });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      const body = await res.json();
      expect(body).toEqual({ error: expect.any(String), error_description: expect.any(String), description: body.error_description });
    }
  });

  it('redirects later errors with error and state', async () => {
    const app = await registerApp();
    const pub = await registerApp({ isPublic: true, name: 'SPA' });
    const base = (a: any) => `client_id=${a.client_id}&redirect_uri=${encodeURIComponent(REDIRECT)}&state=xyz`;
    const expectations: Array<[string, string]> = [
      [`${base(app)}&response_type=token&scope=transactions.read`, 'unsupported_response_type'],
      [`${base(app)}&response_type=code&scope=apis.all`, 'invalid_scope'],
      [`${base(app)}&response_type=code&scope=made.up`, 'invalid_scope'],
      [`${base(pub)}&response_type=code&scope=transactions.read`, 'invalid_request'], // public client without PKCE
      [`${base(app)}&response_type=code&scope=transactions.read&code_challenge=${'a'.repeat(43)}&code_challenge_method=plain`, 'invalid_request'],
    ];
    for (const [q, error] of expectations) {
      const res = await api.fetch(`/oauth/authorize?${q}`, { redirect: 'manual', token: acme.sessionToken });
      expect(res.status).toBe(302);
      const location = new URL(res.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
      expect({ q, error: location.searchParams.get('error'), state: location.searchParams.get('state') }).toEqual({ q, error, state: 'xyz' });
    }
    const noState = await api.fetch(`/oauth/authorize?client_id=${app.client_id}&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&scope=transactions.read`, { redirect: 'manual', token: acme.sessionToken });
    expect(new URL(noState.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });

  it('asks a signed-out caller to sign in, and shows the consent as JSON to an API caller', async () => {
    const app = await registerApp();
    const q = `client_id=${app.client_id}&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&scope=transactions.read&state=abc`;
    const anon = await api.fetch(`/oauth/authorize?${q}`, { redirect: 'manual' });
    expect(anon.status).toBe(401);
    expect((await anon.json()).error).toBe('login_required');
    const res = await api.fetch(`/oauth/authorize?${q}`, { token: acme.sessionToken, redirect: 'manual' });
    const body = await res.json();
    expect(body).toMatchObject({ consent_required: true, application: { name: 'Bookkeeper' }, scopes: ['transactions.read'], team: { id: acme.team.id, name: 'Acme' } });
  });

  it('redirects with access_denied and the state when the user denies', async () => {
    const app = await registerApp();
    const url = await consent({ client_id: app.client_id, redirect_uri: REDIRECT, response_type: 'code', scope: 'transactions.read', state: 'st8' }, 'deny');
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(url.searchParams.get('state')).toBe('st8');
    expect(url.searchParams.get('code')).toBeNull();
  });
});

describe('the authorization-code flow with PKCE, driven by openid-client', () => {
  let client: BaseClient;
  let app: any;

  beforeAll(async () => {
    app = await registerApp();
    const issuer = await Issuer.discover(`${api.url}/.well-known/oauth-authorization-server`);
    client = new issuer.Client({ client_id: app.client_id, client_secret: app.client_secret, redirect_uris: [REDIRECT], response_types: ['code'] });
  });

  async function authorize(scope = 'transactions.read') {
    const verifier = generators.codeVerifier();
    const state = generators.state();
    const authUrl = new URL(client.authorizationUrl({ scope, state, code_challenge: generators.codeChallenge(verifier), code_challenge_method: 'S256' }));
    const redirect = await consent(Object.fromEntries(authUrl.searchParams));
    expect(redirect.searchParams.get('state')).toBe(state);
    return { verifier, state, redirect };
  }

  it('authorize → consent → code → token → API call → refresh (rotation, reuse detection) → revoke', async () => {
    const { verifier, state, redirect } = await authorize();
    const tokens = await client.oauthCallback(REDIRECT, client.callbackParams(redirect.toString()), { code_verifier: verifier, state });
    expect(tokens.access_token).toMatch(/^svc_access_token_/);
    expect(tokens.refresh_token).toMatch(/^svc_refresh_token_/);
    expect(tokens.token_type).toBe('Bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.scope).toBe('transactions.read');

    expect((await api.fetch('/transactions', { token: tokens.access_token! })).status).toBe(200);
    const outOfScope = await api.fetch('/invoices', { token: tokens.access_token! });
    expect(outOfScope.status).toBe(403);

    const refreshed = await client.refresh(tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await api.fetch('/transactions', { token: refreshed.access_token! })).status).toBe(200);
    expect((await api.fetch('/transactions', { token: tokens.access_token! })).status).toBe(401); // rotated away

    // Replaying the first refresh token is theft: the whole family dies, including the fresh token.
    await expect(client.refresh(tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await (await api.fetch('/transactions', { token: refreshed.access_token! })).json()).toEqual({ error: 'Unauthorized', description: 'Invalid or expired access token' });

    // A new grant, then revocation of its access token ends it on the next request.
    const second = await authorize();
    const t2 = await client.oauthCallback(REDIRECT, client.callbackParams(second.redirect.toString()), { code_verifier: second.verifier, state: second.state });
    // Removed from the team, the user's grant stops working on the next request.
    const membership = await tdb.db('team_members').where({ userId: acme.user.id, teamId: acme.team.id }).first();
    await tdb.db('team_members').where({ id: membership.id }).delete();
    try {
      expect(await (await api.fetch('/transactions', { token: t2.access_token! })).json()).toEqual({ error: 'Unauthorized', description: 'User not found' });
    } finally {
      await tdb.db('team_members').insert(membership);
    }
    expect((await api.fetch('/transactions', { token: t2.access_token! })).status).toBe(200);
    await client.revoke(t2.access_token!, 'access_token');
    expect(await (await api.fetch('/transactions', { token: t2.access_token! })).json()).toEqual({ error: 'Unauthorized', description: 'Invalid or expired access token' });
  });

  it('remembers consent: the next authorization redirects at once with a code', async () => {
    await authorize('transactions.read');
    const authUrl = client.authorizationUrl({ scope: 'transactions.read', state: 'again', code_challenge: generators.codeChallenge(generators.codeVerifier()), code_challenge_method: 'S256' });
    const res = await api.fetch(new URL(authUrl).pathname + new URL(authUrl).search, { token: acme.sessionToken, redirect: 'manual' });
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(location.searchParams.get('code')).toMatch(/^svc_code_/);
    expect(location.searchParams.get('state')).toBe('again');
  });

  it('spends a code once: reuse fails and revokes what it issued; wrong verifier fails', async () => {
    const { verifier, state, redirect } = await authorize();
    const params = client.callbackParams(redirect.toString());
    const tokens = await client.oauthCallback(REDIRECT, params, { code_verifier: verifier, state });
    await expect(client.oauthCallback(REDIRECT, params, { code_verifier: verifier, state })).rejects.toMatchObject({ error: 'invalid_grant' });
    expect((await api.fetch('/transactions', { token: tokens.access_token! })).status).toBe(401);

    const other = await authorize();
    await expect(
      client.oauthCallback(REDIRECT, client.callbackParams(other.redirect.toString()), { code_verifier: generators.codeVerifier(), state: other.state }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('stops every token of a deactivated application', async () => {
    const { verifier, state, redirect } = await authorize();
    const tokens = await client.oauthCallback(REDIRECT, client.callbackParams(redirect.toString()), { code_verifier: verifier, state });
    await post('oauthApplications.update', acme.sessionToken, { id: app.id, active: false });
    expect((await api.fetch('/transactions', { token: tokens.access_token! })).status).toBe(401);
    await post('oauthApplications.update', acme.sessionToken, { id: app.id, active: true });
  });
});

describe('grants the user manages', () => {
  it('lists authorized applications, revokes access (tokens die, consent is asked again), and refuses app escalation', async () => {
    const app = await registerApp({ name: 'Granted' });
    const params = { client_id: app.client_id, redirect_uri: REDIRECT, response_type: 'code', scope: 'transactions.read', state: 's' };
    const url = await consent(params);
    const tokens = await api
      .fetch('/oauth/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'authorization_code', code: url.searchParams.get('code'), redirect_uri: REDIRECT, client_id: app.client_id, client_secret: app.client_secret }) })
      .then((r) => r.json());
    const authorized = (await api.fetch('/trpc/oauthApplications.authorized', { token: acme.sessionToken }).then((r) => r.json())).result.data;
    expect(authorized.find((a: any) => a.id === app.id)).toMatchObject({ name: 'Granted', scopes: ['transactions.read'] });

    await post('oauthApplications.revokeAccess', acme.sessionToken, { applicationId: app.id });
    expect((await api.fetch('/transactions', { token: tokens.access_token })).status).toBe(401);
    const again = await api.fetch(`/oauth/authorize?${new URLSearchParams(params)}`, { token: acme.sessionToken, redirect: 'manual' });
    expect((await again.json()).consent_required).toBe(true);

    const limited = (await post('apiKeys.upsert', acme.sessionToken, { name: 'limited', scopes: ['teams.write', 'transactions.read'] })).result.data.key;
    const escalate = await post('oauthApplications.create', limited, { name: 'x', redirectUris: [REDIRECT], scopes: ['apis.all'] });
    expect(escalate.error.data.httpStatus).toBe(403);
  });

  it('revoking a refresh token ends the grant; deleting the application ends its tokens', async () => {
    const app = await registerApp({ name: 'Short-lived' });
    const grant = async () => {
      const url = await consent({ client_id: app.client_id, redirect_uri: REDIRECT, response_type: 'code', scope: 'transactions.read', state: 's' });
      return api
        .fetch('/oauth/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'authorization_code', code: url.searchParams.get('code'), redirect_uri: REDIRECT, client_id: app.client_id, client_secret: app.client_secret }) })
        .then((r) => r.json());
    };
    const t = await grant();
    await api.fetch('/oauth/revoke', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: t.refresh_token, client_id: app.client_id, client_secret: app.client_secret }) });
    expect((await api.fetch('/transactions', { token: t.access_token })).status).toBe(401);

    const t2 = await grant();
    expect((await api.fetch('/transactions', { token: t2.access_token })).status).toBe(200);
    await post('oauthApplications.delete', acme.sessionToken, { id: app.id });
    expect((await api.fetch('/transactions', { token: t2.access_token })).status).toBe(401);
  });
});

describe('token and revoke endpoints', () => {
  const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });

  it('uses RFC 6749 error codes and the exact token response fields', async () => {
    const app = await registerApp();
    const bad = await api.fetch('/oauth/token', form({ grant_type: 'authorization_code', code: 'x', redirect_uri: REDIRECT, client_id: app.client_id, client_secret: 'wrong' }));
    expect(bad.status).toBe(401);
    expect((await bad.json()).error).toBe('invalid_client');
    const grant = await api.fetch('/oauth/token', form({ grant_type: 'password', client_id: app.client_id, client_secret: app.client_secret }));
    expect((await grant.json()).error).toBe('unsupported_grant_type');
    const json = await api.fetch('/oauth/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: 'svc_refresh_token_nope', client_id: app.client_id, client_secret: app.client_secret }) });
    expect(await json.json()).toEqual({ error: 'invalid_grant', error_description: 'Invalid refresh token', description: 'Invalid refresh token' });

    const url = await consent({ client_id: app.client_id, redirect_uri: REDIRECT, response_type: 'code', scope: 'transactions.read', state: 's' });
    const basic = Buffer.from(`${app.client_id}:${app.client_secret}`).toString('base64');
    const ok = await api.fetch('/oauth/token', form({ grant_type: 'authorization_code', code: url.searchParams.get('code')!, redirect_uri: REDIRECT }, { authorization: `Basic ${basic}` }));
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(await ok.json()).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
  });

  it('revoke answers success for unknown tokens and 401 invalid_client for bad credentials', async () => {
    const app = await registerApp();
    const ok = await api.fetch('/oauth/revoke', form({ token: 'whatever', client_id: app.client_id, client_secret: app.client_secret }));
    expect(await ok.json()).toEqual({ success: true });
    const bad = await api.fetch('/oauth/revoke', form({ token: 'whatever', client_id: app.client_id, client_secret: 'nope' }));
    expect(bad.status).toBe(401);
    expect((await bad.json()).error).toBe('invalid_client');
  });

  it('bounds brute force: repeated failures for a client get 429 in the envelope', async () => {
    const app = await registerApp({ name: 'Target' });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await api.fetch('/oauth/token', form({ grant_type: 'refresh_token', refresh_token: 'x', client_id: app.client_id, client_secret: `guess-${i}` }));
      statuses.push(res.status);
      if (res.status === 429) {
        const body = await res.json();
        expect(body.error).toBe('Too Many Requests');
        expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      }
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    // Even the right secret is refused while the client is locked out.
    const right = await api.fetch('/oauth/token', form({ grant_type: 'refresh_token', refresh_token: 'x', client_id: app.client_id, client_secret: app.client_secret }));
    expect(right.status).toBe(429);
  });

  it('publishes RFC 8414 metadata', async () => {
    const meta = await (await api.fetch('/.well-known/oauth-authorization-server')).json();
    expect(meta).toMatchObject({
      authorization_endpoint: `${api.url}/oauth/authorize`,
      token_endpoint: `${api.url}/oauth/token`,
      revocation_endpoint: `${api.url}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
    });
  });
});
