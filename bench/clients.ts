/**
 * What API clients and agents plan around (issue 32), measured against the compiled API and worker,
 * each in its own process as in production, and a Temporal dev server:
 *   - GET /events at 200 requests/s over a team's log of CLIENTS_EVENTS events (1,000,000), pages of
 *     50 from positions all over the log, and the catch-up rate of one client reading it from the start;
 *   - an MCP tool call through POST /mcp (JSON-RPC `tools/call`, API key), from the request to the
 *     tool's answer, for each read tool over CLIENTS_TRANSACTIONS transactions (200,000);
 *   - freshness at 50 changes/s for CLIENTS_SECONDS (60): a signed bank-a webhook until its new
 *     transaction is listed by GET /transactions; a POST /transactions until its `transaction.created`
 *     webhook reaches a loopback endpoint, and until GET /events (a long poll) serves it.
 *
 *   npm run bench -- clients                 (DATABASE_URL or an embedded PostgreSQL: see waitForFeedHorizon)
 *   CLIENTS_EVENTS=100000 CLIENTS_TRANSACTIONS=20000 CLIENTS_SECONDS=10 npm run bench:clients
 *   CLIENTS_FIGURES=bank npx tsx bench/clients.ts   (some of feed, mcp, bank, change; the seeded team only for feed and mcp)
 *
 * The seeded team (events and transactions) is kept between runs, keyed by size; the freshness team is
 * made for the run and deleted after it.
 */
import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { loadConfig, type Config } from '../shared/config';
import { BankConnection, Team, User } from '../shared/db/models';
import type { Db } from '../shared/db/knex';
import { encodeCursor } from '../shared/domain/common/cursor';
import { encrypt, keyringOf } from '../shared/domain/crypto/encryption';
import { createUserWithTeam } from '../shared/domain/teams/service';
import { createTemporalGateway, type TemporalGateway } from '../shared/temporal/client';
import { requestSync } from '../shared/temporal/sync-connection/calls';
import type { SyncConnectionWorkflow } from '../shared/temporal/sync-connection/contract';
import { localDevServer } from '../scripts/lib/temporal-cli';
import { freePort } from '../scripts/lib/ports';
import { startBankAFake, type BankAFake } from '../test/fakes/bank-a';
import { issueBenchKey } from './lib/api-key';
import { benchDatabase, forgetTeam, seedSpendingYear, settleSeed } from './lib/database';
import { reportFigure } from './lib/figures';
import { ms, percentile } from './lib/latency';
import { waitForPort } from './lib/load';
import { pacedLoad } from './lib/paced-load';
import { runMain } from './lib/run-main';
import { spawnApi, spawnWorker } from './lib/server-process';

const EVENTS = Number(process.env.CLIENTS_EVENTS ?? 1_000_000);
const TRANSACTIONS = Number(process.env.CLIENTS_TRANSACTIONS ?? 200_000);
/** How long each freshness load runs. */
const SECONDS = Number(process.env.CLIENTS_SECONDS ?? 60);
/** How long the paced GET /events load runs. */
const FEED_SECONDS = Number(process.env.CLIENTS_FEED_SECONDS ?? 15);
/** Sequential calls of each MCP tool. */
const MCP_CALLS = Number(process.env.CLIENTS_MCP_CALLS ?? 60);
/** bank-a items the freshness webhooks are spread over: a bank's webhooks come for many connections, not one. */
const CONNECTIONS = Number(process.env.CLIENTS_CONNECTIONS ?? 10);
const FIGURES = new Set((process.env.CLIENTS_FIGURES ?? 'feed,mcp,bank,change').split(','));
const FEED_RATE = 200;
const CHANGE_RATE = 50;
/** After the load, how long a change not yet seen is waited for before it counts as late by this much. */
const GRACE_MS = 10_000;
const TASK_QUEUE = 'bench-clients';
/** The API process's secrets (bench/lib/server-process.ts); the worker decrypts what the API stored, and the reverse. */
const SECRETS = { AUTH_JWT_SECRET: 'x'.repeat(32), ENCRYPTION_KEY: '1'.repeat(64), AUDIT_SIGNING_KEY: '2'.repeat(64) };

const TARGETS = { feedP99: 25, mcpP50: 30, bankP99: 1000, webhookP99: 1000, eventsP99: 250 };

const verdict = (value: number, atMost: number) => `${value <= atMost ? 'pass' : 'FAIL'} (target < ${atMost} ms)`;
const sleep = (msToWait: number) => new Promise((r) => setTimeout(r, msToWait));

async function seededTeam(db: Db) {
  let team = await Team.query(db).findOne({ name: 'bench-clients' });
  if (!team) ({ team } = await createUserWithTeam(db, { email: 'bench-clients@example.com', teamName: 'bench-clients' }));
  const user = await User.query(db).findOne({ teamId: team.id });
  if (!user) throw new Error(`the bench team ${team.id} has no user`);
  const count = async (table: string) => Number((await db(table).where({ teamId: team.id }).count<{ n: string }[]>('* as n'))[0].n);
  let seeded = false;
  if ((await count('events')) !== EVENTS) {
    console.log(`seeding ${EVENTS.toLocaleString()} events (once; kept on DATABASE_URL's server)…`);
    await db('events').where({ teamId: team.id }).delete();
    // Batches of 100,000, each its own transaction: the log of a busy team is written by many.
    for (let from = 1; from <= EVENTS; from += 100_000) {
      await db.raw(
        `insert into events (team_id, type, payload)
         select ?, 'transaction.created', json_build_object(
                  'type', 'transaction.created', 'timestamp', to_char(now(), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                  'data', json_build_object('id', gen_random_uuid(), 'date', date '2026-11-01' - (g / 3000), 'name', 'Merchant ' || (g % 5000),
                                            'amount', -((g % 100000) / 100.0)::float8, 'currency', 'EUR', 'status', 'posted',
                                            'bankAccountId', null, 'manual', false))::text
           from generate_series(?::int, ?::int) g`,
        [team.id, from, Math.min(EVENTS, from + 99_999)],
      );
    }
    seeded = true;
  }
  if ((await count('transactions')) !== TRANSACTIONS) {
    console.log(`seeding ${TRANSACTIONS.toLocaleString()} transactions over a year (once)…`);
    await seedSpendingYear(db, team.id, TRANSACTIONS, 'bench-clients-');
    seeded = true;
  }
  if (seeded) await settleSeed(db, ['transactions', 'events']);
  return { team, user };
}

/**
 * The feed serves an event only once every transaction older than it has ended, in any database of
 * the server (shared/domain/events/service.ts): on a shared DATABASE_URL server another database's
 * long transaction (a bench seeding) holds the whole log back. Wait for it, naming it, rather than
 * measure it. The freshness figures meet the same horizon, so run them where nothing else does.
 */
async function waitForFeedHorizon(db: Db, teamId: string) {
  const deadline = Date.now() + 15 * 60_000;
  let told = false;
  for (;;) {
    const { rows } = await db.raw<{ rows: { held: boolean | null }[] }>(
      'select (select max(xid) from events where team_id = ?) >= pg_snapshot_xmin(pg_current_snapshot()) as held',
      [teamId],
    );
    if (!rows[0].held) return;
    if (!told) {
      const { rows: oldest } = await db.raw<{ rows: { pid: number; datname: string; age: string; query: string }[] }>(
        `select pid, datname, (now() - xact_start)::text as age, left(query, 60) as query from pg_stat_activity
          where pid <> pg_backend_pid() and (backend_xid is not null or backend_xmin is not null) order by xact_start limit 1`,
      );
      console.log(`the feed is held back by an older transaction on this server, waiting for it: ${JSON.stringify(oldest[0] ?? null)}`);
      told = true;
    }
    if (Date.now() > deadline) throw new Error('an older transaction on this server held the event feed back for 15 minutes');
    await sleep(2000);
  }
}

/** GET /events: p99 at 200 req/s from positions spread over the log, then one client reading it all from the start. */
async function feedFigures(base: string, db: Db, teamId: string, key: string) {
  const { rows } = await db.raw<{ rows: { xid: string; seq: string }[] }>(
    `select xid::text as xid, seq::text as seq from events where team_id = ? order by random() limit 2000`,
    [teamId],
  );
  const cursors = rows.map((r) => encodeCursor([r.xid, r.seq]));
  const headers = { authorization: `Bearer ${key}` };
  const request = (i: number) => ({ method: 'GET', path: `/events?pageSize=50&after=${cursors[i % cursors.length]}`, headers });
  await pacedLoad({ url: base, rate: FEED_RATE, durationS: 3, request }); // warm-up: JIT, pools, caches
  const paced = await pacedLoad({ url: base, rate: FEED_RATE, durationS: FEED_SECONDS, request });
  if (paced.non2xx || paced.errors)
    throw new Error(`GET /events: ${paced.non2xx} non-2xx answers, ${paced.errors} errors: ${JSON.stringify(paced.failures)}`);

  let read = 0;
  let cursor: string | undefined;
  const started = performance.now();
  for (;;) {
    const res = await fetch(`${base}/events?pageSize=500${cursor ? `&after=${cursor}` : ''}`, { headers });
    if (!res.ok) throw new Error(`GET /events answered ${res.status}: ${await res.text()}`);
    const page = (await res.json()) as { data: unknown[]; meta: { cursor: string; hasNextPage: boolean } };
    read += page.data.length;
    cursor = page.meta.cursor;
    if (!page.meta.hasNextPage) break;
  }
  const rate = read / ((performance.now() - started) / 1000);
  if (read !== EVENTS) throw new Error(`catching up read ${read} events, not ${EVENTS}`);

  console.log(`\nGET /events, a log of ${EVENTS.toLocaleString()} events, pages of 50 from random positions, API key`);
  console.log(
    `  at ${FEED_RATE} req/s for ${FEED_SECONDS} s: p50 ${ms(paced.p50)}, p99 ${ms(paced.p99)}, max ${ms(paced.max)}  ${verdict(paced.p99, TARGETS.feedP99)}`,
  );
  console.log(`  one client catching up from the start (pages of 500): ${rate.toFixed(0)} events/s`);
  reportFigure({
    name: `GET /events p99 at ${FEED_RATE} req/s`,
    value: paced.p99,
    unit: 'ms',
    budget: { on: 'value', atMost: TARGETS.feedP99 },
  });
  reportFigure({ name: 'GET /events catch-up from the start', value: rate, unit: 'events/s' });
}

/** The read tools an agent calls over the transactions, with arguments that make each do its work. */
const MCP_READ_CALLS: Record<string, Record<string, unknown>> = {
  transactions_search: { query: 'Merchant 42' },
  payments_to: { counterparty: 'Merchant 42' },
  spending: { category: 'software' },
  revenue: {},
  profit_and_loss: {},
  cash_flow: {},
  burn_rate: {},
  runway: {},
};

/** POST /mcp with one `tools/call`, read to the end; fails on anything but the tool's answer. */
async function mcpCall(base: string, key: string, name: string, args: Record<string, unknown>, id: number): Promise<void> {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }),
  });
  const body = await res.text();
  if (!res.ok) throw new Error(`MCP ${name}: ${res.status} ${body}`);
  const answer = JSON.parse(body) as { error?: unknown; result?: { isError?: boolean } };
  if (answer.error || answer.result?.isError) throw new Error(`MCP ${name}: ${body}`);
}

async function mcpFigures(base: string, key: string) {
  console.log(`\nMCP tools/call (POST /mcp, API key), ${TRANSACTIONS.toLocaleString()} transactions, ${MCP_CALLS} sequential calls each`);
  let id = 0;
  for (const [name, args] of Object.entries(MCP_READ_CALLS)) {
    for (let i = 0; i < 3; i++) await mcpCall(base, key, name, args, ++id); // warm-up
    const times: number[] = [];
    for (let i = 0; i < MCP_CALLS; i++) {
      const start = performance.now();
      await mcpCall(base, key, name, args, ++id);
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const p50 = percentile(times, 50);
    console.log(`  ${name.padEnd(20)} p50 ${ms(p50)}  p95 ${ms(percentile(times, 95))}  ${verdict(p50, TARGETS.mcpP50)}`);
    reportFigure({ name: `MCP ${name} p50`, value: p50, unit: 'ms', budget: { on: 'value', atMost: TARGETS.mcpP50 } });
  }
}

/**
 * Times from when each change was made to when it was seen, for changes keyed by what identifies them:
 * a change never seen counts as late by the whole wait, and is counted.
 */
function lateness(made: Map<string, number>, seen: Map<string, number>, waitedUntil: number) {
  const times = [...made].map(([k, at]) => (seen.get(k) ?? waitedUntil) - at).sort((a, b) => a - b);
  const missing = [...made.keys()].filter((k) => !seen.has(k)).length;
  return { p50: percentile(times, 50), p99: percentile(times, 99), max: times.at(-1) ?? NaN, missing, count: times.length };
}

async function waitUntilSeen(made: Map<string, number>, seen: Map<string, number>) {
  const end = performance.now() + GRACE_MS;
  while (performance.now() < end && [...made.keys()].some((k) => !seen.has(k))) await sleep(50);
  return performance.now();
}

/** Calls `send(i)` at `rate` per second for `seconds`, each at its due time (open loop); resolves when all have answered. */
async function paced(rate: number, seconds: number, send: (i: number) => Promise<void>) {
  const start = performance.now() + 10;
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < rate * seconds; i++) {
    const wait = start + (i * 1000) / rate - performance.now();
    if (wait > 1) await sleep(wait);
    inFlight.push(send(i));
  }
  await Promise.all(inFlight);
}

/** A signed bank-a webhook per new transaction, spread over CONNECTIONS items; each is timed until GET /transactions lists it. */
async function bankWebhookFreshness(
  base: string,
  ctx: { db: Db; config: Config; temporal: TemporalGateway; bankA: BankAFake; teamId: string; key: string },
) {
  const { db, config, temporal, bankA, teamId, key } = ctx;
  const items: { itemId: string; connectionId: string; next: number }[] = [];
  for (let c = 0; c < CONNECTIONS; c++) {
    const item = bankA.addItem();
    const conn = await BankConnection.query(db).insert({
      teamId,
      provider: 'bank-a',
      referenceId: item.itemId,
      accessTokenEncrypted: encrypt(item.accessToken, keyringOf(config)),
    });
    items.push({ itemId: item.itemId, connectionId: conn.id, next: 0 });
  }
  // Linked and synced once (accounts, cursor) before the clock starts, as a connection in use is.
  const client = await temporal.client();
  await Promise.all(
    items.map(async (it) => {
      const workflowId = await requestSync(
        temporal,
        { connectionId: it.connectionId, teamId, manualSync: true },
        { institutionName: null, provider: 'bank-a' },
      );
      await client.workflow.getHandle<SyncConnectionWorkflow>(workflowId).result();
    }),
  );

  const tag = `Fresh ${Date.now().toString(36)}`;
  const made = new Map<string, number>();
  const seen = new Map<string, number>();
  const polling = { on: true };
  let refused = 0;
  // One client polling the newest transactions, as a dashboard does; what it lists is stamped as seen.
  const poller = (async () => {
    while (polling.on) {
      const res = await fetch(`${base}/transactions?sort=-createdAt&pageSize=500`, { headers: { authorization: `Bearer ${key}` } });
      const at = performance.now();
      if (!res.ok) throw new Error(`GET /transactions answered ${res.status}: ${await res.text()}`);
      for (const t of ((await res.json()) as { data: { name: string }[] }).data)
        if (t.name.startsWith(tag) && !seen.has(t.name)) seen.set(t.name, at);
      await sleep(20);
    }
  })();
  await paced(CHANGE_RATE, SECONDS, async (i) => {
    const it = items[i % items.length];
    const [tx] = bankA.addTransactions(it.itemId, 1, it.next++);
    tx.name = tx.merchant_name = `${tag} ${i}`;
    const signed = await bankA.sign({
      environment: 'sandbox',
      webhook_type: 'TRANSACTIONS',
      webhook_code: 'SYNC_UPDATES_AVAILABLE',
      item_id: it.itemId,
      new_transactions: 1,
    });
    made.set(tx.name, performance.now());
    const res = await fetch(`${base}/webhook/bank-a`, { method: 'POST', headers: signed.headers, body: signed.raw });
    await res.arrayBuffer();
    if (!res.ok) refused++;
  });
  const waited = await waitUntilSeen(made, seen);
  polling.on = false;
  await poller;
  if (refused) throw new Error(`${refused} signed bank-a webhooks were refused`);
  return lateness(made, seen, waited);
}

/** A loopback webhook endpoint that stamps when each transaction's event arrives. */
async function startArrivalReceiver(arrived: Map<string, number>) {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: { id?: string } };
      if (body.data?.id && !arrived.has(body.data.id)) arrived.set(body.data.id, at);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, close: () => server.close() };
}

/** POST /transactions at 50/s; each change is timed until its webhook arrives and until GET /events serves it. */
async function changeFreshness(base: string, key: string) {
  const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const delivered = new Map<string, number>();
  const receiver = await startArrivalReceiver(delivered);
  const inFeed = new Map<string, number>();
  try {
    const endpoint = await fetch(`${base}/webhook-endpoints`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ url: receiver.url, eventTypes: ['transaction.created'] }),
    });
    if (endpoint.status !== 201) throw new Error(`POST /webhook-endpoints answered ${endpoint.status}: ${await endpoint.text()}`);

    // A client at the end of the feed, long-polling for what comes next.
    let cursor: string | undefined;
    for (;;) {
      const page = (await (await fetch(`${base}/events?pageSize=500${cursor ? `&after=${cursor}` : ''}`, { headers: auth })).json()) as {
        meta: { cursor: string; hasNextPage: boolean };
      };
      cursor = page.meta.cursor;
      if (!page.meta.hasNextPage) break;
    }
    const following = { on: true };
    const follower = (async () => {
      while (following.on) {
        const res = await fetch(`${base}/events?pageSize=500&wait=2&after=${cursor}`, { headers: auth });
        const at = performance.now();
        if (!res.ok) throw new Error(`GET /events answered ${res.status}: ${await res.text()}`);
        const page = (await res.json()) as { data: { type: string; data: { id: string } }[]; meta: { cursor: string } };
        for (const e of page.data) if (e.type === 'transaction.created' && !inFeed.has(e.data.id)) inFeed.set(e.data.id, at);
        cursor = page.meta.cursor;
      }
    })();

    const made = new Map<string, number>();
    // When each change was answered (its commit is before): what the two figures after it start from.
    const answered = new Map<string, number>();
    let refused = 0;
    await paced(CHANGE_RATE, SECONDS, async (i) => {
      const at = performance.now();
      const res = await fetch(`${base}/transactions`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ date: '2026-11-20', name: `Change ${i}`, amount: -(1 + (i % 500)), currency: 'EUR' }),
      });
      if (res.status !== 201) {
        refused++;
        await res.arrayBuffer();
        return;
      }
      const { id } = ((await res.json()) as { data: { id: string } }).data;
      answered.set(id, performance.now());
      made.set(id, at);
    });
    if (refused) throw new Error(`${refused} POST /transactions were refused`);
    const waitedForHooks = await waitUntilSeen(made, delivered);
    const waitedForFeed = await waitUntilSeen(made, inFeed);
    following.on = false;
    await follower;
    return {
      answer: lateness(made, answered, waitedForFeed),
      webhook: lateness(made, delivered, waitedForHooks),
      feed: lateness(made, inFeed, waitedForFeed),
    };
  } finally {
    receiver.close();
  }
}

function reportFreshness(name: string, what: string, r: ReturnType<typeof lateness>, atMost: number) {
  console.log(
    `  ${what}: p50 ${ms(r.p50)}, p99 ${ms(r.p99)}, max ${ms(r.max)} over ${r.count} changes${r.missing ? `, ${r.missing} NOT SEEN within ${GRACE_MS / 1000} s` : ''}  ${verdict(r.p99, atMost)}`,
  );
  reportFigure({ name, value: r.p99, unit: 'ms', budget: { on: 'value', atMost } });
}

async function main() {
  console.log(
    `load average at the start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} (on a shared machine the figures move with it)`,
  );
  const bench = await benchDatabase('finops_bench_clients');
  const { db } = bench;
  const seeded = FIGURES.has('feed') || FIGURES.has('mcp') ? await seededTeam(db) : null;
  if (seeded) await waitForFeedHorizon(db, seeded.team.id);
  const env = await TestWorkflowEnvironment.createLocal({ server: localDevServer() });
  const bankA = await startBankAFake();
  const apiEnv = {
    TEMPORAL_ADDRESS: env.address,
    TEMPORAL_TASK_QUEUE: TASK_QUEUE,
    BANK_A_API_URL: bankA.url,
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    CHAT_RATE_LIMIT: '100000000',
  };
  const config = loadConfig({ ...process.env, ...SECRETS, ...apiEnv, LOG_LEVEL: 'warn', DATABASE_URL: bench.url });
  const temporal = createTemporalGateway({ address: env.address, namespace: 'default', taskQueue: TASK_QUEUE });
  const port = await freePort();
  const api = spawnApi({ databaseUrl: bench.url, port, env: apiEnv });
  const worker = spawnWorker({ databaseUrl: bench.url, env: apiEnv });
  const exited = (child: ChildProcess) =>
    new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
  const base = `http://127.0.0.1:${port}`;
  const keys: string[] = [];
  const key = async (teamId: string, userId: string, scopes: string[]) => {
    const k = await issueBenchKey(db, { teamId, userId, name: 'bench-clients', scopes });
    keys.push(k);
    return k;
  };
  let fresh: string | undefined;
  try {
    await waitForPort(`127.0.0.1:${port}`);
    if (seeded && FIGURES.has('feed'))
      await feedFigures(base, db, seeded.team.id, await key(seeded.team.id, seeded.user.id, ['events.read']));
    if (seeded && FIGURES.has('mcp'))
      await mcpFigures(base, await key(seeded.team.id, seeded.user.id, ['transactions.read', 'reports.read']));
    if (!FIGURES.has('bank') && !FIGURES.has('change')) return;

    const made = await createUserWithTeam(db, { email: `bench-clients-${Date.now()}@example.com`, teamName: 'bench-clients-fresh' });
    fresh = made.team.id;
    const freshKey = await key(fresh, made.user.id, ['transactions.read', 'transactions.write', 'events.read', 'teams.write']);
    console.log(`\nFreshness at ${CHANGE_RATE} changes/s for ${SECONDS} s`);
    if (FIGURES.has('bank')) {
      const bank = await bankWebhookFreshness(base, { db, config, temporal, bankA, teamId: fresh, key: freshKey });
      reportFreshness(
        `signed bank webhook → GET /transactions p99 at ${CHANGE_RATE}/s`,
        `signed bank-a webhook → its transaction in GET /transactions (${CONNECTIONS} connections, polled every 20 ms)`,
        bank,
        TARGETS.bankP99,
      );
    }
    if (FIGURES.has('change')) {
      const { answer, webhook, feed } = await changeFreshness(base, freshKey);
      console.log(`  POST /transactions sent → answered: p50 ${ms(answer.p50)}, p99 ${ms(answer.p99)}, max ${ms(answer.max)}`);
      reportFreshness(
        `change → outbound webhook received p99 at ${CHANGE_RATE}/s`,
        'POST /transactions sent → its transaction.created at a loopback endpoint',
        webhook,
        TARGETS.webhookP99,
      );
      reportFreshness(
        `change → GET /events p99 at ${CHANGE_RATE}/s`,
        'POST /transactions sent → served by a GET /events long poll',
        feed,
        TARGETS.eventsP99,
      );
    }
  } finally {
    api.kill('SIGTERM');
    worker.kill('SIGTERM');
    await Promise.all([exited(api), exited(worker)]);
    await db('api_keys').where({ name: 'bench-clients' }).delete();
    if (fresh) await forgetTeam(db, fresh);
    await temporal.close();
    await bankA.close();
    await env.teardown();
    await bench.close();
  }
}

runMain(main);
