import { randomUUID } from 'node:crypto';
import { restDoors } from '../support/doors';
import { deepJson } from '../support/fuzz';
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

  it('refuses JSON nested deeper than 64 levels with 400 in the envelope, never a stack overflow', async () => {
    for (const { method, path } of writes) {
      const res = await raw(method, path, `{"name":${deepJson(100_000)}}`, { authorization: `Bearer ${ctx.acme.sessionToken}` });
      expect({ route: `${method} ${path}`, status: res.status, body: await res.json() }).toMatchObject({
        status: 400,
        body: {
          error: 'Bad Request',
          description: 'Invalid JSON body: nested deeper than 64 levels',
          details: [{ field: '(root)', message: 'arrays and objects nest at most 64 levels deep' }],
        },
      });
    }
    // Up to the limit a body is read, and the route's own validation answers.
    const res = await raw('POST', '/tags', `{"name":${deepJson(63)}}`, { authorization: `Bearer ${ctx.acme.sessionToken}` });
    expect({ status: res.status, field: (await res.json()).details[0].field }).toEqual({ status: 400, field: 'name' });
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

describe('hostile tRPC input', () => {
  it('refuses input nested deeper than 64 levels as BAD_REQUEST with the envelope, never a stack overflow', async () => {
    const res = await ctx.api.fetch('/trpc/tags.create', {
      method: 'POST',
      token: ctx.acme.sessionToken,
      headers: { 'content-type': 'application/json' },
      body: `{"name":"deep","z":${deepJson(100_000)}}`,
    });
    expect({ status: res.status, data: (await res.json()).error.data }).toMatchObject({
      status: 400,
      data: { code: 'BAD_REQUEST', error: 'Bad Request', description: 'Invalid input: nested deeper than 64 levels' },
    });
  });
});

describe('unknown keys at any depth', () => {
  const misspelt = {
    currency: 'EUR',
    lineItems: [
      { name: 'Work', price: 100, vatRate: 19 },
      { name: 'Travel', price: 50, vat: 19 },
    ],
  };

  it('refuses a misspelt line item field over REST, naming it, and creates no invoice', async () => {
    const res = await raw('POST', '/invoices', JSON.stringify(misspelt), { authorization: `Bearer ${ctx.acme.sessionToken}` });
    expect({ status: res.status, details: (await res.json()).details }).toEqual({
      status: 400,
      details: [{ field: 'lineItems.1.vat', message: 'Unrecognized key' }],
    });
    expect(await ctx.tdb.db('invoices').where({ teamId: ctx.acme.team.id })).toEqual([]);
  });

  it('refuses it over tRPC too, and an unknown key beside a mutation’s own fields', async () => {
    const trpc = trpcAs(ctx.api, ctx.acme.sessionToken);
    expect(await trpcError(trpc.invoices.create.mutate(misspelt as never))).toMatchObject({
      httpStatus: 400,
      details: [{ field: 'lineItems.1.vat', message: 'Unrecognized key' }],
    });
    // `dta` for `data`: without the check the misspelt options were dropped and the action ran with none.
    expect(await trpcError(trpc.invoices.markPaid.mutate({ id: randomUUID(), dta: { paymentReference: 'x' } } as never))).toMatchObject({
      httpStatus: 400,
      details: [{ field: 'dta', message: 'Unrecognized key' }],
    });
    expect(await ctx.tdb.db('invoices').where({ teamId: ctx.acme.team.id })).toEqual([]);
  });
});

describe('hostile bodies on the form endpoints (OAuth and the browser session)', () => {
  const post = (path: string, type: string, body: string, headers: Record<string, string> = {}) =>
    ctx.api.fetch(path, { method: 'POST', body, headers: { 'content-type': type, ...headers } });
  const invalidRequest = (description: string) => ({
    status: 400,
    body: { error: 'invalid_request', error_description: description, description },
  });

  it('answers every body it cannot read with 400 invalid_request in the OAuth shape, never 500', async () => {
    const notAnObject = 'The JSON body must be an object of parameters';
    const cases: [type: string, body: string, description: string][] = [
      ['application/json', '{"client_id":', 'Invalid JSON body'],
      ['application/json', '"client_id"', notAnObject],
      ['application/json', 'null', notAnObject],
      ['application/json', '[1,2]', notAnObject],
      ['application/json', deepJson(100_000), 'Invalid JSON body: nested deeper than 64 levels'],
      ['application/json', '{"client_id":"a\\u0000b"}', 'Invalid request body: NUL characters and lone surrogates are not allowed'],
      [
        'application/x-www-form-urlencoded',
        'client_id=a%00b',
        'Invalid form parameters: NUL characters and lone surrogates are not allowed',
      ],
      ['application/x-www-form-urlencoded', 'client_id=%E0%A4%A', 'Invalid form body: a malformed percent-escape'],
      ['text/plain', 'client_id=a', 'Send the parameters as `application/x-www-form-urlencoded` or as a JSON object'],
      [
        'multipart/form-data; boundary=x',
        '--x\r\nbroken',
        'Send the parameters as `application/x-www-form-urlencoded` or as a JSON object',
      ],
    ];
    for (const path of ['/oauth/token', '/oauth/revoke', '/oauth/authorize']) {
      for (const [type, body, description] of cases) {
        const res = await post(path, type, body, path === '/oauth/authorize' ? { authorization: `Bearer ${ctx.acme.sessionToken}` } : {});
        expect({ path, type, body: body.slice(0, 40), answer: { status: res.status, body: await res.json() } }).toEqual({
          path,
          type,
          body: body.slice(0, 40),
          answer: invalidRequest(description),
        });
      }
    }
  });

  it('still takes a proto-named key as a plain parameter', async () => {
    const res = await post('/oauth/token', 'application/json', '{"__proto__":{"x":1},"grant_type":"password"}');
    expect({ status: res.status, error: (await res.json()).error }).toEqual({ status: 401, error: 'invalid_client' });
  });

  it('starts a browser session whatever body comes with the bearer token: it reads none', async () => {
    for (const body of ['{"a":', 'null', deepJson(100_000)]) {
      const res = await post('/auth/session', 'application/json', body, { authorization: `Bearer ${ctx.acme.sessionToken}` });
      expect({ body: body.slice(0, 20), status: res.status }).toEqual({ body: body.slice(0, 20), status: 200 });
    }
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
