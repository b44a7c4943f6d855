import { createHash, randomBytes } from 'node:crypto';
import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { startRegistrationSweep } from '../../api/outbox/registration-sweep';
import { ALL_SCOPES } from '../../shared/domain/auth/scopes';
import { withinTeam } from '../../shared/db/team-wall';
import { startTestApi, type TestApi } from '../support/api';
import { oauthAccessToken } from '../support/oauth';
import { trpcAs, trpcError } from '../support/trpc';
import { withTwoTeams } from '../support/two-teams';

// Every test here registers from 127.0.0.1; the limit has its own test, from its own address.
const { ctx, send } = withTwoTeams({ env: { OAUTH_REGISTRATIONS_PER_HOUR: '1000' } });

const LOOPBACK_REDIRECT = 'http://127.0.0.1:8765/callback';
const HTTPS_REDIRECT = 'https://agent.example.com/callback';

const register = (metadata: unknown, api: TestApi = ctx.api, headers: Record<string, string> = {}) =>
  api.fetch('/oauth/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(metadata),
  });

const authorizeQuery = (params: Record<string, string>) => new URLSearchParams(params).toString();

const registeredCount = async () => Number((await ctx.tdb.db('oauth_applications').count({ n: '*' }).first())?.n);

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/** A public client registered over HTTP, as an agent does. */
async function registerPublicClient(api: TestApi = ctx.api, extra: Record<string, unknown> = {}) {
  const res = await register(
    { client_name: 'Agent', redirect_uris: [LOOPBACK_REDIRECT], token_endpoint_auth_method: 'none', ...extra },
    api,
  );
  expect(res.status).toBe(201);
  return (await res.json()) as { client_id: string };
}

/** The user's consent (Bearer session token, JSON), then the code exchanged with PKCE: the client's tokens. */
async function consentAndExchange(clientId: string, sessionToken = ctx.acme.sessionToken, api: TestApi = ctx.api) {
  const { verifier, challenge } = pkce();
  const consent = await sendJson(api, '/oauth/authorize', sessionToken, {
    client_id: clientId,
    redirect_uri: LOOPBACK_REDIRECT,
    response_type: 'code',
    scope: 'transactions.read',
    state: 'st',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    decision: 'allow',
  });
  expect(consent.status).toBe(200);
  const code = new URL((await consent.json()).redirect_url).searchParams.get('code');
  const token = await api.fetch('/oauth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: code!,
      redirect_uri: LOOPBACK_REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
    }).toString(),
  });
  expect(token.status).toBe(200);
  return (await token.json()) as { access_token: string; refresh_token: string };
}

const sendJson = (api: TestApi, path: string, token: string, body: unknown) =>
  api.fetch(path, { method: 'POST', token, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/**
 * An agent as the official MCP SDK drives one: everything it knows is kept here; the browser step is
 * ours. The SDK sends `state` only when the provider makes one, and the spec makes it required.
 */
class AgentProvider implements OAuthClientProvider {
  readonly stateValue = randomBytes(16).toString('base64url');
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier?: string;
  authorizationUrl?: URL;
  get redirectUrl() {
    return LOOPBACK_REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'SDK agent',
      redirect_uris: [LOOPBACK_REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state() {
    return this.stateValue;
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier!;
  }
}

describe('discovery', () => {
  it('publishes RFC 8414 metadata with the registration endpoint, and the RFC 9728 metadata names this server', async () => {
    const res = await ctx.api.fetch('/.well-known/oauth-authorization-server');
    expect(res.status).toBe(200);
    const meta = await res.json();
    const base = ctx.api.url;
    expect(meta).toEqual({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      revocation_endpoint: `${base}/oauth/revoke`,
      registration_endpoint: `${base}/oauth/register`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      scopes_supported: [...ALL_SCOPES],
      service_documentation: `${base}/`,
    });
    const resource = await (await ctx.api.fetch('/.well-known/oauth-protected-resource/mcp')).json();
    expect(resource.authorization_servers).toEqual([meta.issuer]);
  });
});

describe('an agent given only the server URL (the official MCP SDK)', () => {
  it('discovers, registers itself, gets a token through PKCE and the consent page, and calls the API and MCP', async () => {
    const agent = new AgentProvider();

    const serverUrl = `${ctx.api.url}/mcp`;
    expect(await auth(agent, { serverUrl, scope: 'transactions.read reports.read' })).toBe('REDIRECT');

    // It registered as a public client: no secret, and the server keeps no team for it.
    expect(agent.info).toMatchObject({ client_name: 'SDK agent', redirect_uris: [LOOPBACK_REDIRECT], token_endpoint_auth_method: 'none' });
    expect(agent.info).not.toHaveProperty('client_secret');
    const row = await ctx.tdb.db('oauth_applications').where({ clientId: agent.info!.client_id }).first();
    expect(row).toMatchObject({ teamId: null, selfRegistered: true, isPublic: true, clientSecretHash: null });
    expect(row.registrationExpiresAt).toBeInstanceOf(Date);

    // The SDK's authorization URL carries PKCE S256; the person sees a consent page that says the client named itself.
    const url = agent.authorizationUrl!;
    expect(url.origin + url.pathname).toBe(`${ctx.api.url}/oauth/authorize`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toBe(agent.stateValue);
    const page = await ctx.api.fetch(url.pathname + url.search, {
      headers: { cookie: `svc_session=${ctx.acme.sessionToken}`, accept: 'text/html' },
    });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<strong>SDK agent</strong> wants access to <strong>Acme</strong>');
    expect(html).toContain('This application registered itself');
    expect(html).toContain('<strong>127.0.0.1:8765</strong>');

    const consent = await sendJson(ctx.api, '/oauth/authorize', ctx.acme.sessionToken, {
      ...Object.fromEntries(url.searchParams),
      decision: 'allow',
    });
    expect(consent.status).toBe(200);
    const landed = new URL((await consent.json()).redirect_url);
    expect(landed.origin + landed.pathname).toBe(LOOPBACK_REDIRECT);
    expect(landed.searchParams.get('state')).toBe(agent.stateValue);
    const code = landed.searchParams.get('code')!;
    expect(await auth(agent, { serverUrl, authorizationCode: code })).toBe('AUTHORIZED');
    const token = agent.saved!.access_token;
    expect(token).toMatch(/^svc_access_token_/);
    expect(agent.saved!.scope).toBe('transactions.read reports.read');

    // The first consent keeps the registration for good.
    expect((await ctx.tdb.db('oauth_applications').where({ id: row.id }).first()).registrationExpiresAt).toBeNull();

    expect((await ctx.api.fetch('/transactions', { token })).status).toBe(200);
    expect((await ctx.api.fetch('/invoices', { token })).status).toBe(403);
    const mcp = new Client({ name: 'sdk-agent', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(serverUrl), { authProvider: agent }));
    try {
      const { tools } = await mcp.listTools();
      expect(tools.map((t) => t.name)).toContain('spending');
    } finally {
      await mcp.close();
    }
  });

  it('registers a confidential client with a secret, shown once and stored hashed; it too must use PKCE', async () => {
    const res = await register({ redirect_uris: [HTTPS_REDIRECT], scope: 'transactions.read', client_uri: 'https://agent.example.com' });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.json();
    expect(body).toEqual({
      client_id: expect.stringMatching(/^svc_client_[0-9a-f]{32}$/),
      client_id_issued_at: expect.any(Number),
      client_secret: expect.stringMatching(/^svc_secret_/),
      client_secret_expires_at: 0,
      client_name: 'agent.example.com',
      redirect_uris: [HTTPS_REDIRECT],
      token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      scope: 'transactions.read',
      client_uri: 'https://agent.example.com',
    });
    expect(Math.abs(body.client_id_issued_at - Date.now() / 1000)).toBeLessThan(60);
    const row = await ctx.tdb.db('oauth_applications').where({ clientId: body.client_id }).first();
    expect(JSON.stringify(row)).not.toContain(body.client_secret);
    expect(row).toMatchObject({ isPublic: false, selfRegistered: true, scopes: ['transactions.read'] });

    const withoutPkce = await ctx.api.fetch(
      `/oauth/authorize?${authorizeQuery({ client_id: body.client_id, redirect_uri: HTTPS_REDIRECT, response_type: 'code', scope: 'transactions.read', state: 's' })}`,
      { token: ctx.acme.sessionToken, redirect: 'manual' },
    );
    expect(withoutPkce.status).toBe(302);
    const location = new URL(withoutPkce.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('state')).toBe('s');
    // The scopes it registered bound what it may ask for.
    const { challenge } = pkce();
    const wider = await ctx.api.fetch(
      `/oauth/authorize?${authorizeQuery({ client_id: body.client_id, redirect_uri: HTTPS_REDIRECT, response_type: 'code', scope: 'invoices.read', state: 's', code_challenge: challenge, code_challenge_method: 'S256' })}`,
      { token: ctx.acme.sessionToken, redirect: 'manual' },
    );
    expect(new URL(wider.headers.get('location')!).searchParams.get('error')).toBe('invalid_scope');
  });
});

describe('hostile registrations', () => {
  const refusedRedirects = [
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'https://agent.example.com/callback#frag',
    'https://agent.example.com/callback#',
    'http://agent.example.com/callback',
    'http://127.0.0.1.evil.example/callback',
    'http://user:pass@localhost/callback',
    'https://*.example.com/callback',
    'ftp://agent.example.com/callback',
    'file:///etc/passwd',
    'vbscript:msgbox(1)',
    'com.example.agent:/callback',
    'not a url',
  ];

  it.each(refusedRedirects)('refuses the redirect URI %s with 400 invalid_redirect_uri and stores nothing', async (uri) => {
    const before = await registeredCount();
    const res = await register({ redirect_uris: [HTTPS_REDIRECT, uri], token_endpoint_auth_method: 'none' });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toEqual({
      error: 'invalid_redirect_uri',
      error_description: expect.stringMatching(/^redirect_uris\.1: must be https/),
      description: body.error_description,
    });
    expect(await registeredCount()).toBe(before);
  });

  it.each([
    [{}, 'invalid_redirect_uri', /^redirect_uris is required/],
    [{ redirect_uris: [] }, 'invalid_redirect_uri', /at least one/],
    [{ redirect_uris: HTTPS_REDIRECT }, 'invalid_redirect_uri', /^redirect_uris is required/],
    [
      { redirect_uris: [HTTPS_REDIRECT], token_endpoint_auth_method: 'private_key_jwt' },
      'invalid_client_metadata',
      /token_endpoint_auth_method must be one of/,
    ],
    [
      { redirect_uris: [HTTPS_REDIRECT], grant_types: ['client_credentials'] },
      'invalid_client_metadata',
      /grant_types\.0: grant_types may hold only/,
    ],
    [{ redirect_uris: [HTTPS_REDIRECT], grant_types: ['refresh_token'] }, 'invalid_client_metadata', /must include authorization_code/],
    [{ redirect_uris: [HTTPS_REDIRECT], response_types: ['token'] }, 'invalid_client_metadata', /response_types may hold only code/],
    [{ redirect_uris: [HTTPS_REDIRECT], scope: 'transactions.read admin.all' }, 'invalid_client_metadata', /unknown scope/],
    [{ redirect_uris: [HTTPS_REDIRECT], logo_uri: 'javascript:alert(1)' }, 'invalid_client_metadata', /logo_uri must be an https URL/],
    [{ redirect_uris: [HTTPS_REDIRECT], client_name: 42 }, 'invalid_client_metadata', /^client_name: /],
    [[HTTPS_REDIRECT], 'invalid_client_metadata', /JSON object/],
  ])('refuses metadata %j with 400 %s and stores nothing', async (metadata, error, description) => {
    const before = await registeredCount();
    const res = await register(metadata);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error).toBe(error);
    expect(body.error_description).toMatch(description);
    expect(await registeredCount()).toBe(before);
  });

  it('takes JSON only, and ignores metadata it does not know', async () => {
    const form = await ctx.api.fetch('/oauth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `redirect_uris=${encodeURIComponent(HTTPS_REDIRECT)}`,
    });
    expect(form.status).toBe(415);
    expect((await form.json()).error).toBe('invalid_client_metadata');

    const res = await register({
      redirect_uris: [HTTPS_REDIRECT],
      token_endpoint_auth_method: 'none',
      software_id: 'x',
      jwks_uri: 'https://x',
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).not.toHaveProperty('software_id');
    expect(body).not.toHaveProperty('jwks_uri');
  });

  it('refuses an authorization whose redirect URI the client did not register, without redirecting', async () => {
    const { client_id } = await registerPublicClient();
    const { challenge } = pkce();
    for (const redirect of ['http://127.0.0.1:9999/callback', 'https://evil.example/callback', `${LOOPBACK_REDIRECT}/`]) {
      const res = await ctx.api.fetch(
        `/oauth/authorize?${authorizeQuery({ client_id, redirect_uri: redirect, response_type: 'code', scope: 'transactions.read', state: 's', code_challenge: challenge, code_challenge_method: 'S256' })}`,
        { token: ctx.acme.sessionToken, redirect: 'manual' },
      );
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect((await res.json()).error).toBe('invalid_request');
    }
    const consent = await sendJson(ctx.api, '/oauth/authorize', ctx.acme.sessionToken, {
      client_id,
      redirect_uri: 'https://evil.example/callback',
      response_type: 'code',
      scope: 'transactions.read',
      state: 's',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      decision: 'allow',
    });
    expect(consent.status).toBe(400);
    const { id } = await ctx.tdb.db('oauth_applications').where({ clientId: client_id }).first();
    expect(await ctx.tdb.db('oauth_consents').where({ applicationId: id }).first()).toBeUndefined();
    expect(await ctx.tdb.db('oauth_authorization_codes').where({ applicationId: id }).first()).toBeUndefined();
  });

  it('limits registrations per address: 429 with Retry-After past the budget, other addresses unaffected', async () => {
    const limited = await startTestApi(ctx.tdb.db, { env: { OAUTH_REGISTRATIONS_PER_HOUR: '3', TRUST_PROXY: 'true' } });
    try {
      const from = (ip: string) => ({ 'x-forwarded-for': ip });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await register({ redirect_uris: ['javascript:x'] }, limited, from('203.0.113.7'))).status);
      // Refused registrations count too: probing the rules costs the same budget.
      expect(statuses).toEqual([400, 400, 400]);
      const before = await registeredCount();
      const over = await register({ redirect_uris: [HTTPS_REDIRECT], token_endpoint_auth_method: 'none' }, limited, from('203.0.113.7'));
      expect(over.status).toBe(429);
      expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await over.json()).toEqual({
        error: 'Too Many Requests',
        description: expect.stringContaining('At most 3 client registrations per hour'),
      });
      expect(await registeredCount()).toBe(before);
      const elsewhere = await register(
        { redirect_uris: [HTTPS_REDIRECT], token_endpoint_auth_method: 'none' },
        limited,
        from('203.0.113.8'),
      );
      expect(elsewhere.status).toBe(201);
    } finally {
      await limited.stop();
    }
  });
});

describe('who sees a self-registered client', () => {
  it('nobody before a consent; after it, the consenting user in that team only, who can revoke it and its tokens', async () => {
    const { client_id } = await registerPublicClient(ctx.api, { client_name: 'Visible agent' });
    const { id } = await ctx.tdb.db('oauth_applications').where({ clientId: client_id }).first();
    const acmeApps = trpcAs(ctx.api, ctx.acme.sessionToken).oauthApplications;
    const otherApps = trpcAs(ctx.api, ctx.other.sessionToken).oauthApplications;
    const invisible = async () => {
      expect((await acmeApps.get.query()).map((a) => a.id)).not.toContain(id);
      expect((await otherApps.get.query()).map((a) => a.id)).not.toContain(id);
      expect(await trpcError(acmeApps.getById.query({ id }))).toMatchObject({ httpStatus: 404 });
      expect(await trpcError(otherApps.getById.query({ id }))).toMatchObject({ httpStatus: 404 });
      expect((await otherApps.authorized.query()).map((a) => a.id)).not.toContain(id);
      // The team wall itself hides it from the other team.
      expect(await withinTeam(ctx.other.team.id, () => ctx.tdb.db('oauth_applications').where({ id }).first())).toBeUndefined();
    };
    await invisible();
    expect((await acmeApps.authorized.query()).map((a) => a.id)).not.toContain(id);
    expect(await withinTeam(ctx.acme.team.id, () => ctx.tdb.db('oauth_applications').where({ id }).first())).toBeUndefined();

    const tokens = await consentAndExchange(client_id);
    expect((await ctx.api.fetch('/transactions', { token: tokens.access_token })).status).toBe(200);

    // Listed to the consenting team over both doors; still owned by nobody, so not the team's to edit or delete.
    const rest = await ctx.api.fetch('/oauth-applications/authorized', { token: ctx.acme.sessionToken });
    expect((await rest.json()).data).toContainEqual({
      id,
      name: 'Visible agent',
      logoUrl: null,
      website: null,
      selfRegistered: true,
      scopes: ['transactions.read'],
      grantedAt: expect.any(String),
    });
    expect((await acmeApps.authorized.query()).find((a) => a.id === id)).toMatchObject({ selfRegistered: true });
    expect((await send('DELETE', `/oauth-applications/${id}`, ctx.acme.sessionToken)).status).toBe(404);
    expect((await send('PATCH', `/oauth-applications/${id}`, ctx.acme.sessionToken, { name: 'Mine now' })).status).toBe(404);
    expect((await ctx.tdb.db('oauth_applications').where({ id }).first()).name).toBe('Visible agent');
    await invisible();

    // Revoked by the team member over REST: the access token stops at once, the refresh token is dead.
    const revoked = await send('DELETE', `/oauth-applications/authorized/${id}`, ctx.acme.sessionToken);
    expect(revoked.status).toBe(200);
    expect((await revoked.json()).data).toEqual({ applicationId: id, revoked: true });
    expect((await ctx.api.fetch('/transactions', { token: tokens.access_token })).status).toBe(401);
    const refresh = await ctx.api.fetch('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id }),
    });
    expect(refresh.status).toBe(400);
    expect((await refresh.json()).error).toBe('invalid_grant');
    expect((await acmeApps.authorized.query()).map((a) => a.id)).not.toContain(id);
  });

  it("lists another team's application the user granted, which the team wall used to hide", async () => {
    const { access_token } = await oauthAccessToken(ctx.api, ctx.other.sessionToken, ctx.acme.sessionToken, ['transactions.read']);
    const granted = (await trpcAs(ctx.api, ctx.acme.sessionToken).oauthApplications.authorized.query()).find((a) => a.name === 'Agent');
    expect(granted).toMatchObject({ selfRegistered: false, scopes: ['transactions.read'] });
    await trpcAs(ctx.api, ctx.acme.sessionToken).oauthApplications.revokeAccess.mutate({ applicationId: granted!.id });
    expect((await ctx.api.fetch('/transactions', { token: access_token })).status).toBe(401);
  });
});

describe('registrations nobody consents to', () => {
  it('expire: refused once past their time, then swept; a consented one stays and its token works', async () => {
    const shortLived = await startTestApi(ctx.tdb.db, { env: { OAUTH_REGISTRATION_TTL: '2s', OAUTH_REGISTRATIONS_PER_HOUR: '1000' } });
    const sweep = startRegistrationSweep(shortLived.deps, { intervalMs: 3_600_000 });
    try {
      const unused = await registerPublicClient(shortLived);
      const used = await registerPublicClient(shortLived);
      const tokens = await consentAndExchange(used.client_id, ctx.acme.sessionToken, shortLived);
      await new Promise((r) => setTimeout(r, 2100));

      // Past its time and not yet swept, it is already unknown.
      const { challenge } = pkce();
      const late = await shortLived.fetch(
        `/oauth/authorize?${authorizeQuery({ client_id: unused.client_id, redirect_uri: LOOPBACK_REDIRECT, response_type: 'code', scope: 'transactions.read', state: 's', code_challenge: challenge, code_challenge_method: 'S256' })}`,
        { token: ctx.acme.sessionToken, redirect: 'manual' },
      );
      expect(late.status).toBe(400);
      expect((await late.json()).error).toBe('invalid_client');

      expect(await sweep.runOnce()).toBe(1);
      expect(await ctx.tdb.db('oauth_applications').where({ clientId: unused.client_id }).first()).toBeUndefined();
      expect(await ctx.tdb.db('oauth_applications').where({ clientId: used.client_id }).first()).toMatchObject({
        registrationExpiresAt: null,
      });
      expect((await shortLived.fetch('/transactions', { token: tokens.access_token })).status).toBe(200);
      expect(await sweep.runOnce()).toBe(0);
    } finally {
      await sweep.stop();
      await shortLived.stop();
    }
  });
});
