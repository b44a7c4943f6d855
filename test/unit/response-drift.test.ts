import type { Server } from 'node:http';
import Koa from 'koa';
import { z } from 'zod';
import { errorEnvelope } from '../../api/http/error-envelope';
import { requestId } from '../../api/http/request-id';
import { unscrapedMetrics } from '../support/doors';
import type { AppState } from '../../api/http/state';
import type { ApiDeps } from '../../api/deps';
import { query } from '../../api/operations/declare';
import { one } from '../../api/operations/output';
import { restDoor } from '../../api/rest/door';
import type { Principal } from '../../shared/domain/auth/principal';
import { createLogger } from '../../shared/logger';

const widget = z.object({ id: z.string(), name: z.string() });

// What a service that drifted from the operation's schema hands back: a renamed field, which only a cast lets through tsc.
const drifted = query('widgets.drifted', 'GET /widgets/drifted', ['transactions.read'], {
  summary: 'An operation whose service no longer matches its output',
  output: one(widget),
  run: () => Promise.resolve({ id: 'w1', title: 'Widget' } as unknown as z.input<typeof widget>),
});

const principal: Principal = { kind: 'api_key', userId: 'u1', teamId: 't1', scopes: ['transactions.read'] };

/** The REST door alone (request id, error envelope, the mounted operation), with response checking on or off. */
async function serve(validateResponses: boolean): Promise<{ url: string; close: () => Promise<void> }> {
  const app = new Koa<AppState>();
  const log = createLogger({ LOG_LEVEL: 'silent', LOG_FORMAT: 'json' });
  // A GET never reaches the Idempotency-Key store; the door's meter is the only other use of the deps here.
  const door = restDoor([drifted], { metrics: unscrapedMetrics() } as ApiDeps, () => Promise.resolve(principal), { validateResponses });
  app
    .use(async (ctx, next) => {
      ctx.state.log = log;
      await next();
    })
    .use(requestId())
    .use(errorEnvelope())
    .use(door);
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
