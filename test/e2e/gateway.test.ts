import { freePort } from '../../scripts/lib/ports';
import { createDb } from '../../shared/db/knex';
import { createTemporalGateway } from '../../shared/temporal/client';
import { startTestApi, type TestApi } from '../support/api';
import { runTs } from '../support/processes';
import { createTestDatabase, withTestDatabase } from '../support/database';
import { createTeamAndOwner } from '../support/fixtures';

let api: TestApi;

const tdb = withTestDatabase({
  setUp: async () => {
    api = await startTestApi(tdb.db, { env: { ALLOWED_API_ORIGINS: 'https://app.example.com' } });
  },
  tearDown: async () => {
    await api?.stop();
  },
});

describe('error envelope', () => {
  it('answers unknown routes with a 404 envelope', async () => {
    const res = await api.fetch('/nope');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'Not Found', description: 'No route for GET /nope' });
  });

  it('answers a wrong method with 405 in the envelope', async () => {
    const { sessionToken } = await createTeamAndOwner(tdb.db);
    const res = await api.fetch('/transactions', { method: 'DELETE', token: sessionToken });
    expect(res.status).toBe(405);
    expect((await res.json()).error).toBe('Method Not Allowed');
  });

  it('answers a missing token with the spec 401', async () => {
    const res = await api.fetch('/transactions');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'Unauthorized', description: 'Authorization header required' });
  });

  it('lists each invalid query field with 400', async () => {
    const { sessionToken } = await createTeamAndOwner(tdb.db);
    const res = await api.fetch('/transactions?pageSize=0&from=yesterday', { token: sessionToken });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error).toBe('Bad Request');
    expect(body.details.map((d: { field: string }) => d.field).sort()).toEqual(['from', 'pageSize']);
  });

  it('turns an unexpected failure into a 500 with the request id and no internals', async () => {
    const brokenDb = await createTestDatabase();
    const { sessionToken } = await createTeamAndOwner(brokenDb.db);
    const broken = await startTestApi(brokenDb.db);
    await brokenDb.db.raw('drop table transactions cascade');
    try {
      const res = await broken.fetch('/transactions', { token: sessionToken, headers: { 'x-request-id': 'req-500-check' } });
      expect(res.status).toBe(500);
      const body = await res.json();
      expect(body).toEqual({
        error: 'Internal Server Error',
        description: 'Something went wrong on our side. Quote request id req-500-check when reporting it.',
        requestId: 'req-500-check',
      });
      expect(JSON.stringify(body)).not.toMatch(/relation|stack|at /);
    } finally {
      await broken.stop();
      await brokenDb.drop();
    }
  });
});

describe('request id', () => {
  it('echoes a given x-request-id', async () => {
    const res = await api.fetch('/nope', { headers: { 'x-request-id': 'abc-123' } });
    expect(res.headers.get('x-request-id')).toBe('abc-123');
  });

  it('creates one when absent or unsafe', async () => {
    const a = await api.fetch('/nope');
    const b = await api.fetch('/nope', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(a.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });
});

describe('CORS', () => {
  it('allows a configured origin with the spec headers on preflight', async () => {
    const res = await api.fetch('/transactions', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    const allowed = res.headers.get('access-control-allow-headers')!.split(',');
    for (const h of ['Authorization', 'Content-Type', 'User-Agent', 'x-request-id', 'x-user-locale', 'x-user-timezone', 'x-user-country']) {
      expect(allowed).toContain(h);
    }
  });

  it('gives no CORS headers to an unknown origin', async () => {
    const res = await api.fetch('/health', { headers: { origin: 'https://evil.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('health', () => {
  it('is 200 with both dependencies up', async () => {
    const res = await api.fetch('/health');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.status).toBe('ok');
    expect(body.checks.database.status).toBe('up');
    expect(body.checks.temporal.status).toBe('up');
  });

  it('is 503 and names Temporal when Temporal is down', async () => {
    const temporal = createTemporalGateway({ address: '127.0.0.1:1', namespace: 'default', taskQueue: 'x' });
    const down = await startTestApi(tdb.db, { temporal });
    try {
      const res = await down.fetch('/health');
      expect(res.status).toBe(503);
      const body = await res.json();
      expect(body.status).toBe('degraded');
      expect(body.checks.database.status).toBe('up');
      expect(body.checks.temporal.status).toBe('down');
      expect(body.checks.temporal.error).toBeTruthy();
    } finally {
      await down.stop();
      await temporal.close();
    }
  });
});

describe('probes', () => {
  it('/livez is 200 and asks nothing', async () => {
    const res = await api.fetch('/livez');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ status: 'ok', version: '0.0.1' });
  });

  it('/readyz is 200 with PostgreSQL and Temporal up', async () => {
    const res = await api.fetch('/readyz');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.json();
    expect(body).toMatchObject({ status: 'ok', checks: { database: { status: 'up' }, temporal: { status: 'up' } } });
    expect(body.description).toBeUndefined();
  });

  it('/readyz stays 200 while Temporal is down (webhooks are still taken), and says it is degraded', async () => {
    const temporal = createTemporalGateway({ address: '127.0.0.1:1', namespace: 'default', taskQueue: 'x' });
    const down = await startTestApi(tdb.db, { temporal });
    try {
      const res = await down.fetch('/readyz');
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toMatchObject({ status: 'degraded', checks: { database: { status: 'up' }, temporal: { status: 'down' } } });
      expect(body.description).toMatch(/^temporal is down: .+; webhooks are recorded/);
      expect((await down.fetch('/livez')).status).toBe(200);
    } finally {
      await down.stop();
      await temporal.close();
    }
  });

  it('/readyz is 503 and names the database when PostgreSQL does not answer; /livez stays 200', async () => {
    const nowhere = createDb({ url: `postgres://postgres@127.0.0.1:${await freePort()}/finops`, poolMax: 1 });
    const down = await startTestApi(nowhere);
    try {
      const res = await down.fetch('/readyz');
      expect(res.status).toBe(503);
      const body = await res.json();
      expect(body).toMatchObject({ status: 'unavailable', checks: { database: { status: 'down' }, temporal: { status: 'up' } } });
      expect(body.checks.database.error).toBeTruthy();
      expect(body.description).toBe(`database is down: ${body.checks.database.error}`);
      expect((await down.fetch('/livez')).status).toBe(200);
    } finally {
      await down.stop();
      await nowhere.destroy();
    }
  });
});

describe("the image's HEALTHCHECK", () => {
  it("asks the API's /readyz and passes on its 200", async () => {
    const check = await runTs('scripts/healthcheck.ts', { ...process.env, HOST: '127.0.0.1', PORT: new URL(api.url).port });
    expect(check.stdout).toContain(`${api.url}/readyz 200`);
    expect(check.code).toBe(0);
  });
});

describe('OpenAPI and reference page', () => {
  it('serves an OpenAPI 3.1 document at version 0.0.1 describing /transactions', async () => {
    const doc = await (await api.fetch('/openapi.json')).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('0.0.1');
    const op = doc.paths['/transactions'].get;
    expect(op.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['cursor', 'pageSize', 'from', 'to', 'statuses']),
    );
    expect(op.responses['200']).toBeDefined();
    expect(op.responses['401'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
    expect(doc.components.schemas.Transaction.properties.amount.type).toBe('number');
    expect(doc.paths['/oauth/token'].post.responses['200']).toBeDefined();
    expect(Object.keys(doc.paths).length).toBeGreaterThan(20);
  });

  it('serves the reference page and its assets locally (no CDN)', async () => {
    const res = await api.fetch('/');
    expect(res.status).toBe(200);
    const html = await res.text();
    const srcs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(srcs.every((s) => s.startsWith('/'))).toBe(true);
    for (const s of srcs) {
      const asset = await api.fetch(s);
      expect(asset.status).toBe(200);
      expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
  });
});
