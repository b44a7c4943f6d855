import type { ChildProcess } from 'node:child_process';
import { pdfReceipt } from '../fixtures/receipts';
import { signedDelivery, startMessagingFake } from '../fakes/messaging';
import { startTestApi, type TestApi } from '../support/api';
import { withTestDatabase } from '../support/database';
import { createTeamAndOwner } from '../support/fixtures';
import { killHard, spawnTs } from '../support/processes';
import { uniqueTaskQueue } from '../support/worker';
import { receiptIngestionId, type ReceiptIngestionWorkflow } from '../../shared/temporal/receipt-ingestion/contract';

let api: TestApi;
let messaging: Awaited<ReturnType<typeof startMessagingFake>>;

const tdb = withTestDatabase({
  setUp: async () => {
    messaging = await startMessagingFake('tok');
  },
  tearDown: async () => {
    await api?.stop();
    await messaging?.close();
  },
});

describe('ReceiptIngestion survives a worker restart during the await', () => {
  it('a confirm pressed while no worker runs is applied once a worker is back', async () => {
    const taskQueue = uniqueTaskQueue('receipt-restart');
    const shared = {
      MESSAGING_API_URL: messaging.url,
      MESSAGING_ACCESS_TOKEN: 'tok',
      MESSAGING_APP_SECRET: 'sec',
      TEMPORAL_TASK_QUEUE: taskQueue,
      STORAGE_DIR: `.data/test-storage-${process.pid}`,
      RECEIPT_DECISION_TIMEOUT: '10m',
    };
    const env = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: tdb.url, ...shared };
    api = await startTestApi(tdb.db, { env: shared });
    const owner = await createTeamAndOwner(tdb.db);
    await tdb.db('messaging_connections').insert({ teamId: owner.team.id, phoneNumber: '4917000000009' });
    const [tx] = await tdb
      .db('transactions')
      .insert({ teamId: owner.team.id, date: '2026-05-05', name: 'Print Shop', amount: -88, currency: 'EUR' })
      .returning('*');
    messaging.addMedia(
      'm-restart',
      await pdfReceipt({ merchant: 'Print Shop', date: '2026-05-05', items: [['Flyers', 88]], vatRate: 19, currency: 'EUR' }),
      'application/pdf',
    );

    let worker: ChildProcess | undefined = spawnTs('worker/main.ts', { env, stdio: 'ignore' });
    let second: ChildProcess | undefined;
    try {
      const delivery = signedDelivery('sec', [
        { from: '4917000000009', id: 'wamid.restart', type: 'document', document: { id: 'm-restart', mime_type: 'application/pdf' } },
      ]);
      await api.fetch('/webhook/messaging', { method: 'POST', headers: delivery.headers, body: delivery.raw });
      const suggestion = await messaging.waitFor((s) => s.type === 'interactive' && s.to === '4917000000009');
      // Kill it while the workflow waits for the decision (nothing left in flight).
      const client = await api.deps.temporal.client();
      const handle = client.workflow.getHandle<ReceiptIngestionWorkflow>(receiptIngestionId(owner.team.id, 'wamid.restart'));
      for (let i = 0; ((await handle.describe()).raw.pendingActivities?.length ?? 0) > 0; i++) {
        if (i > 100) throw new Error('the suggestion activity never finished');
        await new Promise((r) => setTimeout(r, 100));
      }
      await killHard(worker);
      worker = undefined;

      // The user presses confirm while no worker is running: the signal waits in Temporal.
      const confirmId = suggestion.body.interactive.action.buttons[0].reply.id;
      const press = signedDelivery('sec', [
        {
          from: '4917000000009',
          id: 'wamid.press',
          type: 'interactive',
          interactive: { type: 'button_reply', button_reply: { id: confirmId } },
        },
      ]);
      expect((await api.fetch('/webhook/messaging', { method: 'POST', headers: press.headers, body: press.raw })).status).toBe(200);

      second = spawnTs('worker/main.ts', { env, stdio: 'ignore' });
      const result = await handle.result();
      expect(result.stage).toBe('confirmed');
      expect(await tdb.db('transaction_attachments').where({ transactionId: tx.id })).toHaveLength(1);
      await messaging.waitFor((s) => s.to === '4917000000009' && s.type === 'text' && s.body.text.body.includes('Match confirmed'));
    } finally {
      if (worker) await killHard(worker);
      if (second) await killHard(second);
    }
  }, 120_000);
});
