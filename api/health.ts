import Router from '@koa/router';
import { z } from 'zod';
import { pingDb } from '../shared/db/knex';
import type { ApiDeps } from './deps';
import type { AppState } from './http/state';
import { API_VERSION } from './version';

const dependency = z.object({
  status: z.enum(['up', 'down']),
  latencyMs: z.number().meta({ description: 'How long the check took.' }),
  error: z.string().optional().meta({ description: 'Why the dependency is down.' }),
});

export const healthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']).meta({ description: '`ok` when every dependency is up (HTTP 200), else `degraded` (HTTP 503).' }),
    version: z.string(),
    checks: z.object({ database: dependency, temporal: dependency }),
  })
  .meta({ id: 'Health' });

async function check(fn: () => Promise<unknown>): Promise<z.infer<typeof dependency>> {
  const start = performance.now();
  try {
    await fn();
    return { status: 'up', latencyMs: Math.round(performance.now() - start) };
  } catch (err) {
    return { status: 'down', latencyMs: Math.round(performance.now() - start), error: (err as Error).message.split('\n')[0] };
  }
}

export function healthRouter({ db, temporal }: Pick<ApiDeps, 'db' | 'temporal'>) {
  const router = new Router<AppState>();
  router.get('/health', async (ctx) => {
    const [database, temporalCheck] = await Promise.all([
      check(() =>
        Promise.race([
          pingDb(db),
          new Promise((_, r) => setTimeout(() => r(new Error('database did not answer within 2000 ms')), 2000).unref()),
        ]),
      ),
      check(() => temporal.ping(2000)),
    ]);
    const ok = database.status === 'up' && temporalCheck.status === 'up';
    ctx.status = ok ? 200 : 503;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: ok ? 'ok' : 'degraded', version: API_VERSION, checks: { database, temporal: temporalCheck } };
  });
  return router;
}
