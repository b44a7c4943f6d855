import { randomUUID } from 'node:crypto';
import { RESPONSE_HEADERS, type ResponseHeader } from '../../api/openapi-headers';
import { startTestApi, type TestApi, type TestResponse } from '../support/api';
import { insertDocument } from '../support/fixtures';
import { trpcAs } from '../support/trpc';
import { withTwoTeams } from '../support/two-teams';

/**
 * The response headers /openapi.json documents are the ones the server sends: real responses of
 * every kind (probe, success, replay, download, redirect, client errors, a 429) each carry every
 * header their documented response marks required, and none of ours that it does not list.
 */
const { ctx, send } = withTwoTeams();

type Documented = { headers?: Record<string, { $ref: string }> };
type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, Documented> }>>;
  components: { headers: Record<string, { required: boolean }> };
};
let doc: Doc;
beforeAll(async () => {
  doc = (await (await ctx.api.fetch('/openapi.json')).json()) as Doc;
});

const OURS = Object.keys(RESPONSE_HEADERS) as ResponseHeader[];
/** Every header of ours seen on a response, to show that each documented one is really sent somewhere. */
const seen = new Set<ResponseHeader>();

/** The documented operation a request reaches: a static segment beats a parameter, as the router decides. */
function documentedOperation(method: string, path: string) {
  const segments = path.split('?')[0].split('/');
  const candidates = Object.keys(doc.paths).filter((template) => {
    const parts = template.split('/');
    return parts.length === segments.length && parts.every((p, i) => p.startsWith('{') || p === segments[i]);
  });
  const specificity = (template: string) => template.split('/').filter((p) => !p.startsWith('{')).length;
  const template = candidates.sort((a, b) => specificity(b) - specificity(a))[0];
  expect({ path, template }).toEqual({ path, template: expect.any(String) });
  return doc.paths[template][method.toLowerCase()];
}

/** Checks one real response against the document, both ways. */
function expectDocumentedHeaders(method: string, path: string, res: TestResponse): void {
  const response = documentedOperation(method, path).responses[String(res.status)];
  expect({ method, path, status: res.status, documented: Boolean(response) }).toEqual({
    method,
    path,
    status: res.status,
    documented: true,
  });
  const listed = Object.keys(response.headers ?? {});
  const sent = OURS.filter((h) => res.headers.has(h));
  sent.forEach((h) => seen.add(h));
  const required = listed.filter((h) => doc.components.headers[RESPONSE_HEADERS[h as ResponseHeader].id].required);
  expect({ method, path, status: res.status, undocumented: sent.filter((h) => !listed.includes(h)) }).toEqual({
    method,
    path,
    status: res.status,
    undocumented: [],
  });
  expect({ method, path, status: res.status, missing: required.filter((h) => !res.headers.has(h)) }).toEqual({
    method,
    path,
    status: res.status,
    missing: [],
  });
  for (const h of listed) expect(response.headers![h].$ref).toBe(`#/components/headers/${RESPONSE_HEADERS[h as ResponseHeader].id}`);
}

describe('documented response headers', () => {
  it('a probe: the request id, and no rate limit fields', async () => {
    const res = await ctx.api.fetch('/livez');
    expect(res.status).toBe(200);
    expectDocumentedHeaders('GET', '/livez', res);
    expect(res.headers.has('ratelimit-limit')).toBe(false);
  });

  it('a read, its client errors, and the rate limit fields on each', async () => {
    const cases: [string, string | undefined, number][] = [
      ['/transactions', ctx.acme.sessionToken, 200],
      ['/transactions', undefined, 401],
      ['/transactions?pageSize=9999', ctx.acme.sessionToken, 400],
      [`/transactions/${randomUUID()}`, ctx.acme.sessionToken, 404],
    ];
    for (const [path, token, status] of cases) {
      const res = await ctx.api.fetch(path, { token });
      expect(res.status).toBe(status);
      expectDocumentedHeaders('GET', path, res);
      for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) expect(res.headers.get(h)).toMatch(/^\d+$/);
    }
  });

  it('a mutation with an Idempotency-Key: Idempotent-Replayed only on the replay', async () => {
    const body = { date: '2026-11-20', name: 'Printer paper', amount: -12.5, currency: 'EUR' };
    const key = { 'idempotency-key': randomUUID() };
    const first = await send('POST', '/transactions', ctx.acme.sessionToken, body, key);
    expect(first.status).toBe(201);
    expect(first.headers.has('idempotent-replayed')).toBe(false);
    expectDocumentedHeaders('POST', '/transactions', first);
    const again = await send('POST', '/transactions', ctx.acme.sessionToken, body, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expectDocumentedHeaders('POST', '/transactions', again);
    const reused = await send('POST', '/transactions', ctx.acme.sessionToken, { ...body, amount: -13 }, key);
    expect(reused.status).toBe(422);
    expectDocumentedHeaders('POST', '/transactions', reused);
  });

  it('a download names its file', async () => {
    const name = 'Lease – Müller.txt';
    const id = await insertDocument(ctx.tdb.db, ctx.acme.team.id, { name, content: 'Office lease' });
    await ctx.api.deps.storage.put(`${ctx.acme.team.id}/${name}`, Buffer.from('Office lease'));
    const res = await ctx.api.fetch(`/documents/${id}/file`, { token: ctx.acme.sessionToken });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="Lease _ Muller.txt"; filename\*=UTF-8''Lease%20%E2%80%93%20M%C3%BCller.txt$/,
    );
    expectDocumentedHeaders('GET', `/documents/${id}/file`, res);
  });

  it('OAuth: metadata, a redirect with its Location, client errors, and the session cookie', async () => {
    const app = await trpcAs(ctx.api, ctx.acme.sessionToken).oauthApplications.create.mutate({
      name: 'Header Check',
      redirectUris: ['https://client.example.org/callback'],
      scopes: ['transactions.read'],
    });
    const metadata = await ctx.api.fetch('/.well-known/oauth-authorization-server');
    expect(metadata.status).toBe(200);
    expectDocumentedHeaders('GET', '/.well-known/oauth-authorization-server', metadata);

    // A trusted client and redirect URI with a request it cannot make: the error goes back to the client.
    const query = new URLSearchParams({
      response_type: 'token',
      client_id: app.client_id,
      redirect_uri: 'https://client.example.org/callback',
      state: 's1',
    });
    const redirected = await ctx.api.fetch(`/oauth/authorize?${query.toString()}`, { redirect: 'manual' });
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get('location')).toMatch(/^https:\/\/client\.example\.org\/callback\?error=/);
    expectDocumentedHeaders('GET', '/oauth/authorize', redirected);

    const token = await ctx.api.fetch('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', client_id: app.client_id, client_secret: 'wrong', code: 'x' }),
    });
    expect(token.status).toBe(401);
    expectDocumentedHeaders('POST', '/oauth/token', token);

    const signIn = await ctx.api.fetch('/auth/session', { method: 'POST', token: ctx.acme.sessionToken });
    expect(signIn.status).toBe(200);
    expectDocumentedHeaders('POST', '/auth/session', signIn);
    const signOut = await ctx.api.fetch('/auth/session', { method: 'DELETE' });
    expect(signOut.status).toBe(204);
    expectDocumentedHeaders('DELETE', '/auth/session', signOut);
  });

  it('over the budget: 429 with Retry-After and the rate limit fields', async () => {
    let limited: TestApi | undefined;
    try {
      limited = await startTestApi(ctx.tdb.db, { env: { RATE_LIMIT_PER_MINUTE: '2' } });
      const get = () => limited!.fetch('/transactions', { token: ctx.other.sessionToken });
      expect((await get()).status).toBe(200);
      expect((await get()).status).toBe(200);
      const over = await get();
      expect(over.status).toBe(429);
      expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(over.headers.get('ratelimit-remaining')).toBe('0');
      expectDocumentedHeaders('GET', '/transactions', over);
    } finally {
      await limited?.stop();
    }
  });

  it('every documented header was sent by some response above', () => {
    expect([...seen].sort()).toEqual([...OURS].sort());
  });
});
