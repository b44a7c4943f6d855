/**
 * GET /search's query: one team with 1,000,000 transactions, 50,000 documents with text
 * and 20,000 customers (seeded once, kept on DATABASE_URL's server), then 200 mixed queries one after
 * another: common and rare words, partial names, amounts, phrases in document text, and misses.
 * Prints p50 and p99 of the search service (the SQL and the snippets; the gateway around it is
 * measured by bench/transactions.ts). Goal: p99 under 50 ms.
 *
 *   npx tsx bench/search.ts
 *   TRANSACTIONS=100000 DOCUMENTS=5000 CUSTOMERS=2000 npx tsx bench/search.ts
 */
import { performance } from 'node:perf_hooks';
import { Team, User } from '../shared/db/models';
import type { Db } from '../shared/db/knex';
import type { Principal } from '../shared/domain/auth/principal';
import { searchQuery } from '../shared/domain/search/schema';
import { search } from '../shared/domain/search/service';
import { createUserWithTeam } from '../shared/domain/teams/service';
import { withinTeam } from '../shared/db/team-wall';
import { benchDatabase, settleSeed } from './lib/database';
import { reportFigure } from './lib/figures';
import { ms, percentile } from './lib/latency';

const TRANSACTIONS = Number(process.env.TRANSACTIONS ?? 1_000_000);
const DOCUMENTS = Number(process.env.DOCUMENTS ?? 50_000);
const CUSTOMERS = Number(process.env.CUSTOMERS ?? 20_000);
const QUERIES = Number(process.env.QUERIES ?? 200);

const WORDS = [
  'lease',
  'office',
  'invoice',
  'contract',
  'insurance',
  'travel',
  'hotel',
  'software',
  'licence',
  'renewal',
  'tax',
  'payroll',
];

async function count(db: Db, table: string, teamId: string): Promise<number> {
  const [{ n }] = await db(table).where({ teamId }).count<Array<{ n: string }>>('* as n');
  return Number(n);
}

async function seededTeam(db: Db): Promise<Principal> {
  const name = `bench-search-${TRANSACTIONS}-${DOCUMENTS}-${CUSTOMERS}`;
  let team = await Team.query(db).findOne({ name });
  if (!team) ({ team } = await createUserWithTeam(db, { email: `${name}@example.com`, teamName: name }));
  const user = await User.query(db).findOne({ teamId: team.id });
  if (!user) throw new Error(`the bench team ${team.id} has no user`);
  const teamId = team.id;
  if ((await count(db, 'transactions', teamId)) !== TRANSACTIONS) {
    console.log(`seeding ${TRANSACTIONS.toLocaleString()} transactions (once)…`);
    await db('transactions').where({ teamId }).delete();
    for (let from = 1; from <= TRANSACTIONS; from += 250_000) {
      await db.raw(
        `insert into transactions (team_id, date, name, description, amount, currency, provider_transaction_id, method)
         select ?, date '2026-11-01' - (g % 1500), 'Merchant ' || (g % 5000), 'card payment ' || (g % 97), -((g % 100000) / 100.0), 'EUR',
                'bench-' || g, 'card_purchase'
           from generate_series(?::int, ?::int) g`,
        [teamId, from, Math.min(TRANSACTIONS, from + 249_999)],
      );
    }
  }
  if ((await count(db, 'documents', teamId)) !== DOCUMENTS) {
    console.log(`seeding ${DOCUMENTS.toLocaleString()} documents with text (once)…`);
    await db('documents').where({ teamId }).delete();
    await db.raw(
      `insert into documents (team_id, name, storage_key, mime_type, size, sha256, content, processing_status)
       select ?, 'document-' || g || '.pdf', 'bench/' || g, 'application/pdf', 1000, md5(g::text) || md5((g + 1)::text),
              (select string_agg((array[${WORDS.map((w) => `'${w}'`).join(',')}])[1 + ((g * 7 + k * 13) % ${WORDS.length})] || ' clause ' || ((g + k) % 900), ' ')
                 from generate_series(1, 300) k),
              'completed'
         from generate_series(1, ?::int) g`,
      [teamId, DOCUMENTS],
    );
  }
  if ((await count(db, 'customers', teamId)) !== CUSTOMERS) {
    console.log(`seeding ${CUSTOMERS.toLocaleString()} customers (once)…`);
    await db('customers').where({ teamId }).delete();
    await db.raw(
      `insert into customers (team_id, name, email, city)
       select ?, 'Customer ' || g || ' ' || (array['Holdings','Labs','GmbH','Studio','Partners'])[1 + g % 5], 'ap' || g || '@example.com', 'City ' || (g % 300)
         from generate_series(1, ?::int) g`,
      [teamId, CUSTOMERS],
    );
  }
  await settleSeed(db, ['transactions', 'documents', 'customers']);
  return { kind: 'session', userId: user.id, teamId, scopes: ['apis.all'] };
}

/** A mix a user of the search box would type. */
function queries(n: number): string[] {
  const shapes = [
    (i: number) => `Merchant ${(i * 37) % 5000}`, // a name, many hits
    () => 'merchant', // one word in every transaction
    (i: number) => `merch${'ant'.slice(0, i % 3)}`, // a partial word
    (i: number) => `${((i * 991) % 100000) / 100}`, // an amount
    (i: number) => `"${WORDS[i % WORDS.length]} clause ${(i * 17) % 900}"`, // a phrase in document text
    (i: number) => `${WORDS[i % WORDS.length]} ${WORDS[(i + 3) % WORDS.length]}`, // words in documents
    (i: number) => `Customer ${(i * 53) % CUSTOMERS}`, // a customer
    () => 'zyxwvut', // nothing
  ];
  return Array.from({ length: n }, (_, i) => shapes[i % shapes.length](i));
}

async function main() {
  const bench = await benchDatabase('finops_bench_search');
  try {
    const principal = await seededTeam(bench.db);
    const list = queries(QUERIES);
    // Inside the team's wall (row-level security), as the API runs it.
    const timed = (q: string) => withinTeam(principal.teamId, () => search(bench.db, principal, searchQuery.parse({ q })));
    for (const q of list.slice(0, 16)) await timed(q); // warm the caches
    const times: number[] = [];
    const byShape = new Map<number, number[]>();
    for (const [i, q] of list.entries()) {
      const started = performance.now();
      await timed(q);
      const took = performance.now() - started;
      times.push(took);
      byShape.set(i % 8, [...(byShape.get(i % 8) ?? []), took]);
    }
    times.sort((a, b) => a - b);
    const shapes = ['name', 'common word', 'partial word', 'amount', 'document phrase', 'document words', 'customer', 'miss'];
    for (const [shape, ts] of byShape) {
      ts.sort((a, b) => a - b);
      console.log(`${shapes[shape].padEnd(16)} p50 ${ms(percentile(ts, 50))}  p99 ${ms(percentile(ts, 99))}`);
    }
    const scale = `${TRANSACTIONS.toLocaleString()} transactions, ${DOCUMENTS.toLocaleString()} documents, ${CUSTOMERS.toLocaleString()} customers`;
    reportFigure({ name: `search p50 (${scale})`, value: percentile(times, 50), unit: 'ms' });
    reportFigure({ name: `search p99 (${scale})`, value: percentile(times, 99), unit: 'ms', budget: { on: 'value', atMost: 50 } });
  } finally {
    await bench.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
