import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { chatReplyId, sendChatMessageContract, type SendChatMessageWorkflow } from '../../shared/temporal/send-chat-message/contract';
import {
  SYNC_EXCHANGE_RATES_ID,
  syncExchangeRatesContract,
  type SyncExchangeRatesWorkflow,
} from '../../shared/temporal/sync-exchange-rates/contract';
import { startEcbFake } from '../fakes/ecb';
import { startMessagingFake } from '../fakes/messaging';
import { testConfig } from '../support/api';
import { withTestDatabase } from '../support/database';
import { eventually } from '../support/eventually';
import { isAlive, killHard, spawnTs } from '../support/processes';
import { uniqueTaskQueue } from '../support/worker';

/**
 * The provider a workflow calls is down; the worker process is killed while the workflow retries;
 * the provider and a new worker come back. The work is done, once.
 */
let connection: Connection;
let client: Client;
const workers: ChildProcess[] = [];

const tdb = withTestDatabase({
  setUp: async () => {
    connection = await Connection.connect({ address: testConfig().TEMPORAL_ADDRESS });
    client = new Client({ connection });
  },
  tearDown: async () => {
    await Promise.all(workers.map((w) => killHard(w)));
    await connection?.close();
  },
});

function spawnWorker(env: Record<string, string>): ChildProcess {
  const worker = spawnTs('worker/main.ts', {
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'error', DATABASE_URL: tdb.url, ...env },
    stdio: 'ignore',
  });
  workers.push(worker);
  return worker;
}

/** Waits until the workflow's activity has failed at least once against the provider. */
const failedOnce = (handle: WorkflowHandle) =>
  eventually(
    async () => {
      const pending = (await handle.describe()).raw.pendingActivities?.[0];
      return (pending?.attempt ?? 0) >= 2;
    },
    60_000,
    'a failed attempt',
  );

async function killDuringOutage(env: Record<string, string>, start: (taskQueue: string) => Promise<WorkflowHandle>, restore: () => void) {
  const taskQueue = uniqueTaskQueue('outage-kill');
  const first = spawnWorker({ ...env, TEMPORAL_TASK_QUEUE: taskQueue });
  const handle = await start(taskQueue);
  await failedOnce(handle);
  await killHard(first);
  expect(isAlive(first.pid!)).toBe(false);
  restore();
  spawnWorker({ ...env, TEMPORAL_TASK_QUEUE: taskQueue });
  return handle;
}

describe('a worker killed while the provider is down', () => {
  it('SendChatMessage: the reply is sent once the provider and a worker are back, and only once', async () => {
    const token = `token-${randomBytes(6).toString('hex')}`;
    const messaging = await startMessagingFake(token);
    messaging.setUnavailable(true);
    try {
      const to = '4915550009999';
      const handle = await killDuringOutage(
        { MESSAGING_API_URL: messaging.url, MESSAGING_ACCESS_TOKEN: token },
        (taskQueue) =>
          client.workflow.start<SendChatMessageWorkflow>(sendChatMessageContract.workflowType, {
            taskQueue,
            workflowId: chatReplyId(`wamid.outage.${randomBytes(4).toString('hex')}`),
            args: [{ to, text: 'Welcome back' }],
          }),
        () => messaging.setUnavailable(false),
      );
      await handle.result();
      expect(messaging.sent.filter((m) => JSON.stringify(m.body).includes('Welcome back'))).toHaveLength(1);
    } finally {
      await messaging.close();
    }
  }, 120_000);

  it('SyncExchangeRates: the rates are stored once the source and a worker are back, each day once', async () => {
    const ecb = await startEcbFake({ '2026-11-19': { USD: 1.05, GBP: 0.83 }, '2026-11-20': { USD: 1.0512, GBP: 0.8321, JPY: 162.3 } });
    ecb.state.status = 503;
    try {
      const handle = await killDuringOutage(
        { FX_RATES_URL: ecb.url, FX_RATES_SCHEDULE: 'false' },
        (taskQueue) =>
          client.workflow.start<SyncExchangeRatesWorkflow>(syncExchangeRatesContract.workflowType, {
            taskQueue,
            workflowId: `${SYNC_EXCHANGE_RATES_ID}-outage-${randomBytes(4).toString('hex')}`,
          }),
        () => (ecb.state.status = 200),
      );
      const result = await handle.result();
      expect(result.latestDate).toBe('2026-11-20');
      const rows = await tdb.db('exchange_rates').select('date', 'quote').orderBy(['date', 'quote']);
      expect(rows.map((r: { date: string; quote: string }) => `${r.date} ${r.quote}`)).toEqual([
        '2026-11-19 GBP',
        '2026-11-19 USD',
        '2026-11-20 GBP',
        '2026-11-20 JPY',
        '2026-11-20 USD',
      ]);
    } finally {
      await ecb.close();
    }
  }, 120_000);
});
