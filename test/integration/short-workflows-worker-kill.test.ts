import type { ChildProcess } from 'node:child_process';
import { createTemporalGateway, type TemporalGateway } from '../../shared/temporal/client';
import { startChatReply } from '../../shared/temporal/send-chat-message/calls';
import { syncExchangeRatesContract, type SyncExchangeRatesWorkflow } from '../../shared/temporal/sync-exchange-rates/contract';
import { scheduledBankSyncContract, type ScheduledBankSyncWorkflow } from '../../shared/temporal/scheduled-bank-sync/contract';
import { encrypt, keyringOf } from '../../shared/domain/crypto/encryption';
import { createTeamAndOwner } from '../support/fixtures';
import { startBankAFake } from '../fakes/bank-a';
import { startEcbFake } from '../fakes/ecb';
import { startMessagingFake } from '../fakes/messaging';
import { testConfig } from '../support/api';
import { withTestDatabase } from '../support/database';
import { eventually } from '../support/eventually';
import { isAlive, killHard, workerProcesses } from '../support/processes';
import { uniqueTaskQueue } from '../support/worker';

/**
 * The two workflows that are one activity each (a chat reply, the daily exchange rates): the worker
 * is killed while the provider is down and the activity is being retried; a restarted worker
 * finishes the run, and the provider sees the work done once.
 */
let temporal: TemporalGateway;
const tdb = withTestDatabase({
  tearDown: async () => {
    await workers.killAll();
    await temporal?.close();
  },
});
const workers = workerProcesses(() => tdb.url);
const startWorker = (env: Record<string, string>) => workers.start(env);

async function killWorker(child: ChildProcess) {
  await killHard(child);
  expect(isAlive(child.pid!)).toBe(false);
}

describe('one-step workflows survive a worker killed while they retry', () => {
  it('SendChatMessage: the reply reaches the person once', async () => {
    const messaging = await startMessagingFake('tok');
    try {
      const env = { TEMPORAL_TASK_QUEUE: uniqueTaskQueue('chat-kill'), MESSAGING_API_URL: messaging.url, MESSAGING_ACCESS_TOKEN: 'tok' };
      const config = testConfig(env);
      temporal = createTemporalGateway({
        address: config.TEMPORAL_ADDRESS,
        namespace: config.TEMPORAL_NAMESPACE,
        taskQueue: env.TEMPORAL_TASK_QUEUE,
      });
      messaging.setUnavailable(true);
      const first = startWorker(env);
      const workflowId = await startChatReply(
        temporal,
        { incomingMessageId: `wamid.in-${Date.now()}`, teamId: null, reason: 'welcome' },
        { to: '4915112345678', text: 'Receipt saved.' },
      );
      const handle = (await temporal.client()).workflow.getHandle(workflowId);
      await eventually(
        async () => ((await handle.describe()).raw.pendingActivities?.[0]?.attempt ?? 0) >= 2,
        60_000,
        'the send to be retried',
      );
      await killWorker(first);

      messaging.setUnavailable(false);
      startWorker(env);
      await handle.result();
      expect(messaging.sent.filter((m) => m.to === '4915112345678')).toHaveLength(1);
      expect(await tdb.db('sent_messages').whereLike('activityKey', `${workflowId}/%`)).toEqual([
        expect.objectContaining({ sentAt: expect.any(Date) }),
      ]);
    } finally {
      await messaging.close();
    }
  }, 120_000);

  it('SyncExchangeRates: the rates are stored once', async () => {
    const ecb = await startEcbFake({ '2026-11-20': { USD: 1.0512, GBP: 0.8321 } });
    try {
      const env = { TEMPORAL_TASK_QUEUE: uniqueTaskQueue('fx-kill'), FX_RATES_URL: ecb.url };
      ecb.state.status = 503;
      const first = startWorker(env);
      const client = await temporal.client();
      const handle = await client.workflow.start<SyncExchangeRatesWorkflow>(syncExchangeRatesContract.workflowType, {
        taskQueue: env.TEMPORAL_TASK_QUEUE,
        workflowId: `sync-exchange-rates-kill-${Date.now()}`,
      });
      await eventually(
        async () => ((await handle.describe()).raw.pendingActivities?.[0]?.attempt ?? 0) >= 2,
        60_000,
        'the fetch to be retried',
      );
      await killWorker(first);

      ecb.state.status = 200;
      startWorker(env);
      expect(await handle.result()).toEqual({ rates: 2, latestDate: '2026-11-20' });
      expect(await tdb.db('exchange_rates').where({ date: '2026-11-20' }).orderBy('quote').select('quote', 'rate')).toEqual([
        { quote: 'GBP', rate: 0.8321 },
        { quote: 'USD', rate: 1.0512 },
      ]);
    } finally {
      await ecb.close();
    }
  }, 120_000);

  it('ScheduledBankSync: the sync is requested once, and runs once', async () => {
    const bankA = await startBankAFake();
    try {
      const env = { TEMPORAL_TASK_QUEUE: uniqueTaskQueue('bank-schedule-kill'), BANK_A_API_URL: bankA.url };
      const config = testConfig(env);
      const owner = await createTeamAndOwner(tdb.db, 'Scheduled');
      const item = bankA.addItem();
      const [row] = await tdb
        .db('bank_connections')
        .insert({
          teamId: owner.team.id,
          provider: 'bank-a',
          referenceId: item.itemId,
          accessTokenEncrypted: encrypt(item.accessToken, keyringOf(config)),
          status: 'connected',
        })
        .returning('id');
      const connectionId = (row as { id: string }).id;
      // A fault in this test's own database: while the table is renamed, the step cannot read the connection.
      await tdb.db.raw('alter table bank_connections rename to bank_connections_away');
      const first = startWorker(env);
      const client = await temporal.client();
      const handle = await client.workflow.start<ScheduledBankSyncWorkflow>(scheduledBankSyncContract.workflowType, {
        taskQueue: env.TEMPORAL_TASK_QUEUE,
        workflowId: `scheduled-bank-sync-kill-${Date.now()}`,
        args: [{ connectionId, teamId: owner.team.id }],
      });
      await eventually(
        async () => ((await handle.describe()).raw.pendingActivities?.[0]?.attempt ?? 0) >= 2,
        60_000,
        'the request to be retried',
      );
      await killWorker(first);

      await tdb.db.raw('alter table bank_connections_away rename to bank_connections');
      startWorker(env);
      expect(await handle.result()).toBe('requested');
      const sync = client.workflow.getHandle(`sync-connection:${connectionId}`);
      expect(await sync.result()).toMatchObject({ passes: 1 });
      // Asked once: the attempts that failed before the restart never reached SyncConnection.
      const signals = (await sync.fetchHistory()).events?.filter((e) => e.workflowExecutionSignaledEventAttributes) ?? [];
      expect(signals).toHaveLength(1);
    } finally {
      await tdb.db.raw('alter table if exists bank_connections_away rename to bank_connections');
      await bankA.close();
    }
  }, 120_000);
});
