/**
 * ReceiptIngestion end to end (goal: a PDF receipt goes from webhook to match suggestion message in
 * under 3 s): a signed messaging webhook carrying a receipt → gateway → workflow → media download,
 * storage, extraction, matching → the suggestion with its buttons arrives at the messaging fake.
 * One receipt at a time, as a person sends them; PDFs, then photos (OCR), against 5,000 transactions.
 *
 *   npx tsx bench/receipts.ts            (DATABASE_URL or an embedded PostgreSQL)
 */
import type { Server } from 'node:http';
import type { Client } from '@temporalio/client';
import { tsToMs } from '@temporalio/common/lib/time';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { NativeConnection } from '@temporalio/worker';
import { z } from 'zod';
import { closeActivityDeps, createActivityDeps } from '../activities';
import { createApp } from '../api/app';
import { createApiDeps } from '../api/deps';
import { loadConfig } from '../shared/config';
import { MessagingConnection, Transaction } from '../shared/db/models';
import { createLogger } from '../shared/logger';
import { createUserWithTeam } from '../shared/domain/teams/service';
import { createTemporalGateway } from '../shared/temporal/client';
import { receiptIngestionId } from '../shared/temporal/receipt-ingestion/contract';
import { localDevServer } from '../scripts/lib/temporal-cli';
import { createWorker } from '../worker/create-worker';
import { signedDelivery, startMessagingFake } from '../test/fakes/messaging';
import { pdfReceipt, photoReceipt, type ReceiptSpec } from '../test/fixtures/receipts';
import { benchDatabase } from './lib/database';
import { reportFigure } from './lib/figures';
import { median, ms, percentile } from './lib/latency';
import { closeServer, keepConnectionsLongerThanClients } from '../api/http/keep-alive';
import { runMain } from './lib/run-main';

const PER_KIND = Number(process.env.RECEIPTS ?? 20);
const TRANSACTIONS = Number(process.env.TRANSACTIONS ?? 5000);
const SECRET = 'bench-app-secret';
const TOKEN = 'bench-messaging-token';
// Each run makes a new team: its own number (a number belongs to one team) and message ids (a known id is a redelivery).
const RUN = String(Date.now()).slice(-9);
const PHONE = `4915${RUN}`;

/** The part of a sent suggestion the bench reads: the id of its first (confirm) button. */
const suggestionMessage = z.object({
  interactive: z.object({ action: z.object({ buttons: z.tuple([z.object({ reply: z.object({ id: z.string() }) })], z.unknown()) }) }),
});

async function main() {
  const bench = await benchDatabase('finops_bench_receipts');
  const env = await TestWorkflowEnvironment.createLocal({
    server: localDevServer(),
  });
  const messaging = await startMessagingFake(TOKEN);
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: 'warn',
    DATABASE_URL: bench.url,
    TEMPORAL_ADDRESS: env.address,
    TEMPORAL_TASK_QUEUE: 'bench-receipts',
    MESSAGING_API_URL: messaging.url,
    MESSAGING_ACCESS_TOKEN: TOKEN,
    MESSAGING_APP_SECRET: SECRET,
    STORAGE_DIR: `.data/bench-storage-${process.pid}`,
    LLM_API_URL: '',
  });
  const temporal = createTemporalGateway({ address: env.address, namespace: 'default', taskQueue: config.TEMPORAL_TASK_QUEUE });
  const server: Server = await new Promise((resolve) => {
    const s = keepConnectionsLongerThanClients(
      createApp(createApiDeps({ config, db: bench.db, temporal, logger: createLogger(config) })).listen(0, '127.0.0.1', () => resolve(s)),
    );
  });
  const apiUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const deps = createActivityDeps(config, bench.db);
  const connection = await NativeConnection.connect({ address: env.address });
  const worker = await createWorker({ connection, namespace: 'default', taskQueue: config.TEMPORAL_TASK_QUEUE, deps });

  try {
    await worker.runUntil(async () => {
      const { team } = await createUserWithTeam(bench.db, { email: `bench-${Date.now()}@example.com`, teamName: 'bench-receipts' });
      await MessagingConnection.query(bench.db).insert({ teamId: team.id, phoneNumber: PHONE });
      // Background transactions, and for each receipt the one it belongs to.
      const filler = Array.from({ length: TRANSACTIONS }, (_, i) => ({
        teamId: team.id,
        date: `2026-0${1 + (i % 9)}-${String(1 + (i % 28)).padStart(2, '0')}`,
        name: `Merchant ${i}`,
        amount: -(5 + (i % 400) + (i % 97) / 100),
        currency: 'EUR',
      }));
      for (let i = 0; i < filler.length; i += 1000) await Transaction.query(bench.db).insert(filler.slice(i, i + 1000));
      const specs: ReceiptSpec[] = Array.from({ length: PER_KIND }, (_, i) => ({
        merchant: `Bench Shop ${String.fromCharCode(65 + (i % 26))}${i}`,
        date: `2026-10-${String(1 + (i % 28)).padStart(2, '0')}`,
        items: [['Item', 1000 + i + 0.25]],
        vatRate: 19,
        currency: 'EUR',
      }));
      const expectedTx = new Map<ReceiptSpec, string>();
      for (const s of specs) {
        const tx = await Transaction.query(bench.db).insert({
          teamId: team.id,
          date: s.date,
          name: s.merchant.toUpperCase(),
          amount: -s.items[0][1],
          currency: 'EUR',
        });
        expectedTx.set(s, tx.id);
      }
      const client = await temporal.client();

      let n = 0;
      async function run(kind: string, make: (s: ReceiptSpec) => Promise<Buffer>, mimeType: string, type: 'document' | 'image') {
        const times: number[] = [];
        const steps = new Map<string, number[]>();
        let suggested = 0;
        // Every file is made before the clock runs: making one must not overlap the previous receipt's work.
        const files: [ReceiptSpec, Buffer][] = [];
        for (const s of specs) files.push([s, await make(s)]);
        for (const [s, bytes] of files) {
          const mediaId = `bench-${kind}-${++n}`;
          messaging.addMedia(mediaId, bytes, mimeType);
          const delivery = signedDelivery(SECRET, [
            {
              from: PHONE,
              id: `wamid.bench.${RUN}.${n}`,
              timestamp: String(Math.floor(Date.now() / 1000)),
              type,
              [type]: { id: mediaId, mime_type: mimeType },
            },
          ]);
          const before = messaging.sent.length;
          const started = performance.now();
          const res = await fetch(`${apiUrl}/webhook/messaging`, { method: 'POST', headers: delivery.headers, body: delivery.raw });
          if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
          // The suggestion, or the "no match yet" text: whichever this receipt's workflow sends first.
          const reply = await messaging.waitFor(
            (m) => messaging.sent.indexOf(m) >= before && (m.type === 'interactive' || m.type === 'text'),
            60_000,
          );
          times.push(performance.now() - started);
          const confirm = reply.type === 'interactive' ? suggestionMessage.parse(reply.body).interactive.action.buttons[0].reply.id : '';
          if (confirm.endsWith(`:${expectedTx.get(s)}`)) suggested++;
          for (const [step, took] of await activityTimes(client, receiptIngestionId(team.id, `wamid.bench.${RUN}.${n}`)))
            steps.set(step, [...(steps.get(step) ?? []), took]);
        }
        times.sort((a, b) => a - b);
        reportFigure({
          name: `receipt (${kind}) webhook → suggestion p50`,
          value: percentile(times, 50),
          unit: 'ms',
          budget: kind === 'PDF' ? { on: 'value', atMost: 300 } : undefined,
        });
        console.log(
          `  ${kind.padEnd(6)} ${specs.length} receipts, ${suggested} suggested correctly: p50 ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))}, max ${ms(times[times.length - 1])}`,
        );
        console.log(`         median per activity step: ${[...steps].map(([step, xs]) => `${step} ${ms(median(xs))}`).join(', ')}`);
      }
      console.log(
        `\nReceiptIngestion, webhook → match suggestion message, one receipt at a time, ${TRANSACTIONS.toLocaleString()} transactions`,
      );
      await run('PDF', pdfReceipt, 'application/pdf', 'document');
      await run('photo', (s) => photoReceipt(s, 'image/jpeg'), 'image/jpeg', 'image');
    });
  } finally {
    await closeServer(server);
    await temporal.close();
    await connection.close();
    await closeActivityDeps(deps);
    await messaging.close();
    await env.teardown();
    await bench.close();
  }
}

/** Per activity in a workflow's history: time queued (scheduled → started) and running (started → completed). */
async function activityTimes(client: Client, workflowId: string): Promise<Array<[string, number]>> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const scheduled = new Map<string, { type: string; at: number }>();
  const started = new Map<string, number>();
  const out: Array<[string, number]> = [];
  for (const e of history.events ?? []) {
    if (e.activityTaskScheduledEventAttributes)
      scheduled.set(String(e.eventId), {
        type: e.activityTaskScheduledEventAttributes.activityType?.name ?? 'activity',
        at: tsToMs(e.eventTime),
      });
    if (e.activityTaskStartedEventAttributes)
      started.set(String(e.activityTaskStartedEventAttributes.scheduledEventId), tsToMs(e.eventTime));
    const done = e.activityTaskCompletedEventAttributes;
    if (!done) continue;
    const s = scheduled.get(String(done.scheduledEventId));
    const begun = started.get(String(done.scheduledEventId));
    if (s && begun !== undefined) out.push([`${s.type} queued`, begun - s.at], [`${s.type} ran`, tsToMs(e.eventTime) - begun]);
  }
  return out;
}

runMain(main);
