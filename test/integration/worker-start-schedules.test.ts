import { ScheduleNotFoundError } from '@temporalio/client';
import { createTemporalGateway, type TemporalGateway } from '../../shared/temporal/client';
import { bankSyncScheduleId } from '../../shared/temporal/scheduled-bank-sync/contract';
import { weeklyInsightsScheduleId } from '../../shared/temporal/weekly-insights/contract';
import { testConfig } from '../support/api';
import { withTestDatabase } from '../support/database';
import { eventually } from '../support/eventually';
import { spawnTs, killHard } from '../support/processes';
import { uniqueTaskQueue } from '../support/worker';

/**
 * A worker starting beside teams and connections made while Temporal was away (or outside the API)
 * gives each its schedule, several calls at a time, beside its polling: one that Temporal refuses
 * is logged and counted, and the others get theirs all the same.
 */
let temporal: TemporalGateway;
const taskQueue = uniqueTaskQueue('worker-start');
const tdb = withTestDatabase({
  setUp: () => {
    const config = testConfig();
    temporal = createTemporalGateway({ address: config.TEMPORAL_ADDRESS, namespace: config.TEMPORAL_NAMESPACE, taskQueue });
  },
  tearDown: async () => {
    await temporal?.close();
  },
});

const TEAMS = 60;

it('gives every team and connected connection its schedule at start; a team Temporal refuses does not stop the rest', async () => {
  const inbox = (i: number) => `ws${Date.now().toString(36)}${i}`;
  // An unknown zone, as a row written by hand could hold: Temporal refuses its schedule. Written first,
  // it is the first team read: a pass that stopped at a failure would schedule none of the others.
  const [refused] = await tdb
    .db('teams')
    .insert({ name: 'Nowhere', inboxId: inbox(TEAMS), timezone: 'Mars/Olympus_Mons' })
    .returning<{ id: string }[]>('id');
  const teams = await tdb
    .db('teams')
    .insert(
      Array.from({ length: TEAMS }, (_, i) => ({ name: `Made offline ${i}`, inboxId: inbox(i), timezone: i % 2 ? 'Europe/Berlin' : null })),
    )
    .returning<{ id: string }[]>('id');
  const connections = await tdb
    .db('bank_connections')
    .insert(
      teams
        .slice(0, 5)
        .map((t, i) => ({ teamId: t.id, provider: 'bank-a', referenceId: `item_offline_${i}_${Date.now()}`, status: 'connected' })),
    )
    .returning<{ id: string }[]>('id');
  const [disconnected] = await tdb
    .db('bank_connections')
    .insert({ teamId: teams[5].id, provider: 'bank-a', referenceId: `item_broken_${Date.now()}`, status: 'disconnected' })
    .returning<{ id: string }[]>('id');

  const client = await temporal.client();
  const exists = (scheduleId: string) =>
    client.schedule
      .getHandle(scheduleId)
      .describe()
      .then(() => true)
      .catch((err: unknown) => {
        if (err instanceof ScheduleNotFoundError) return false;
        throw err;
      });
  const expected = [...teams.map((t) => weeklyInsightsScheduleId(t.id)), ...connections.map((c) => bankSyncScheduleId(c.id))];
  let log = '';
  const worker = spawnTs('worker/main.ts', {
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info', DATABASE_URL: tdb.url, TEMPORAL_TASK_QUEUE: taskQueue },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  worker.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  worker.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  try {
    await eventually(() => Promise.resolve(log.includes('bank sync schedules ready')), 60_000, 'the worker to bring the schedules in line');
    const missing: string[] = [];
    for (const id of expected) if (!(await exists(id))) missing.push(id);
    expect(missing).toEqual([]);
    expect(await exists(weeklyInsightsScheduleId(refused.id))).toBe(false);
    expect(await exists(bankSyncScheduleId(disconnected.id))).toBe(false);
    const lines = log
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.find((l) => String(l.msg).startsWith('some weekly insight schedules could not be brought in line'))).toMatchObject({
      checked: TEAMS + 1,
      failed: 1,
    });
    expect(lines.find((l) => l.msg === 'bank sync schedules ready')).toMatchObject({ checked: connections.length });
  } finally {
    await killHard(worker);
    for (const id of expected)
      await client.schedule
        .getHandle(id)
        .delete()
        .catch(() => undefined);
  }
}, 90_000);
