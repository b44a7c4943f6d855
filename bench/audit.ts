/**
 * What the audit trail costs a write: `POST /transactions` at maximum load (API key auth, one new
 * manual transaction per request), against two databases that differ only in the trail, one with its
 * row triggers and one with them dropped, in alternating rounds so both meet the same machine. Also
 * how fast `verify` walks a team's chain.
 *
 *   npx tsx bench/audit.ts            (DATABASE_URL or an embedded PostgreSQL)
 *   DURATION=20 ENTRIES=200000 npx tsx bench/audit.ts
 *   BENCH_DATABASE=finops_bench_mine …   (databases of your own, <name>_on and <name>_off, on a server others bench on too)
 */
import { Team, User } from '../shared/db/models';
import { createUserWithTeam } from '../shared/domain/teams/service';
import { sealAuditTrail, verifyAuditTrail } from '../shared/domain/audit-events/service';
import { sha256Hex } from '../shared/domain/crypto/tokens';
import { freePort } from '../scripts/lib/ports';
import { issueBenchKey } from './lib/api-key';
import { benchDatabase, type BenchDatabase } from './lib/database';
import { reportFigure } from './lib/figures';
import { ms } from './lib/latency';
import { load as run, requireEveryAnswerOk, waitForPort as waitFor } from './lib/load';
import { spawnApi } from './lib/server-process';
import { maxLoadSideBySide } from './lib/side-by-side';
import { runMain } from './lib/run-main';

const DURATION = Number(process.env.DURATION ?? 15);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const ENTRIES = Number(process.env.ENTRIES ?? 200_000);

async function teamWithKey(bench: BenchDatabase, name: string) {
  const { db } = bench;
  let team = await Team.query(db).findOne({ name });
  if (!team) ({ team } = await createUserWithTeam(db, { email: `${name}@example.com`, teamName: name }));
  const user = await User.query(db).findOne({ teamId: team.id });
  if (!user) throw new Error(`the bench team ${team.id} has no user`);
  const key = await issueBenchKey(db, { teamId: team.id, userId: user.id, name: 'bench', scopes: ['transactions.write'] });
  return { teamId: team.id, key };
}

async function main() {
  const name = process.env.BENCH_DATABASE ?? 'finops_bench_audit';
  const withTrail = await benchDatabase(`${name}_on`);
  const without = await benchDatabase(`${name}_off`);
  // The comparator: the same schema without the trail's triggers (what the API was before it).
  const { rows: audited } = await without.db.raw<{ rows: { table: string; trigger: string }[] }>(
    `select tgrelid::regclass::text as table, tgname as trigger from pg_trigger where tgname in ('audit_row', 'audit_rows_inserted')`,
  );
  for (const { table, trigger } of audited) await without.db.raw('drop trigger ?? on ??', [trigger, table]);

  const on = await teamWithKey(withTrail, 'bench-audit');
  const off = await teamWithKey(without, 'bench-audit');
  const [portOn, portOff] = [await freePort(), await freePort()];
  const apiOn = spawnApi({ databaseUrl: withTrail.url, port: portOn });
  const apiOff = spawnApi({ databaseUrl: without.url, port: portOff });
  const body = JSON.stringify({ date: '2026-11-20', name: 'Bench stationery', amount: -12.5, currency: 'EUR' });
  const options = (port: number, key: string) => ({
    url: `http://127.0.0.1:${port}/transactions`,
    method: 'POST' as const,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body,
    connections: 20,
  });
  try {
    await waitFor(`127.0.0.1:${portOn}`);
    await waitFor(`127.0.0.1:${portOff}`);
    await run({ ...options(portOn, on.key), duration: 3 }); // warm-up: JIT, pools, caches
    await run({ ...options(portOff, off.key), duration: 3 });
    const { ours, bare } = await maxLoadSideBySide(
      { process: apiOn, options: options(portOn, on.key) },
      { process: apiOff, options: options(portOff, off.key) },
      { rounds: ROUNDS, roundS: DURATION / ROUNDS },
    );
    requireEveryAnswerOk({ 'with the trail': ours, 'without it': bare });
    console.log(`\nPOST /transactions, API key auth, max throughput (${ROUNDS} alternating rounds each)`);
    console.log(
      `  with the audit trail: ${ours.perSecond.toFixed(0)} req/s (p99 ${ms(ours.p99)}, CPU ${ours.cpuPerRequestMs.toFixed(3)} ms/request)`,
    );
    console.log(
      `  without it:           ${bare.perSecond.toFixed(0)} req/s (p99 ${ms(bare.p99)}, CPU ${bare.cpuPerRequestMs.toFixed(3)} ms/request)`,
    );
    console.log(`  ratio: ${(ours.perSecond / bare.perSecond).toFixed(3)}  (target ≥ 0.90)`);
    reportFigure({
      name: 'POST /transactions max throughput with the audit trail',
      value: ours.perSecond,
      unit: 'req/s',
      comparator: { name: 'without the trail', value: bare.perSecond },
      budget: { on: 'ratio', atLeast: 0.9 },
    });

    // verify: a team with ENTRIES sealed entries (written as updates of one tag, so the rows are real entries).
    const { db } = withTrail;
    const [{ n }] = await db('audit_events').where({ teamId: on.teamId }).count<{ n: number }[]>('* as n');
    if (n < ENTRIES) {
      console.log(`writing ${(ENTRIES - n).toLocaleString()} audit entries (once; kept on DATABASE_URL's server)…`);
      await db.raw(
        `insert into transactions (team_id, date, name, amount, currency, manual)
         select ?, date '2026-11-01' - (g % 300), 'Seed ' || g, -1, 'EUR', true from generate_series(1, ?) g`,
        [on.teamId, ENTRIES - n],
      );
    }
    await sealAuditTrail(db, on.teamId);
    const started = performance.now();
    const verified = await verifyAuditTrail(db, on.teamId, '2'.repeat(64));
    const seconds = (performance.now() - started) / 1000;
    if (!verified.ok) throw new Error(`the bench team's chain is broken: ${JSON.stringify(verified.brokenAt)}`);
    const perSecond = verified.entries / seconds;
    console.log(
      `  verify: ${verified.entries.toLocaleString()} entries in ${ms(seconds * 1000)}: ${perSecond.toFixed(0)} entries/s  (target ≥ 200,000)`,
    );
    reportFigure({ name: 'audit-verify walk', value: perSecond, unit: 'entries/s', budget: { on: 'value', atLeast: 200_000 } });
  } finally {
    apiOn.kill('SIGTERM');
    apiOff.kill('SIGTERM');
    for (const [b, k] of [
      [withTrail, on.key],
      [without, off.key],
    ] as const)
      await b
        .db('api_keys')
        .where({ keyHash: sha256Hex(k) })
        .delete();
    await withTrail.close();
    await without.close();
  }
}

runMain(main);
