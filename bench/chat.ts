/**
 * The assistant offline (no model): POST /chat, read to its last server-sent event, for the common
 * questions over a team with ROWS transactions; next to the report endpoint the answer is built on,
 * so the ratio is what the chat adds (parsing, the conversation and both messages stored, the stream).
 *
 *   npm run bench:chat                       (DATABASE_URL or an embedded PostgreSQL)
 *   ROWS=20000 REQUESTS=30 npm run bench:chat
 */
import type { Server } from 'node:http';
import { createApp } from '../api/app';
import { createApiDeps } from '../api/deps';
import { loadConfig } from '../shared/config';
import { Team, User } from '../shared/db/models';
import { createUserWithTeam } from '../shared/domain/teams/service';
import { createLogger } from '../shared/logger';
import { createTemporalGateway } from '../shared/temporal/client';
import { issueBenchKey } from './lib/api-key';
import { benchDatabase, seedSpendingYear, settleSeed } from './lib/database';
import { reportFigure } from './lib/figures';
import { ms, percentile } from './lib/latency';
import { runMain } from './lib/run-main';

const ROWS = Number(process.env.ROWS ?? 200_000);
const REQUESTS = Number(process.env.REQUESTS ?? 60);

async function main() {
  const bench = await benchDatabase('finops_bench_chat');
  const { db } = bench;
  let team = await Team.query(db).findOne({ name: 'bench-chat' });
  if (!team) ({ team } = await createUserWithTeam(db, { email: 'bench-chat@example.com', teamName: 'bench-chat' }));
  const user = await User.query(db).findOne({ teamId: team.id });
  if (!user) throw new Error(`the bench team ${team.id} has no user`);
  const [{ n }] = await db('transactions').where({ teamId: team.id }).count<{ n: number }[]>('* as n');
  if (n !== ROWS) {
    console.log(`seeding ${ROWS.toLocaleString()} transactions over a year (once; kept on DATABASE_URL's server)…`);
    await seedSpendingYear(db, team.id, ROWS, 'bench-chat-');
    await settleSeed(db);
  }
  const key = await issueBenchKey(db, {
    teamId: team.id,
    userId: user.id,
    name: 'bench',
    scopes: ['chat.write', 'reports.read', 'transactions.read'],
  });

  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn', CHAT_RATE_LIMIT: '100000000', RATE_LIMIT_PER_MINUTE: '100000000' });
  const temporal = createTemporalGateway({ address: '127.0.0.1:1', namespace: 'default', taskQueue: 'bench' });
  const deps = createApiDeps({ config, db, temporal, logger: createLogger(config) });
  const server: Server = await new Promise((resolve) => {
    const s = createApp(deps).listen(0, '127.0.0.1', () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

  const timed = async (request: () => Promise<Response>) => {
    const times: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const start = performance.now();
      const res = await request();
      const body = await res.text();
      if (!res.ok) throw new Error(`${res.status}: ${body}`);
      times.push(performance.now() - start);
    }
    return times.sort((a, b) => a - b);
  };
  const chat = (message: string) => () =>
    fetch(`${base}/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message }),
    });
  const now = new Date();
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0)).toISOString().slice(0, 10);
  const report = await timed(() =>
    fetch(`${base}/reports/spending?from=${from}&to=${to}`, { headers: { authorization: `Bearer ${key}` } }),
  );

  console.log(`\nPOST /chat offline, ${ROWS.toLocaleString()} transactions, ${REQUESTS} sequential requests each (API key, in process)`);
  console.log(
    `  GET /reports/spending (last month, the comparator)   p50 ${ms(percentile(report, 50))}  p95 ${ms(percentile(report, 95))}`,
  );
  for (const question of [
    'How much did we spend on software last month?',
    'What was our revenue last month?',
    'What is our runway?',
    'How much did we pay Merchant 42 this year?',
  ]) {
    const t = await timed(chat(question));
    const ratio = percentile(t, 50) / percentile(report, 50);
    reportFigure({
      name: `chat ${JSON.stringify(question)} p50`,
      value: percentile(t, 50),
      unit: 'ms',
      comparator: { name: 'GET /reports/spending', value: percentile(report, 50) },
    });
    console.log(
      `  ${JSON.stringify(question).padEnd(50)} p50 ${ms(percentile(t, 50))}  p95 ${ms(percentile(t, 95))}  (${ratio.toFixed(2)}× the report)`,
    );
  }

  server.close();
  await db('api_keys').where({ teamId: team.id, name: 'bench' }).delete();
  await db('chat_conversations').where({ teamId: team.id }).delete();
  await temporal.close();
  await bench.close();
}

runMain(main);
