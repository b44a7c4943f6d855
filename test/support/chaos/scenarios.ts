import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { createDb, migrateLatest, type Db } from '../../../shared/db/knex';
import { startEmbeddedPostgres, type RunningPostgres } from '../../../scripts/lib/embedded-postgres';
import { freePort } from '../../../scripts/lib/ports';
import { receiptIngestionId, type ReceiptIngestionWorkflow } from '../../../shared/temporal/receipt-ingestion/contract';
import { syncConnectionId, type SyncConnectionWorkflow } from '../../../shared/temporal/sync-connection/contract';
import { pdfReceipt } from '../../fixtures/receipts';
import { startBankAFake } from '../../fakes/bank-a';
import { signedDelivery, startMessagingFake } from '../../fakes/messaging';
import { createTeamAndOwner } from '../fixtures';
import { startApiProcess, startTemporalServer, startWorkerProcess, type Running } from './processes';

/** What a fault scenario counted: what was accepted, what came out the other end, lost and done twice. */
export interface ScenarioResult {
  scenario: string;
  accepted: number;
  processed: number;
  lost: number;
  duplicated: number;
  seconds: number;
  notes?: string;
}

const MESSAGING = { token: 'chaos-messaging-token', secret: 'chaos-app-secret' };

/** The environment every process of a scenario shares; the database and Temporal differ per scenario. */
function processEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.CHAOS_VERBOSE ? 'warn' : 'error',
    RATE_LIMIT_PER_MINUTE: '100000000',
    AUTH_FAILURES_PER_MINUTE: '100000000',
    MESSAGING_ACCESS_TOKEN: MESSAGING.token,
    MESSAGING_APP_SECRET: MESSAGING.secret,
    FX_RATES_SCHEDULE: 'false',
    WEBHOOK_RELAY_INTERVAL: '500',
    WEBHOOK_RELAY_STALE_AFTER: '3s',
    TEMPORAL_TASK_QUEUE: `chaos-${randomBytes(4).toString('hex')}`,
    ...extra,
  };
}

/**
 * N chat messages from N new numbers: each is answered with one welcome message through the
 * SendChatMessage workflow, which the messaging fake records. A message answered once was processed
 * exactly once; answered twice, done twice; not at all, lost.
 */
function chatMessages(count: number, prefix: string) {
  // Numbers unique to this run and batch: a welcome goes to each number once per message.
  const run = String(randomBytes(2).readUInt16BE()).padStart(5, '0');
  return Array.from({ length: count }, (_, i) => {
    const from = `4${run}${String(i).padStart(7, '0')}`;
    const id = `wamid.${prefix}.${run}.${i}`;
    return { id, from, body: signedDelivery(MESSAGING.secret, [{ from, id, type: 'text', text: { body: 'hello' } }]) };
  });
}
type ChatMessage = ReturnType<typeof chatMessages>[number];

/** Sends deliveries with bounded concurrency; resolves with the ids that got a 200 (at least once). */
async function deliver(
  targets: (i: number) => string,
  deliveries: ChatMessage[],
  concurrency = 24,
  accepted = new Set<string>(),
): Promise<Set<string>> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < deliveries.length) {
        const i = next++;
        const d = deliveries[i];
        try {
          const res = await fetch(`${targets(i)}/webhook/messaging`, { method: 'POST', headers: d.body.headers, body: d.body.raw });
          if (res.status === 200) accepted.add(d.id);
          await res.arrayBuffer();
        } catch {
          // the process went away mid-request: the provider would deliver it again
        }
      }
    }),
  );
  return accepted;
}

/** Waits until every accepted message was answered (or the time is up), then counts. */
async function countAnswers(
  messaging: Awaited<ReturnType<typeof startMessagingFake>>,
  accepted: Set<string>,
  messages: ChatMessage[],
  timeoutMs: number,
): Promise<{ processed: number; duplicated: number; lost: number; notes?: string }> {
  const numberOf = new Map(messages.map((m) => [m.id, m.from]));
  const count = () => {
    const answers = new Map<string, number[]>();
    for (const s of messaging.sent) {
      const times = answers.get(s.to);
      if (times) times.push(s.at);
      else answers.set(s.to, [s.at]);
    }
    const processed = [...accepted].filter((id) => answers.has(numberOf.get(id) ?? '')).length;
    const twice = [...answers.values()].filter((times) => times.length > 1);
    // How far apart the copies went out tells which guard let them through (a retry at once, or after a lease).
    const apart = twice.map((times) => (times[times.length - 1] - times[0]) / 1000).sort((a, b) => a - b);
    const notes = apart.length ? `sent twice ${apart[0]}–${apart[apart.length - 1]} s apart` : undefined;
    return { processed, duplicated: twice.length, lost: accepted.size - processed, ...(notes && { notes }) };
  };
  const deadline = Date.now() + timeoutMs;
  while (count().processed < accepted.size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
  await new Promise((r) => setTimeout(r, 1000)); // anything sent twice would show up now
  return count();
}

/**
 * A workflow's result, or, once `ms` have passed, an error saying where the run stood and what its
 * pending activities last failed with: a stuck run then fails the scenario with its cause, instead
 * of the test timing out with none.
 */
async function resultWithin(handle: WorkflowHandle, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void handle.describe().then(
        (d) => {
          const pending = (d.raw.pendingActivities ?? []).map(
            (a) => `${a.activityType?.name} attempt ${a.attempt}: ${a.lastFailure?.message ?? 'no failure'}`,
          );
          reject(new Error(`${handle.workflowId} still ${d.status.name} after ${ms} ms; pending: ${pending.join('; ') || 'none'}`));
        },
        (err: unknown) => reject(new Error(`${handle.workflowId} not finished after ${ms} ms, and describing it failed: ${String(err)}`)),
      );
    }, ms);
  });
  try {
    return await Promise.race([handle.result(), late]);
  } finally {
    clearTimeout(timer);
  }
}

const shuffled = <T>(items: T[]): T[] => {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
};

export interface SuiteServices {
  /** A database the scenario may use (a fresh test database). */
  databaseUrl: string;
  /** The suite's Temporal server. */
  temporalAddress: string;
}

/**
 * Two API processes and two workers against one Temporal and one PostgreSQL: a burst of signed
 * webhooks, each delivered twice (once to each process, in random order), is acted on once each.
 */
export async function webhookStormAcrossProcesses(services: SuiteServices, events: number): Promise<ScenarioResult> {
  const started = Date.now();
  const messaging = await startMessagingFake(MESSAGING.token);
  const env = processEnv({
    DATABASE_URL: services.databaseUrl,
    TEMPORAL_ADDRESS: services.temporalAddress,
    MESSAGING_API_URL: messaging.url,
  });
  const procs: Running[] = [];
  try {
    procs.push(startWorkerProcess(env), startWorkerProcess(env));
    const [a, b] = await Promise.all([startApiProcess(env), startApiProcess(env)]);
    procs.push(a, b);
    const messages = chatMessages(events, 'storm');
    const twice = shuffled([...messages, ...messages]);
    const accepted = await deliver((i) => (i % 2 ? b.url : a.url), twice, 32);
    const counts = await countAnswers(messaging, accepted, messages, 180_000);
    return {
      scenario: 'storm: 2 APIs, 2 workers, every webhook twice, out of order',
      accepted: accepted.size,
      ...counts,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    await messaging.close();
  }
}

/**
 * kill -9 of the API in the middle of a webhook burst: what was not answered is delivered again to a
 * new process (as providers retry); every event that got a 200 is acted on exactly once, including
 * those the dead process had recorded and not finished (its successor's relay takes them up).
 */
export async function apiKilledDuringBurst(services: SuiteServices, events: number): Promise<ScenarioResult> {
  const started = Date.now();
  const messaging = await startMessagingFake(MESSAGING.token);
  const env = processEnv({
    DATABASE_URL: services.databaseUrl,
    TEMPORAL_ADDRESS: services.temporalAddress,
    MESSAGING_API_URL: messaging.url,
  });
  const worker = startWorkerProcess(env);
  let first: Running | undefined = await startApiProcess(env);
  let second: Running | undefined;
  try {
    const messages = chatMessages(events, 'kill9');
    const firstUrl = first.url;
    const acceptedSoFar = new Set<string>();
    const burst = deliver(() => firstUrl, messages, 16, acceptedSoFar);
    // Strike once a third of the burst has been answered 200, with requests still in flight.
    while (acceptedSoFar.size < events / 3) await new Promise((r) => setTimeout(r, 5));
    await first.kill();
    first = undefined;
    const acceptedBeforeKill = await burst;
    second = await startApiProcess(env);
    const secondUrl = second.url;
    const retried = await deliver(
      () => secondUrl,
      messages.filter((m) => !acceptedBeforeKill.has(m.id)),
      16,
    );
    const accepted = new Set([...acceptedBeforeKill, ...retried]);
    const counts = await countAnswers(messaging, accepted, messages, 120_000);
    return {
      scenario: 'kill -9 of the API during a webhook burst',
      accepted: accepted.size,
      ...counts,
      seconds: (Date.now() - started) / 1000,
      notes: [`${acceptedBeforeKill.size} answered 200 before the kill`, counts.notes].filter(Boolean).join('; '),
    };
  } finally {
    await first?.kill();
    await second?.stop();
    await worker.stop();
    await messaging.close();
  }
}

/**
 * Temporal stops for `outageS` while webhooks keep arriving: the API answers 200 and records them,
 * and once Temporal is back the relay starts their workflows; nothing is lost or done twice.
 */
export async function temporalOutage(
  services: Pick<SuiteServices, 'databaseUrl'>,
  events: number,
  outageS: number,
): Promise<ScenarioResult> {
  const started = Date.now();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chaos-temporal-'));
  const port = await freePort();
  let temporal: Running | undefined = await startTemporalServer({ port, dataDir });
  const messaging = await startMessagingFake(MESSAGING.token);
  const env = processEnv({ DATABASE_URL: services.databaseUrl, TEMPORAL_ADDRESS: temporal.url, MESSAGING_API_URL: messaging.url });
  const worker = startWorkerProcess(env);
  const api = await startApiProcess(env);
  try {
    const before = chatMessages(Math.ceil(events / 2), 'beforeoutage');
    const during = chatMessages(Math.floor(events / 2), 'duringoutage');
    const acceptedBefore = await deliver(() => api.url, before, 16);
    // What was under way finishes first: an activity that had already called the provider when
    // Temporal went away is retried, and a provider without idempotency keys would see it twice.
    await countAnswers(messaging, acceptedBefore, before, 120_000);
    await temporal.stop();
    temporal = undefined;
    const outageStarted = Date.now();
    const acceptedDuring = await deliver(() => api.url, during, 16);
    const answeredDuringOutage = acceptedDuring.size;
    await new Promise((r) => setTimeout(r, Math.max(0, outageS * 1000 - (Date.now() - outageStarted))));
    temporal = await startTemporalServer({ port, dataDir });
    const messages = [...before, ...during];
    const accepted = new Set([...acceptedBefore, ...acceptedDuring]);
    const counts = await countAnswers(messaging, accepted, messages, 240_000);
    return {
      scenario: `Temporal down for ${outageS} s while webhooks arrive`,
      accepted: accepted.size,
      ...counts,
      seconds: (Date.now() - started) / 1000,
      notes: [`${answeredDuringOutage} of ${during.length} answered 200 during the outage`, counts.notes].filter(Boolean).join('; '),
    };
  } finally {
    await api.stop();
    await worker.stop();
    await temporal?.stop();
    await messaging.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * PostgreSQL restarts in the middle of a large bank sync: the sync finishes with exactly the
 * provider's transactions, none lost, none twice.
 */
export async function postgresRestartDuringSync(
  services: Pick<SuiteServices, 'temporalAddress'>,
  transactions: number,
): Promise<ScenarioResult> {
  const started = Date.now();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chaos-pg-'));
  const pgPort = await freePort();
  let pg: RunningPostgres | undefined;
  let db: Db | undefined;
  const procs: Running[] = [];
  const bankA = await startBankAFake();
  try {
    // Persistent: a non-persistent embedded server deletes its data when stopped, and this one must come back.
    pg = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'pg'), port: pgPort, persistent: true });
    const url = pg.url('postgres');
    db = createDb({ url, poolMax: 2 });
    await migrateLatest(db);
    const owner = await createTeamAndOwner(db, 'Chaos');
    const item = bankA.addItem();
    bankA.addTransactions(item.itemId, transactions);
    bankA.slowSync(300);
    const env = processEnv({ DATABASE_URL: url, TEMPORAL_ADDRESS: services.temporalAddress, BANK_A_API_URL: bankA.url });
    procs.push(startWorkerProcess(env));
    const api = await startApiProcess(env);
    procs.push(api);
    const res = await fetch(`${api.url}/bank-connections`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.sessionToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'bank-a', publicToken: item.publicToken }),
    });
    const { data } = (await res.json()) as { data: { id: string } };
    const count = async () => Number((await db!('transactions').where({ teamId: owner.team.id }).count<{ n: string }[]>('* as n'))[0].n);
    while ((await count().catch(() => 0)) < transactions / 3) await new Promise((r) => setTimeout(r, 100));
    await pg.restart();
    bankA.slowSync(0);
    const connection = await Connection.connect({ address: services.temporalAddress });
    try {
      await resultWithin(new Client({ connection }).workflow.getHandle<SyncConnectionWorkflow>(syncConnectionId(data.id)), 200_000);
    } finally {
      await connection.close();
    }
    const rows = (
      await db('transactions').where({ teamId: owner.team.id }).select<{ providerTransactionId: string }[]>('providerTransactionId')
    ).map((r) => r.providerTransactionId);
    const distinct = new Set(rows).size;
    return {
      scenario: 'PostgreSQL restarted during a bank sync',
      accepted: transactions,
      processed: distinct,
      lost: transactions - distinct,
      duplicated: rows.length - distinct,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    await db?.destroy();
    await pg?.stop();
    await bankA.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Receipts arrive by email while PostgreSQL restarts under the worker and the API: every receipt
 * that got a 200 becomes exactly one inbox item with one document and one match suggestion for its
 * transaction, and every ReceiptIngestion run finishes.
 */
export async function postgresRestartDuringReceipts(
  services: Pick<SuiteServices, 'temporalAddress'>,
  receipts: number,
): Promise<ScenarioResult> {
  const started = Date.now();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chaos-pg-receipts-'));
  const pgPort = await freePort();
  let pg: RunningPostgres | undefined;
  let db: Db | undefined;
  const procs: Running[] = [];
  try {
    pg = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'pg'), port: pgPort, persistent: true });
    const url = pg.url('postgres');
    db = createDb({ url, poolMax: 2 });
    await migrateLatest(db);
    const owner = await createTeamAndOwner(db, 'Chaos receipts');
    const teamId = owner.team.id;
    const merchants = Array.from({ length: receipts }, (_, i) => ({ name: `Vendor ${i + 1}`, amount: 11 + i, date: '2026-05-14' }));
    await db('transactions').insert(
      merchants.map((m) => ({ teamId, date: m.date, name: m.name.toUpperCase(), amount: -m.amount, currency: 'EUR' })),
    );
    const pdfs = await Promise.all(
      merchants.map((m) => pdfReceipt({ merchant: m.name, date: m.date, items: [['Service', m.amount]], vatRate: 19, currency: 'EUR' })),
    );
    const auth = { user: 'inbox', password: randomBytes(12).toString('hex') };
    const env = processEnv({
      DATABASE_URL: url,
      TEMPORAL_ADDRESS: services.temporalAddress,
      INBOX_WEBHOOK_USERNAME: auth.user,
      INBOX_WEBHOOK_PASSWORD: auth.password,
      INBOX_DOMAIN: 'in.example.com',
      RECEIPT_DECISION_TIMEOUT: '2s',
      STORAGE_DIR: path.join(dataDir, 'storage'),
    });
    procs.push(startWorkerProcess(env));
    const api = await startApiProcess(env);
    procs.push(api);

    const send = (i: number) =>
      fetch(`${api.url}/webhook/inbox`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Basic ${Buffer.from(`${auth.user}:${auth.password}`).toString('base64')}`,
        },
        body: JSON.stringify({
          MessageID: `chaos-receipt-${i}`,
          OriginalRecipient: `${owner.team.inboxId}@in.example.com`,
          FromFull: { Email: 'billing@example.org', Name: merchants[i].name },
          Subject: 'Your receipt',
          Attachments: [
            { Name: 'receipt.pdf', Content: pdfs[i].toString('base64'), ContentType: 'application/pdf', ContentLength: pdfs[i].length },
          ],
        }),
      }).then(async (res) => (await res.arrayBuffer(), res.status));
    // The first third goes in, PostgreSQL restarts while those runs read and match, and the rest
    // arrive while it comes back: the provider redelivers what was not answered 200.
    const accepted = new Set<number>();
    const deliverAll = async (indexes: number[]) => {
      for (let attempt = 0; attempt < 60 && indexes.some((i) => !accepted.has(i)); attempt++) {
        await Promise.all(
          indexes
            .filter((i) => !accepted.has(i))
            .map((i) =>
              send(i).then(
                (s) => s === 200 && accepted.add(i),
                () => undefined,
              ),
            ),
        );
        if (indexes.some((i) => !accepted.has(i))) await new Promise((r) => setTimeout(r, 500));
      }
    };
    const all = merchants.map((_, i) => i);
    const firstThird = all.slice(0, Math.ceil(receipts / 3));
    await deliverAll(firstThird);
    const items = async () => Number((await db!('inbox_items').where({ teamId }).count<{ n: string }[]>('* as n'))[0].n);
    while ((await items().catch(() => 0)) < 1) await new Promise((r) => setTimeout(r, 50));
    await Promise.all([pg.restart(), deliverAll(all.slice(firstThird.length))]);
    await deliverAll(all); // anything refused during the restart, sent again

    const connection = await Connection.connect({ address: services.temporalAddress });
    try {
      const client = new Client({ connection });
      await Promise.all(
        [...accepted].map((i) =>
          resultWithin(
            client.workflow.getHandle<ReceiptIngestionWorkflow>(receiptIngestionId(teamId, `chaos-receipt-${i}:receipt.pdf`)),
            200_000,
          ),
        ),
      );
    } finally {
      await connection.close();
    }
    const rows = await db('inbox_items as i')
      .leftJoin('match_suggestions as s', 's.inbox_item_id', 'i.id')
      .leftJoin('transactions as t', 't.id', 's.transaction_id')
      .where('i.team_id', teamId)
      .select<{ reference: string; documentId: string | null; txName: string | null }[]>(
        'i.reference',
        'i.document_id',
        't.name as tx_name',
      );
    const byReference = new Map<string, number>();
    for (const r of rows) byReference.set(r.reference, (byReference.get(r.reference) ?? 0) + 1);
    const matched = [...accepted].filter((i) =>
      rows.some((r) => r.reference === `chaos-receipt-${i}:receipt.pdf` && r.documentId && r.txName === merchants[i].name.toUpperCase()),
    ).length;
    const documents = Number((await db('documents').where({ teamId }).count<{ n: string }[]>('* as n'))[0].n);
    return {
      scenario: 'PostgreSQL restarted during receipt ingestion',
      accepted: accepted.size,
      processed: matched,
      lost: accepted.size - matched,
      duplicated: [...byReference.values()].filter((n) => n > 1).length + Math.max(0, documents - byReference.size),
      seconds: (Date.now() - started) / 1000,
      notes: `${receipts} sent, ${byReference.size} inbox items, ${documents} documents`,
    };
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    await db?.destroy();
    await pg?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
