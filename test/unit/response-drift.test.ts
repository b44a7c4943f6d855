import type { Server } from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';
import { z } from 'zod';
import { errorEnvelope } from '../../api/http/error-envelope';
import { requestId } from '../../api/http/request-id';
import type { AppState } from '../../api/http/state';
import { defineRoute, mountRoutes } from '../../api/rest/define';
import { one } from '../../api/rest/replies';
import type { Db } from '../../shared/db/knex';
import type { Principal } from '../../shared/domain/auth/principal';
import { createLogger } from '../../shared/logger';

const widget = z.object({ id: z.string(), name: z.string() });

// What a service that drifted from the route's schema hands back: a renamed field, which only a cast lets through tsc.
const drifted = defineRoute({
  method: 'get',
  path: '/widgets/drifted',
  scopes: ['transactions.read'],
  summary: 'A route whose handler no longer matches its reply',
  tag: 'Test',
  reply: one(widget),
  handler: () => Promise.resolve({ id: 'w1', title: 'Widget' } as unknown as z.input<typeof widget>),
});

const principal: Principal = { kind: 'api_key', userId: 'u1', teamId: 't1', scopes: ['transactions.read'] };

/** The REST adapter alone (request id, error envelope, the mounted route), with response checking on or off. */
async function serve(validateResponses: boolean): Promise<{ url: string; close: () => Promise<void> }> {
  const app = new Koa<AppState>();
  const log = createLogger({ LOG_LEVEL: 'silent', LOG_FORMAT: 'json' });
  const router = new Router<AppState>();
  // A GET never reaches the Idempotency-Key store, the only use of the database here.
  mountRoutes(router, [drifted], () => Promise.resolve(principal), { validateResponses, db: undefined as unknown as Db });
  app
    .use(async (ctx, next) => {
      ctx.state.log = log;
      await next();
    })
    .use(requestId())
    .use(errorEnvelope())
    .use(router.routes());
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

describe('a response that drifts from its schema', () => {
  it('fails the request with the 500 envelope when responses are validated (as in tests)', async () => {
    const api = await serve(true);
    try {
      const res = await fetch(`${api.url}/widgets/drifted`, { headers: { 'x-request-id': 'drift-1' } });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({
        error: 'Internal Server Error',
        description: 'Something went wrong on our side. Quote request id drift-1 when reporting it.',
        requestId: 'drift-1',
      });
    } finally {
      await api.close();
    }
  });

  it('goes out unchecked when validation is off (production): the check is what catches it', async () => {
    const api = await serve(false);
    try {
      const res = await fetch(`${api.url}/widgets/drifted`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ data: { id: 'w1', title: 'Widget' } });
    } finally {
      await api.close();
    }
  });
});
