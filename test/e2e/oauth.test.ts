import { generators, Issuer, type BaseClient } from 'openid-client';
import { startTestApi, type TestApi } from '../support/api';
import { withTestDatabase } from '../support/database';
import { createTeamAndOwner } from '../support/fixtures';
import type { TokenResponse } from '../../shared/domain/oauth/schema';
import { trpcAs, trpcError } from '../support/trpc';

let api: TestApi;
let acme: Awaited<ReturnType<typeof createTeamAndOwner>>;
let other: Awaited<ReturnType<typeof createTeamAndOwner>>;
const REDIRECT = 'https://client.example.com/callback';

const tdb = withTestDatabase({
  setUp: async () => {
    api = await startTestApi(tdb.db);
    acme = await createTeamAndOwner(tdb.db, 'Acme');
    other = await createTeamAndOwner(tdb.db, 'Other');
  },
  tearDown: async () => {
    await api?.stop();
  },
});

const apps = (token = acme.sessionToken) => trpcAs(api, token).oauthApplications;
type App = Awaited<ReturnType<typeof registerApp>>;

function registerApp(input: Partial<Parameters<ReturnType<typeof apps>['create']['mutate']>[0]> = {}) {
  return apps().create.mutate({ name: 'Bookkeeper', redirectUris: [REDIRECT], scopes: ['transactions.read', 'invoices.read'], ...input });
}

/** The token endpoint's authorization_code grant, as a confidential client posting JSON. */
const exchangeCode = (app: App, code: string | null): Promise<TokenResponse> =>
  api
    .fetch('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: app.client_id,
        client_secret: app.client_secret,
      }),
    })
    .then((r) => r.json() as Promise<TokenResponse>);

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
    const got = await apps().getById.query({ id: app.id });
    expect(got).toEqual({ ...app, client_secret: undefined });
    expect('client_secret' in got).toBe(false);
    expect((await apps().get.query()).map((a) => a.id)).toContain(app.id);

    const pub = await registerApp({ isPublic: true, name: 'SPA' });
    expect(pub.client_secret).toBeNull();
    expect((await apps().regenerateSecret.mutate({ id: pub.id })).client_secret).toBeNull();

    const regenerated = await apps().regenerateSecret.mutate({ id: app.id });
    expect(regenerated.client_secret).toMatch(/^svc_secret_/);
    expect(regenerated.client_secret).not.toBe(app.client_secret);

    const bad = await trpcError(apps().create.mutate({ name: 'x', redirectUris: ['http://evil.example/cb'], scopes: ['apis.read'] }));
    expect(bad).toMatchObject({
      httpStatus: 400,
      details: [{ field: 'redirectUris.0', message: expect.stringContaining('http only for loopback') }],
    });
  });

  it('updates only what is sent, and keeps each team to its own applications', async () => {
    const app = await registerApp({ name: 'Editable' });
    const updated = await apps().update.mutate({ id: app.id, name: 'Edited', website: 'https://client.example.com', description: null });
    expect(updated).toMatchObject({ id: app.id, name: 'Edited', website: 'https://client.example.com', scopes: app.scopes });

    const foreign = apps(other.sessionToken);
    expect(await foreign.get.query()).toEqual([]);
    for (const call of [
      foreign.getById.query({ id: app.id }),
      foreign.update.mutate({ id: app.id, name: 'Stolen' }),
      foreign.regenerateSecret.mutate({ id: app.id }),
      foreign.delete.mutate({ id: app.id }),
    ]) {
      expect(await trpcError(call)).toMatchObject({ httpStatus: 404, description: `OAuth application ${app.id} not found` });
    }
    expect(await trpcError(foreign.revokeAccess.mutate({ applicationId: app.id }))).toMatchObject({
      httpStatus: 404,
      description: 'This application has no access to revoke',
    });

    await apps().delete.mutate({ id: app.id });
    expect(await trpcError(apps().getById.query({ id: app.id }))).toMatchObject({ httpStatus: 404 });
  });
});

describe('authorization request validation', () => {
  it('answers 400 JSON, never a redirect, until client and redirect URI are trusted', async () => {
    const app = await registerApp();
    for (const q of [
      `client_id=nope&redirect_uri=${encodeURIComponent(REDIRECT)}`,
      `client_id=${app.client_id}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}`,
      `client_id=${app.client_id}`,
    ]) {
      const res = await api.fetch(`/oauth/authorize?response_type=code&scope=transactions.read&state=s&${q}`, {
        redirect: 'manual',
        token: acme.sessionToken,
      });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      const body = await res.json();
      expect(body).toEqual({ error: expect.any(String), error_description: expect.any(String), description: body.error_description });
    }
  });

  it('redirects later errors with error and state', async () => {
    const app = await registerApp();
    const pub = await registerApp({ isPublic: true, name: 'SPA' });
    const base = (a: App) => `client_id=${a.client_id}&redirect_uri=${encodeURIComponent(REDIRECT)}&state=xyz`;
    const expectations: Array<[string, string]> = [
      [`${base(app)}&response_type=token&scope=transactions.read`, 'unsupported_response_type'],
      [`${base(app)}&response_type=code&scope=apis.all`, 'invalid_scope'],
      [`${base(app)}&response_type=code&scope=made.up`, 'invalid_scope'],
      [`${base(pub)}&response_type=code&scope=transactions.read`, 'invalid_request'], // public client without PKCE
      [
        `${base(app)}&response_type=code&scope=transactions.read&code_challenge=${'a'.repeat(43)}&code_challenge_method=plain`,
        'invalid_request',
      ],
    ];
    for (const [q, error] of expectations) {
      const res = await api.fetch(`/oauth/authorize?${q}`, { redirect: 'manual', token: acme.sessionToken });
      expect(res.status).toBe(302);
      const location = new URL(res.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
      expect({ q, error: location.searchParams.get('error'), state: location.searchParams.get('state') }).toEqual({
        q,
        error,
        state: 'xyz',
      });
    }
    const noState = await api.fetch(
      `/oauth/authorize?client_id=${app.client_id}&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&scope=transactions.read`,
      { redirect: 'manual', token: acme.sessionToken },
    );
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
    expect(body).toMatchObject({
      consent_required: true,
      application: { name: 'Bookkeeper' },
      scopes: ['transactions.read'],
      team: { id: acme.team.id, name: 'Acme' },
    });
  });

  it('redirects with access_denied and the state when the user denies', async () => {
    const app = await registerApp();
    const url = await consent(
      { client_id: app.client_id, redirect_uri: REDIRECT, response_type: 'code', scope: 'transactions.read', state: 'st8' },
      'deny',
    );
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(url.searchParams.get('state')).toBe('st8');
    expect(url.searchParams.get('code')).toBeNull();
  });
});

describe('the authorization-code flow with PKCE, driven by openid-client', () => {
  let client: BaseClient;
  let app: App;

  beforeAll(async () => {
    app = await registerApp();
    const issuer = await Issuer.discover(`${api.url}/.well-known/oauth-authorization-server`);
    client = new issuer.Client({
      client_id: app.client_id,
      client_secret: app.client_secret ?? undefined,
      redirect_uris: [REDIRECT],
      response_types: ['code'],
    });
  });

  async function authorize(scope = 'transactions.read') {
    const verifier = generators.codeVerifier();
    const state = generators.state();
    const authUrl = new URL(
      client.authorizationUrl({ scope, state, code_challenge: generators.codeChallenge(verifier), code_challenge_method: 'S256' }),
    );
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
    expect(await (await api.fetch('/transactions', { token: refreshed.access_token! })).json()).toEqual({
      error: 'Unauthorized',
      description: 'Invalid or expired access token',
    });

    // A new grant, then revocation of its access token ends it on the next request.
    const second = await authorize();
    const t2 = await client.oauthCallback(REDIRECT, client.callbackParams(second.redirect.toString()), {
      code_verifier: second.verifier,
      state: second.state,
    });
    // Removed from the team, the user's grant stops working on the next request.
    const membership = await tdb.db('team_members').where({ userId: acme.user.id, teamId: acme.team.id }).first();
    await tdb.db('team_members').where({ id: membership.id }).delete();
    try {
      expect(await (await api.fetch('/transactions', { token: t2.access_token! })).json()).toEqual({
        error: 'Unauthorized',
        description: 'User not found',
      });
    } finally {
      await tdb.db('team_members').insert(membership);
    }
    expect((await api.fetch('/transactions', { token: t2.access_token! })).status).toBe(200);
    await client.revoke(t2.access_token!, 'access_token');
    expect(await (await api.fetch('/transactions', { token: t2.access_token! })).json()).toEqual({
      error: 'Unauthorized',
      description: 'Invalid or expired access token',
    });
  });

  it('remembers consent: the next authorization redirects at once with a code', async () => {
    await authorize('transactions.read');
    const authUrl = client.authorizationUrl({
      scope: 'transactions.read',
      state: 'again',
      code_challenge: generators.codeChallenge(generators.codeVerifier()),
      code_challenge_method: 'S256',
    });
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
    await expect(client.oauthCallback(REDIRECT, params, { code_verifier: verifier, state })).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect((await api.fetch('/transactions', { token: tokens.access_token! })).status).toBe(401);

    const other = await authorize();
    await expect(
      client.oauthCallback(REDIRECT, client.callbackParams(other.redirect.toString()), {
        code_verifier: generators.codeVerifier(),
        state: other.state,
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('stops every token of a deactivated application, for good: reactivating brings none back', async () => {
    const { verifier, state, redirect } = await authorize();
    const tokens = await client.oauthCallback(REDIRECT, client.callbackParams(redirect.toString()), { code_verifier: verifier, state });
    expect((await apps().update.mutate({ id: app.id, active: false })).active).toBe(false);
    expect((await api.fetch('/transactions', { token: tokens.access_token! })).status).toBe(401);
    await apps().update.mutate({ id: app.id, active: true });
    expect((await api.fetch('/transactions', { token: tokens.access_token! })).status).toBe(401);
    await expect(client.refresh(tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('ends what the old secret obtained when the secret is regenerated', async () => {
    const { verifier, state, redirect } = await authorize();
    const tokens = await client.oauthCallback(REDIRECT, client.callbackParams(redirect.toString()), { code_verifier: verifier, state });
    expect((await api.fetch('/transactions', { token: tokens.access_token! })).status).toBe(200);
    const rotated = await apps().regenerateSecret.mutate({ id: app.id });
    expect(rotated.client_secret).not.toBe(app.client_secret);
    expect((await api.fetch('/transactions', { token: tokens.access_token! })).status).toBe(401);
    const renewed = await api.fetch('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: app.client_id,
        client_secret: rotated.client_secret,
      }),
    });
    expect(renewed.status).toBe(400);
    expect((await renewed.json()).error).toBe('invalid_grant');
  });
});

describe('redirect URIs an application may register', () => {
  it.each([
    'https://app.example.com/callback',
    'http://127.0.0.1:8765/callback',
    'http://localhost/cb',
    'http://[::1]:9000/cb',
    'com.example.app:/oauth2redirect',
  ])('accepts %s', async (uri) => {
    expect((await registerApp({ redirectUris: [uri] })).redirectUris).toEqual([uri]);
  });

  it.each([
    'http://app.example.com/callback',
    'https://*.example.com/callback',
    'https://app.example.com/cb#frag',
    'https://user:pw@app.example.com/cb',
    'javascript:alert(1)',
    'vbscript:msgbox(1)',
    'data:text/html,hi',
    'file:///etc/passwd',
    'blob:https://app.example.com/uuid',
    'about:blank',
    'myapp:/callback',
  ])('refuses %s with 400 naming the field', async (uri) => {
    const err = await trpcError(registerApp({ redirectUris: [uri] }));
    expect(err).toMatchObject({ httpStatus: 400 });
    expect(err.details?.[0].field).toBe('redirectUris.0');
  });
});

describe('grants the user manages', () => {
  it('lists authorized applications, revokes access (tokens die, consent is asked again), and refuses app escalation', async () => {
    const app = await registerApp({ name: 'Granted' });
    const params = { client_id: app.client_id, redirect_uri: REDIRECT, response_type: 'code', scope: 'transactions.read', state: 's' };
    const url = await consent(params);
    const tokens = await exchangeCode(app, url.searchParams.get('code'));
    const authorized = await apps().authorized.query();
    expect(authorized.find((a) => a.id === app.id)).toMatchObject({ name: 'Granted', scopes: ['transactions.read'] });
    expect(await apps(other.sessionToken).authorized.query()).toEqual([]);

    expect(await apps().revokeAccess.mutate({ applicationId: app.id })).toEqual({ applicationId: app.id, revoked: true });
    expect((await api.fetch('/transactions', { token: tokens.access_token })).status).toBe(401);
    expect((await apps().authorized.query()).find((a) => a.id === app.id)).toBeUndefined();
    const again = await api.fetch(`/oauth/authorize?${new URLSearchParams(params).toString()}`, {
      token: acme.sessionToken,
      redirect: 'manual',
    });
    expect((await again.json()).consent_required).toBe(true);

    const limited = await trpcAs(api, acme.sessionToken).apiKeys.upsert.mutate({
      name: 'limited',
      scopes: ['teams.write', 'transactions.read'],
    });
    const escalate = apps(limited.key).create.mutate({ name: 'x', redirectUris: [REDIRECT], scopes: ['apis.all'] });
    expect(await trpcError(escalate)).toMatchObject({ httpStatus: 403 });
  });

  it('revoking a refresh token ends the grant; deleting the application ends its tokens', async () => {
    const app = await registerApp({ name: 'Short-lived' });
    const grant = async () => {
      const url = await consent({
        client_id: app.client_id,
        redirect_uri: REDIRECT,
        response_type: 'code',
        scope: 'transactions.read',
        state: 's',
      });
      return exchangeCode(app, url.searchParams.get('code'));
    };
    const t = await grant();
    await api.fetch('/oauth/revoke', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: t.refresh_token, client_id: app.client_id, client_secret: app.client_secret! }),
    });
    expect((await api.fetch('/transactions', { token: t.access_token })).status).toBe(401);

    const t2 = await grant();
    expect((await api.fetch('/transactions', { token: t2.access_token })).status).toBe(200);
    await apps().delete.mutate({ id: app.id });
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
    const bad = await api.fetch(
      '/oauth/token',
      form({ grant_type: 'authorization_code', code: 'x', redirect_uri: REDIRECT, client_id: app.client_id, client_secret: 'wrong' }),
    );
    expect(bad.status).toBe(401);
    expect((await bad.json()).error).toBe('invalid_client');
    const grant = await api.fetch(
      '/oauth/token',
      form({ grant_type: 'password', client_id: app.client_id, client_secret: app.client_secret! }),
    );
    expect((await grant.json()).error).toBe('unsupported_grant_type');
    const json = await api.fetch('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'refresh_token',
        refresh_token: 'svc_refresh_token_nope',
        client_id: app.client_id,
        client_secret: app.client_secret,
      }),
    });
    expect(await json.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'Invalid refresh token',
      description: 'Invalid refresh token',
    });

    const url = await consent({
      client_id: app.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'transactions.read',
      state: 's',
    });
    const basic = Buffer.from(`${app.client_id}:${app.client_secret}`).toString('base64');
    const ok = await api.fetch(
      '/oauth/token',
      form(
        { grant_type: 'authorization_code', code: url.searchParams.get('code')!, redirect_uri: REDIRECT },
        { authorization: `Basic ${basic}` },
      ),
    );
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(await ok.json()).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
  });

  it('parses every request with the schema it documents; a problem is an RFC 6749 error', async () => {
    const app = await registerApp();
    const creds = { client_id: app.client_id, client_secret: app.client_secret! };
    const call = async (path: string, fields: Record<string, string>) => {
      const res = await api.fetch(path, form({ ...creds, ...fields }));
      return { status: res.status, body: (await res.json()) as unknown };
    };
    const rfc = (error: string, description: string) => ({
      status: 400,
      body: { error, error_description: description, description },
    });
    expect(await call('/oauth/token', {})).toEqual(rfc('invalid_request', 'grant_type is required'));
    expect(await call('/oauth/token', { grant_type: 'client_credentials' })).toEqual(
      rfc('unsupported_grant_type', 'grant_type client_credentials is not supported'),
    );
    expect(await call('/oauth/token', { grant_type: 'authorization_code', redirect_uri: REDIRECT })).toEqual(
      rfc('invalid_request', 'code is required'),
    );
    expect(await call('/oauth/token', { grant_type: 'authorization_code', code: 'x', redirect_uri: '' })).toEqual(
      rfc('invalid_request', 'redirect_uri is required'),
    );
    expect(await call('/oauth/token', { grant_type: 'refresh_token' })).toEqual(rfc('invalid_request', 'refresh_token is required'));
    expect(await call('/oauth/revoke', { token_type_hint: 'access_token' })).toEqual(rfc('invalid_request', 'token is required'));
    expect(await call('/oauth/revoke', { token: 'unknown', token_type_hint: 'something_else' })).toEqual({
      status: 200,
      body: { success: true },
    });

    const twice = await api.fetch('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `${new URLSearchParams({ ...creds, grant_type: 'refresh_token' }).toString()}&refresh_token=a&refresh_token=b`,
    });
    expect(await twice.json()).toMatchObject({ error: 'invalid_request', description: 'refresh_token given more than once' });

    const authorize = (q: string) => api.fetch(`/oauth/authorize?${q}`, { redirect: 'manual', token: acme.sessionToken });
    const noClient = await authorize(`redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&scope=transactions.read&state=s`);
    expect({ status: noClient.status, body: (await noClient.json()) as unknown }).toEqual(rfc('invalid_request', 'client_id is required'));
    const badChallenge = await authorize(
      `client_id=${app.client_id}&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&scope=transactions.read&state=s&code_challenge=short&code_challenge_method=S256`,
    );
    const location = new URL(badChallenge.headers.get('location')!);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      error: 'invalid_request',
      error_description: 'code_challenge must be BASE64URL(SHA256(code_verifier))',
      state: 's',
    });
  });

  it('revoke answers success for unknown tokens and 401 invalid_client for bad credentials', async () => {
    const app = await registerApp();
    const ok = await api.fetch('/oauth/revoke', form({ token: 'whatever', client_id: app.client_id, client_secret: app.client_secret! }));
    expect(await ok.json()).toEqual({ success: true });
    const bad = await api.fetch('/oauth/revoke', form({ token: 'whatever', client_id: app.client_id, client_secret: 'nope' }));
    expect(bad.status).toBe(401);
    expect((await bad.json()).error).toBe('invalid_client');
  });

  it('bounds brute force: repeated wrong secrets from one address get 429 in the envelope, the right secret still gets through', async () => {
    const app = await registerApp({ name: 'Target' });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await api.fetch(
        '/oauth/token',
        form({ grant_type: 'refresh_token', refresh_token: 'x', client_id: app.client_id, client_secret: `guess-${i}` }),
      );
      statuses.push(res.status);
      if (res.status === 429) {
        const body = await res.json();
        expect(body.error).toBe('Too Many Requests');
        expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
      }
    }
    expect(statuses.slice(0, 9).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(9)).toEqual([429, 429, 429]);
    // A correct secret is never refused because of failures: the grant itself is judged (this refresh token is bogus).
    const right = await api.fetch(
      '/oauth/token',
      form({ grant_type: 'refresh_token', refresh_token: 'x', client_id: app.client_id, client_secret: app.client_secret! }),
    );
    expect(right.status).toBe(400);
    expect((await right.json()).error).toBe('invalid_grant');
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
