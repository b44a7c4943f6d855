import { randomUUID } from 'node:crypto';
import { restDoors } from '../support/doors';
import { trpcAs, trpcError } from '../support/trpc';
import { withTwoTeams } from '../support/two-teams';

const { ctx } = withTwoTeams();

// Every REST operation that takes a JSON body, with any path parameter filled with a fresh id.
const writes = restDoors()
  .filter((r) => r.body)
  .map((r) => ({ method: r.method, path: r.path.replace(/:(\w+)/g, () => randomUUID()) }));

const raw = (method: string, path: string, body: string, headers: Record<string, string>) =>
  ctx.api.fetch(path, { method, body, headers: { 'content-type': 'application/json', ...headers } });

describe('hostile request bodies on every REST write route', () => {
  it('has write routes to probe', () => {
    expect(writes.length).toBeGreaterThan(20);
  });

  it('answers malformed JSON with 400 "Invalid JSON body", never 500', async () => {
    for (const { method, path } of writes) {
      const res = await raw(method, path, '{"a":', { authorization: `Bearer ${ctx.acme.sessionToken}` });
      expect({ route: `${method} ${path}`, status: res.status, body: await res.json() }).toMatchObject({
        status: 400,
        body: { error: 'Bad Request', description: 'Invalid JSON body' },
      });
    }
  });

  it('answers JSON that is not an object with 400 and details', async () => {
    for (const { method, path } of writes) {
      for (const body of ['"x"', '123', 'null', '[]']) {
        const res = await raw(method, path, body, { authorization: `Bearer ${ctx.acme.sessionToken}` });
        const json = await res.json();
        expect({ route: `${method} ${path}`, body, status: res.status }).toEqual({ route: `${method} ${path}`, body, status: 400 });
        expect(json.details.length).toBeGreaterThan(0);
      }
    }
  });

  it('refuses a body that is not JSON with 415', async () => {
    for (const { method, path } of writes) {
      const res = await raw(method, path, 'name=x', { authorization: `Bearer ${ctx.acme.sessionToken}`, 'content-type': 'text/plain' });
      expect({ route: `${method} ${path}`, status: res.status }).toEqual({ route: `${method} ${path}`, status: 415 });
      expect((await res.json()).error).toBe('Unsupported Media Type');
    }
  });

  it('refuses a lone surrogate (JSON can carry one, UTF-8 and jsonb cannot), naming the field', async () => {
    const res = await raw('POST', '/tags', '{"name":"a\\ud800b"}', { authorization: `Bearer ${ctx.acme.sessionToken}` });
    expect(res.status).toBe(400);
    expect((await res.json()).details).toEqual([{ field: 'name', message: 'must be well-formed Unicode (a lone surrogate)' }]);
  });

  it('refuses NUL characters anywhere in a body, naming the field', async () => {
    const res = await raw('POST', '/tags', JSON.stringify({ name: 'a\u0000b' }), { authorization: `Bearer ${ctx.acme.sessionToken}` });
    expect(res.status).toBe(400);
    expect((await res.json()).details).toEqual([{ field: 'name', message: 'must not contain NUL characters' }]);
    const listed = await ctx.api.fetch('/tags', { token: ctx.acme.sessionToken });
    expect((await listed.json()).data).toEqual([]);
  });

  it('authenticates before reading a body: an anonymous client gets 401 whatever it sends', async () => {
    for (const { method, path } of writes) {
      const res = await raw(method, path, '{"a":', {});
      expect({ route: `${method} ${path}`, status: res.status }).toEqual({ route: `${method} ${path}`, status: 401 });
    }
  });

  it('refuses a body over 1 MB with 413 in the envelope', async () => {
    const res = await raw('POST', '/tags', JSON.stringify({ name: 'x'.repeat(1_100_000) }), {
      authorization: `Bearer ${ctx.acme.sessionToken}`,
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toBe('Payload Too Large');
  });
});

describe('values the database cannot hold', () => {
  const json = (method: string, path: string, body: unknown) =>
    ctx.api.fetch(path, {
      method,
      token: ctx.acme.sessionToken,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('bounds amounts and dates on every write path, naming the field', async () => {
    const created = await json('POST', '/transactions', { date: '2026-03-01', name: 'Cash', amount: -5, currency: 'EUR' });
    const createdBody = await created.json();
    expect({ status: created.status, createdBody }).toMatchObject({ status: 201 });
    const { id } = createdBody.data;
    for (const [body, field] of [
      [{ amount: 1e15 }, 'amount'],
      [{ amount: -1e308 }, 'amount'],
      [{ taxAmount: 1e16 }, 'taxAmount'],
      [{ date: '0000-01-01' }, 'date'],
    ] as const) {
      const res = await json('PATCH', `/transactions/${id}`, body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect((await res.json()).details[0].field).toBe(field);
    }
    expect((await (await ctx.api.fetch(`/transactions/${id}`, { token: ctx.acme.sessionToken })).json()).data).toMatchObject({
      amount: -5,
      date: '2026-03-01',
    });
    const early = await json('POST', '/transactions', { date: '0000-12-31', name: 'Ancient', amount: -1, currency: 'EUR' });
    expect(early.status).toBe(400);
  });

  it('refuses NUL characters in tRPC input too', async () => {
    const err = await trpcError(trpcAs(ctx.api, ctx.acme.sessionToken).tags.create.mutate({ name: 'bad\u0000tag' }));
    expect(err).toMatchObject({ httpStatus: 400, details: [{ field: 'name', message: 'must not contain NUL characters' }] });
  });
});

describe('security headers', () => {
  it('forbid MIME sniffing everywhere and caching of credentialed responses', async () => {
    const anonymous = await ctx.api.fetch('/health');
    expect(anonymous.headers.get('x-content-type-options')).toBe('nosniff');
    const authed = await ctx.api.fetch('/transactions', { token: ctx.acme.sessionToken });
    expect(authed.headers.get('x-content-type-options')).toBe('nosniff');
    expect(authed.headers.get('cache-control')).toBe('no-store');
    const trpc = await ctx.api.fetch('/trpc/transactions.get', { token: ctx.acme.sessionToken });
    expect(trpc.headers.get('cache-control')).toBe('no-store');
    const token = await ctx.api.fetch('/oauth/token', { method: 'POST' });
    expect(token.headers.get('cache-control')).toBe('no-store');
  });

  it('keep every HTML page out of frames', async () => {
    const page = await ctx.api.fetch('/');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
  });
});
