import { freePort } from '../../scripts/lib/ports';
import { withTestDatabase } from '../support/database';
import { eventually } from '../support/eventually';
import { runTs, workerProcesses } from '../support/processes';
import { uniqueTaskQueue } from '../support/worker';

/**
 * A worker process's probes, on WORKER_HEALTH_PORT (the worker serves no API): /livez while the
 * process runs, /readyz 200 once it polls with PostgreSQL and Temporal answering, 503 naming what
 * does not answer.
 */
const tdb = withTestDatabase({ tearDown: () => workers.killAll() });
const workers = workerProcesses(() => tdb.url);

const get = (url: string) => fetch(url).catch(() => undefined);

describe('worker probes', () => {
  it('answers /livez and /readyz on its own port once it polls, and nothing else there', async () => {
    const port = await freePort();
    workers.start({ TEMPORAL_TASK_QUEUE: uniqueTaskQueue('probes'), WORKER_HEALTH_PORT: String(port) });
    const base = `http://127.0.0.1:${port}`;
    await eventually(async () => (await get(`${base}/readyz`))?.status === 200, 60_000, 'the worker to be ready');

    const live = await fetch(`${base}/livez`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${base}/readyz`);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect(await ready.json()).toMatchObject({
      status: 'ok',
      checks: { database: { status: 'up' }, temporal: { status: 'up' }, polling: { status: 'up' } },
    });
    expect((await fetch(`${base}/transactions`)).status).toBe(404);

    // The image's HEALTHCHECK finds no API in a worker's container and asks the worker.
    const check = await runTs('scripts/healthcheck.ts', {
      ...process.env,
      PORT: String(await freePort()),
      WORKER_HEALTH_PORT: String(port),
    });
    expect(check.stdout).toContain(`${base}/readyz 200`);
    expect(check.code).toBe(0);
  }, 90_000);

  it("serves /metrics on the same port: its own pool and process, and the Temporal SDK's worker metrics", async () => {
    const port = await freePort();
    workers.start({ TEMPORAL_TASK_QUEUE: uniqueTaskQueue('metrics'), WORKER_HEALTH_PORT: String(port), DATABASE_POOL_MAX: '4' });
    const base = `http://127.0.0.1:${port}`;
    await eventually(async () => (await get(`${base}/readyz`))?.status === 200, 60_000, 'the worker to be ready');
    // The SDK reports its pollers once they have polled: scrape until they show.
    let text = '';
    await eventually(
      async () => {
        const res = await fetch(`${base}/metrics`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
        text = await res.text();
        return /^temporal_num_pollers\{.*poller_type="workflow_task"/m.test(text);
      },
      30_000,
      "Temporal's poller metrics",
    );
    expect(text).toMatch(/^finops_db_pool_max 4$/m);
    expect(text).toMatch(/^finops_process_resident_memory_bytes /m);
    expect(text).toMatch(/^# TYPE finops_webhook_delivery_attempts_total counter$/m);
    expect(text).toMatch(/^temporal_worker_task_slots_available\{.*worker_type="ActivityWorker"/m);
    expect(text).toMatch(/^temporal_\w+.*task_queue="test-metrics-/m);
  }, 90_000);

  it('is alive and not ready while PostgreSQL does not answer, and says so', async () => {
    const port = await freePort();
    const nothing = await freePort();
    workers.start({
      TEMPORAL_TASK_QUEUE: uniqueTaskQueue('probes-nodb'),
      WORKER_HEALTH_PORT: String(port),
      DATABASE_URL: `postgres://postgres@127.0.0.1:${nothing}/finops`,
    });
    const base = `http://127.0.0.1:${port}`;
    // Ready but for the database: the worker polls, and only PostgreSQL keeps it out.
    let body: { status?: string; description?: string; checks?: Record<string, { status: string }> } = {};
    await eventually(
      async () => {
        const res = await get(`${base}/readyz`);
        if (res?.status !== 503) return false;
        body = (await res.json()) as typeof body;
        return body.checks?.polling.status === 'up';
      },
      60_000,
      'the worker to poll without its database',
    );
    expect(body).toMatchObject({
      status: 'unavailable',
      checks: { database: { status: 'down' }, temporal: { status: 'up' }, polling: { status: 'up' } },
    });
    expect(body.description).toMatch(/^database is down: /);
    expect((await fetch(`${base}/livez`)).status).toBe(200);

    const check = await runTs('scripts/healthcheck.ts', {
      ...process.env,
      PORT: String(await freePort()),
      WORKER_HEALTH_PORT: String(port),
    });
    expect(check.stdout).toContain(`${base}/readyz 503`);
    expect(check.stdout).toContain('database is down');
    expect(check.code).toBe(1);
  }, 90_000);
});
