import Router from '@koa/router';
import { z } from 'zod';
import { CHECK_TIMEOUT_MS, checkDependency, databaseAnswers, downIn } from '../shared/dependency-check';
import type { ApiDeps } from './deps';
import type { AppState } from './http/state';
import { API_VERSION } from './version';

const dependency = z.object({
  status: z.enum(['up', 'down']),
  latencyMs: z.number().meta({ description: 'How long the check took.' }),
  error: z.string().optional().meta({ description: 'Why the dependency is down.' }),
});

const checks = z.object({ database: dependency, temporal: dependency });

export const healthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']).meta({ description: '`ok` when every dependency is up (HTTP 200), else `degraded` (HTTP 503).' }),
    version: z.string(),
    checks,
  })
  .meta({ id: 'Health' });

export const livenessSchema = z
  .object({ status: z.literal('ok'), version: z.string() })
  .meta({ id: 'Liveness', description: 'The process serves HTTP; no dependency is asked.' });

export const readinessSchema = z
  .object({
    status: z.enum(['ok', 'degraded', 'unavailable']).meta({
      description:
        '`ok`: every dependency is up (HTTP 200). `degraded`: PostgreSQL answers and Temporal does not (HTTP 200: the process still takes traffic). `unavailable`: PostgreSQL does not answer (HTTP 503).',
    }),
    version: z.string(),
    description: z.string().optional().meta({ description: 'What is down, in words; absent when every dependency is up.' }),
    checks,
  })
  .meta({ id: 'Readiness' });

type Checks = z.infer<typeof checks>;

async function checkAll({ db, temporal }: Pick<ApiDeps, 'db' | 'temporal'>): Promise<Checks> {
  const [database, temporalCheck] = await Promise.all([
    checkDependency(() => databaseAnswers(db)),
    checkDependency(() => temporal.ping(CHECK_TIMEOUT_MS)),
  ]);
  return { database, temporal: temporalCheck };
}

/**
 * Readiness asks PostgreSQL and not Temporal. Without PostgreSQL the gateway can answer nothing
 * but errors. Without Temporal it still serves reads and takes provider webhooks, which the outbox
 * records and the relay acts on once Temporal answers; a Temporal outage affects every API process
 * at once, so failing readiness for it would take them all out of rotation and lose the webhooks.
 */
function readiness(c: Checks): { httpStatus: number; body: z.infer<typeof readinessSchema> } {
  if (c.database.status === 'down') {
    return { httpStatus: 503, body: { status: 'unavailable', version: API_VERSION, description: downIn(c), checks: c } };
  }
  if (c.temporal.status === 'down')
    return {
      httpStatus: 200,
      body: {
        status: 'degraded',
        version: API_VERSION,
        description: `${downIn({ temporal: c.temporal })}; webhooks are recorded and acted on once it answers`,
        checks: c,
      },
    };
  return { httpStatus: 200, body: { status: 'ok', version: API_VERSION, checks: c } };
}

export function healthRouter(deps: Pick<ApiDeps, 'db' | 'temporal'>) {
  const router = new Router<AppState>();
  router.get('/livez', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'ok', version: API_VERSION } satisfies z.infer<typeof livenessSchema>;
  });
  router.get('/readyz', async (ctx) => {
    const { httpStatus, body } = readiness(await checkAll(deps));
    ctx.status = httpStatus;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });
  // Every dependency, for a person or a monitor: 503 whenever one is down, so it is no readiness probe.
  router.get('/health', async (ctx) => {
    const c = await checkAll(deps);
    const ok = c.database.status === 'up' && c.temporal.status === 'up';
    ctx.status = ok ? 200 : 503;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: ok ? 'ok' : 'degraded', version: API_VERSION, checks: c } satisfies z.infer<typeof healthSchema>;
  });
  return router;
}
