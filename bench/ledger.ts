/**
 * The ledger's own work (issue 30), three figures:
 *  - SyncConnection of 100,000 new transactions with the team's ledger features on (50 rules, learned
 *    categories over a categorised history) against
 *    the same sync with them off, side by side in one run, on a real Temporal dev server and worker
 *    against the bank-a fake: the ratio of their times.
 *  - ApplyRules of one rule over 1,000,000 existing transactions (a real run, not a dry one), from the
 *    request to the finished workflow: rows per second.
 *  - Duplicate detection on a labelled set (bench/lib/duplicate-set.ts) through the real matcher, the
 *    way an import and a sync call it: precision of the pairs it merges, recall printed.
 *
 *   npx tsx bench/ledger.ts      (DATABASE_URL or an embedded PostgreSQL; the 1,000,000 rows are seeded once and kept)
 *   LEDGER_SYNC=10000 LEDGER_APPLY=100000 LEDGER_PURCHASES=5000 npx tsx bench/ledger.ts   (a quick run)
 *   LEDGER_FIGURES=duplicates npx tsx bench/ledger.ts   (some of sync, apply, duplicates)
 *   LEDGER_SYNC_ROUNDS=3 …   (alternating off/on sync rounds, medians compared; 5 by default)
 *   BENCH_DATABASE=finops_bench_ledger_mine npx tsx bench/ledger.ts   (a database of its own on DATABASE_URL's server)
 */
import type { Db } from '../shared/db/knex';
import { Category, Tag, Team } from '../shared/db/models';
import { createRule, applyRule, deleteRule } from '../shared/domain/transaction-rules/service';
import { applyRuleBody, createRuleBody } from '../shared/domain/transaction-rules/schema';
import { createUserWithTeam } from '../shared/domain/teams/service';
import { IMPORTED_DUPLICATE, MANUAL_DUPLICATE, pairDuplicates, type MatchRules } from '../shared/domain/transactions/match';
import type { ApplyRulesWorkflow } from '../shared/temporal/apply-rules/contract';
import { benchDatabase, forgetTeam, settleDatabase, settleSeed } from './lib/database';
import { duplicateSet, samePurchase, type DuplicateSet, type LabelledRow } from './lib/duplicate-set';
import { reportFigure } from './lib/figures';
import { median } from './lib/latency';
import { runMain } from './lib/run-main';
import { startSyncStack, type SyncStack } from './lib/sync-stack';

const SYNC_N = Number(process.env.LEDGER_SYNC ?? 100_000);
const APPLY_N = Number(process.env.LEDGER_APPLY ?? 1_000_000);
const PURCHASES = Number(process.env.LEDGER_PURCHASES ?? 20_000);
const FIGURES = new Set((process.env.LEDGER_FIGURES ?? 'sync,apply,duplicates').split(','));
const RULES = 50;
/** Alternating off/on sync rounds whose medians are compared. */
const SYNC_ROUNDS = Number(process.env.LEDGER_SYNC_ROUNDS ?? 5);

/**
 * The ledger features a team has on while its bank syncs: its rules, and a categorised history that
 * learned categories learn from (a team without one has nothing to learn: that is "off").
 */
export interface LedgerFeatures {
  rules: boolean;
  learned: boolean;
}

const describeFeatures = (f: LedgerFeatures) =>
  [f.rules ? `${RULES} rules` : null, f.learned ? 'learned categories' : null].filter(Boolean).join(' and ') || 'nothing';

async function switchLedgerFeatures(db: Db, teamId: string, features: LedgerFeatures): Promise<void> {
  if (features.rules || features.learned) await Category.query(db).insert(SLUGS.map((slug) => ({ teamId, name: slug, slug })));
  if (features.rules) await createSyncRules(db, teamId);
  if (features.learned) await seedCategorisedHistory(db, teamId);
}

const SLUGS = ['software', 'travel', 'office', 'marketing', 'meals'];
const HISTORY = 5_000;

/**
 * The merchants of the synced transactions (the first 50) and of the team's history (all 100), named
 * as banks name them: the learner reduces a name to its merchant words, so `Merchant 7` and
 * `Merchant 8` would be one merchant to it, and would teach it nothing.
 */
// prettier-ignore
const MERCHANTS = [
  'GitHub', 'Hetzner Online', 'Figma', 'Notion Labs', 'Slack Technologies', 'Atlassian', 'Dropbox', 'Zoom Video', 'Adobe Systems', 'Mailchimp',
  'Lufthansa', 'Deutsche Bahn', 'Ryanair', 'Booking.com', 'Airbnb', 'Hertz Rentals', 'Sixt', 'Flixbus', 'Eurowings', 'Marriott Hotels',
  'Staples', 'Viking Direct', 'Ikea', 'Otto Office', 'Conrad Electronic', 'Media Markt', 'Saturn', 'Bueromarkt', 'Manufactum', 'Muji',
  'Google Ads', 'Meta Platforms', 'LinkedIn', 'Hubspot', 'Semrush', 'Canva', 'Vistaprint', 'Moo Print', 'Typeform', 'Hootsuite',
  'Starbucks', 'Vapiano', 'Dean and David', 'Block House', 'Wagamama', 'Pret a Manger', 'Five Guys', 'Nordsee', 'Backwerk', 'Coffee Fellows',
  'Amazon Web Services', 'Heroku', 'Vercel', 'Netlify', 'Cloudflare', 'Datadog', 'Sentry', 'Jetbrains', 'Postman', 'Linear',
  'Condor', 'Air France', 'KLM', 'Easyjet', 'Hilton', 'Accor', 'Europcar', 'Uber Trip', 'Bolt Ride', 'Miles Mobility',
  'Tchibo', 'Rossmann', 'Dm Drogerie', 'Lidl', 'Aldi Sued', 'Rewe Markt', 'Edeka', 'Kaufland', 'Penny', 'Netto',
  'Xing', 'Twitter Ads', 'Taboola', 'Outbrain', 'Criteo', 'Mailjet', 'Sendinblue', 'Unbounce', 'Hotjar', 'Mixpanel',
  'Burger King', 'Mcdonalds', 'Subway', 'Dominos', 'Pizza Hut', 'Kentucky Fried Chicken', 'Joey s Pizza', 'Hans im Glueck', 'L Osteria', 'Vapiano Bar',
];

/**
 * What learned categories learn from: a year of the team's own choices before the sync, for the
 * 50 merchants the sync brings (MERCHANTS) and as many others it never sends, so every new
 * transaction the rules leave is looked up against a full model, and those of merchants no rule
 * names (the last 20) are learned.
 */
async function seedCategorisedHistory(db: Db, teamId: string): Promise<void> {
  await db.raw(
    `insert into transactions (team_id, date, name, counterparty_name, amount, currency, category_slug, method)
     select ?, date '2025-01-01' + (g % 365), (?::text[])[1 + g % 100], (?::text[])[1 + g % 100],
            -(5 + (g * 37) % 400), 'EUR', (?::text[])[1 + (g % 100) % 5], 'card_purchase'
       from generate_series(1, ?) g`,
    [teamId, MERCHANTS, MERCHANTS, SLUGS, HISTORY],
  );
}

/**
 * Rules as a team writes them, against the names the sync brings (MERCHANTS' first 50, their raw
 * text in capitals, two provider categories): most transactions meet several, some none.
 */
async function createSyncRules(db: Db, teamId: string): Promise<void> {
  const slugs = SLUGS;
  const tags = await Tag.query(db).insert(['client', 'review', 'tax'].map((name) => ({ teamId, name })));
  const bodies: unknown[] = [];
  for (let i = 0; i < 30; i++) {
    bodies.push({
      name: MERCHANTS[i],
      priority: i,
      conditions: { any: [{ all: [{ field: 'counterparty', operator: 'equals', value: MERCHANTS[i] }] }] },
      actions: { categorySlug: slugs[i % slugs.length] },
    });
  }
  for (let d = 0; d < 8; d++) {
    bodies.push({
      name: `Raw text ${d}`,
      priority: 30 + d,
      conditions: { any: [{ all: [{ field: 'description', operator: 'regex', value: `^${MERCHANTS[40 + d].toUpperCase()}$` }] }] },
      actions: { addTags: [tags[d % tags.length].id] },
    });
  }
  for (let k = 0; k < 5; k++) {
    bodies.push({
      name: `Large ${k}`,
      priority: 40 + k,
      conditions: { any: [{ all: [{ field: 'amount', sign: 'expense', min: 100 * (k + 1), max: 100 * (k + 1) + 50 }] }] },
      actions: { note: `between ${100 * (k + 1)} and ${100 * (k + 1) + 50}` },
    });
  }
  for (let k = 0; k < 4; k++) {
    bodies.push({
      name: `Food ${k}`,
      priority: 50 + k,
      conditions: {
        any: [
          {
            all: [
              { field: 'providerCategory', operator: 'equals', value: 'FOOD_AND_DRINK' },
              { field: 'amount', max: 20 + k * 10 },
            ],
          },
          { all: [{ field: 'name', operator: 'contains', value: `restaurant ${k}` }] },
        ],
      },
      actions: { categorySlug: 'meals', recurring: k % 2 === 0 },
    });
  }
  for (let k = 0; k < RULES - 47; k++) {
    bodies.push({
      name: `Never ${k}`,
      priority: 60 + k,
      stopAfter: true,
      conditions: {
        any: [
          {
            all: [
              { field: 'name', operator: 'startsWith', value: `github ${k}` },
              { field: 'currency', in: ['EUR'] },
            ],
          },
        ],
      },
      actions: { status: 'excluded' },
    });
  }
  for (const body of bodies) await createRule(db, teamId, createRuleBody.parse(body));
}

/** One team's sync of `n` new transactions with these features on; the team is deleted after. */
async function timedSync(db: Db, stack: SyncStack, features: LedgerFeatures): Promise<number> {
  const { team } = await createUserWithTeam(db, { email: `bench-ledger-${Date.now()}@example.com`, teamName: 'bench-ledger-sync' });
  await switchLedgerFeatures(db, team.id, features);
  const conn = await stack.connectItem(team.id, SYNC_N, (i) => MERCHANTS[i % 50]);
  const { result, seconds } = await stack.sync(conn);
  if (result.added !== SYNC_N) throw new Error(`expected ${SYNC_N} new transactions, the sync added ${result.added}`);
  if (features.rules || features.learned) {
    const synced = db('transactions').where({ teamId: team.id }).whereNotNull('providerTransactionId');
    const [{ n }] = await synced.clone().whereNotNull('categorySlug').count({ n: '*' });
    const [{ learned }] = await synced.clone().whereRaw(`field_sources #>> '{categorySlug,by}' = 'learned'`).count({ learned: '*' });
    console.log(
      `  ${describeFeatures(features)} categorised ${Number(n).toLocaleString()} of ${SYNC_N.toLocaleString()} (learned: ${Number(learned).toLocaleString()})`,
    );
  }
  await forgetTeam(db, team.id);
  return seconds;
}

async function syncFigure(db: Db, stack: SyncStack): Promise<void> {
  const on: LedgerFeatures = { rules: true, learned: true };
  const off: LedgerFeatures = { rules: false, learned: false };
  // Alternating rounds, each on a fresh team, the database settled between (forgetTeam): off then on,
  // then on then off, so whichever side runs second in a round is not always the same one. One pass
  // of each varied by half between runs on a quiet machine: the figure is the medians of the rounds.
  const offs: number[] = [];
  const ons: number[] = [];
  await settleDatabase(db);
  for (let round = 1; round <= SYNC_ROUNDS; round++) {
    const onFirst = round % 2 === 0;
    const first = await timedSync(db, stack, onFirst ? on : off);
    const second = await timedSync(db, stack, onFirst ? off : on);
    const [onRound, offRound] = onFirst ? [first, second] : [second, first];
    offs.push(offRound);
    ons.push(onRound);
    console.log(
      `  round ${round} (${onFirst ? 'on first' : 'off first'}): ${onRound.toFixed(2)} s on, ${offRound.toFixed(2)} s off: ${(onRound / offRound).toFixed(2)}×`,
    );
  }
  const [onSeconds, offSeconds] = [median(ons), median(offs)];
  console.log(
    `\nSyncConnection of ${SYNC_N.toLocaleString()}, median of ${SYNC_ROUNDS} rounds: ${onSeconds.toFixed(2)} s with ${describeFeatures(on)}, ${offSeconds.toFixed(2)} s with ${describeFeatures(off)}: ${(onSeconds / offSeconds).toFixed(2)}×  (target: at most 1.25×)`,
  );
  reportFigure({
    name: `SyncConnection, ${SYNC_N.toLocaleString()} new transactions, ${describeFeatures(on)} on`,
    value: onSeconds,
    unit: 's',
    budget: { on: 'ratio', atMost: 1.25 },
    comparator: { name: 'the same sync with them off', value: offSeconds },
  });
}

/**
 * A team with `n` transactions (500 names, a hundred counterparties, three years of dates), made
 * once and found again by its name on later runs.
 */
async function seededTeam(db: Db, n: number): Promise<string> {
  const name = `bench-ledger-apply-${n}`;
  const existing = await Team.query(db).findOne({ name });
  if (existing) {
    const [{ count }] = await db('transactions').where({ teamId: existing.id }).count({ count: '*' });
    if (Number(count) === n) return existing.id;
    await forgetTeam(db, existing.id);
  }
  const { team } = await createUserWithTeam(db, { email: `bench-ledger-apply-${Date.now()}@example.com`, teamName: name });
  await Category.query(db).insert({ teamId: team.id, name: 'Software', slug: 'software' });
  console.log(`seeding ${n.toLocaleString()} transactions (once)`);
  for (let from = 1; from <= n; from += 250_000) {
    // Rows a bank brought long ago: no audit row, no event, for the seed (the measured run has them all).
    await db.transaction(async (trx) => {
      await trx.raw('set local session_replication_role = replica');
      await trx.raw(
        `insert into transactions (team_id, date, name, merchant_name, counterparty_name, description, amount, currency, provider_transaction_id, method, provider_category)
       select ?, date '2026-06-30' - (g % 1095), 'Merchant ' || (g % 500), 'Merchant ' || (g % 500), 'Vendor ' || (g % 100),
              'CARD ' || (g % 500), -((g % 50000) / 100.0 + 1), 'EUR', 'apply-' || g, 'card_purchase',
              (array['FOOD_AND_DRINK','GENERAL_MERCHANDISE','TRAVEL'])[1 + g % 3]
       from generate_series(?::int, ?::int) g`,
        [team.id, from, Math.min(n, from + 249_999)],
      );
    });
  }
  await settleSeed(db);
  return team.id;
}

async function applyFigure(db: Db, stack: SyncStack, teamId: string): Promise<void> {
  // A rule as a team writes one (a few merchants, about 3% of the rows), with a new note on every
  // run: each run changes every row it matches, as the first run of a rule does.
  const rule = await createRule(
    db,
    teamId,
    createRuleBody.parse({
      name: `bench ${Date.now()}`,
      conditions: {
        any: [
          { all: [{ field: 'name', operator: 'regex', value: '^Merchant 1\\d$' }] },
          { all: [{ field: 'counterparty', operator: 'equals', value: 'Vendor 42' }] },
        ],
      },
      actions: { note: `applied ${new Date().toISOString()}`, categorySlug: 'software' },
    }),
  );
  const started = performance.now();
  const run = await applyRule({ db, temporal: stack.temporal }, { teamId, userId: null }, rule.id, applyRuleBody.parse({}));
  const progress = await (await stack.temporal.client()).workflow.getHandle<ApplyRulesWorkflow>(run.workflowId).result();
  const seconds = (performance.now() - started) / 1000;
  await deleteRule(db, teamId, rule.id);
  if (progress.stage !== 'completed' || progress.scanned !== APPLY_N)
    throw new Error(`the run ended ${progress.stage} after ${progress.scanned} of ${APPLY_N}: ${progress.error}`);
  const rate = progress.scanned / seconds;
  console.log(
    `\nApplyRules: ${progress.scanned.toLocaleString()} read, ${progress.matched.toLocaleString()} matched, ${progress.changed.toLocaleString()} changed in ${seconds.toFixed(2)} s: ${rate.toFixed(0)} rows/s  (target: at least 50,000 rows/s)`,
  );
  reportFigure({
    name: `ApplyRules, one rule over ${APPLY_N.toLocaleString()} transactions (${Math.round((100 * progress.changed) / APPLY_N)}% changed)`,
    value: rate,
    unit: 'rows/s',
    budget: { on: 'value', atLeast: 50_000 },
  });
}

interface Pairing {
  incoming: LabelledRow;
  existing: LabelledRow;
}

const shiftDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The matcher as its callers use it: `incoming` in date order, a batch at a time, against the
 * existing rows dated around the batch with one of its amounts that no earlier batch took (as
 * ImportOverlap over a statement, and mergeArrivals over a sync's pages, select them).
 */
function pairInBatches(
  incoming: readonly LabelledRow[],
  existing: readonly LabelledRow[],
  rules: MatchRules,
  batchSize: number,
): Pairing[] {
  const sorted = [...incoming].sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id));
  const pool = [...existing].sort((a, b) => a.date.localeCompare(b.date));
  const byId = new Map([...incoming, ...existing].map((r) => [r.id, r]));
  const row = (id: string) => {
    const r = byId.get(id);
    if (!r) throw new Error(`the matcher named ${id}, which it was not given`);
    return r;
  };
  const used = new Set<string>();
  const out: Pairing[] = [];
  for (let i = 0; i < sorted.length; i += batchSize) {
    const batch = sorted.slice(i, i + batchSize);
    const from = shiftDays(batch[0].date, -Math.max(rules.daysAfter, rules.daysBefore));
    const to = shiftDays(batch[batch.length - 1].date, Math.max(rules.daysAfter, rules.daysBefore));
    const amounts = new Set(batch.map((b) => b.amount));
    const open = pool.filter((e) => e.date >= from && e.date <= to && amounts.has(e.amount) && !used.has(e.id));
    for (const p of pairDuplicates(batch, open, rules)) {
      used.add(p.existing);
      out.push({ incoming: row(p.incoming), existing: row(p.existing) });
    }
  }
  return out;
}

/**
 * Merges that lose a purchase: rows merged away (a statement row not created, an entry by hand
 * merged into the bank's) whose purchase no row stands for afterwards. A merge of one purchase into
 * a look-alike (the same merchant and amount, a day apart) loses nothing, and no matcher could tell
 * them apart from what the rows say: it is counted apart, as a stricter precision.
 */
function lostPurchases(pairs: readonly Pairing[], rows: readonly LabelledRow[], away: 'incoming' | 'existing'): number {
  const mergedAway = new Set(pairs.map((p) => p[away].id));
  const standing = new Set(rows.filter((r) => !mergedAway.has(r.id)).map((r) => r.purchase));
  return pairs.filter((p) => !standing.has(p[away].purchase)).length;
}

function duplicatesFigure(): void {
  const started = performance.now();
  const set: DuplicateSet = duplicateSet(PURCHASES);
  const syncedPurchases = new Set(set.synced.map((s) => s.purchase));
  // An import creates none of its rows that match (the incoming side); a synced row takes over the
  // entry by hand it matches (the existing side).
  const importPairs = pairInBatches(set.csv, set.synced, IMPORTED_DUPLICATE, 1000);
  const paths = [
    {
      name: 'statement import over the synced range',
      pairs: importPairs,
      lost: lostPurchases(importPairs, [...set.synced, ...set.csv], 'incoming'),
      truth: set.csv.filter((c) => syncedPurchases.has(c.purchase)).length,
    },
    (() => {
      const pairs = pairInBatches(set.synced, set.manual, MANUAL_DUPLICATE, 500);
      return {
        name: 'entries by hand the bank later syncs',
        pairs,
        lost: lostPurchases(pairs, [...set.synced, ...set.manual], 'existing'),
        truth: set.manual.filter((m) => syncedPurchases.has(m.purchase)).length,
      };
    })(),
  ];
  let merged = 0;
  let lost = 0;
  let right = 0;
  let truth = 0;
  for (const p of paths) {
    const good = p.pairs.filter((x) => samePurchase(set, x.incoming, x.existing)).length;
    merged += p.pairs.length;
    lost += p.lost;
    right += good;
    truth += p.truth;
    console.log(
      `  ${p.name}: ${p.pairs.length} merged, ${p.lost} losing a purchase; ${good} of the very purchase (or an identical one that day): strict precision ${(good / p.pairs.length).toFixed(4)}, recall ${(good / p.truth).toFixed(4)} of ${p.truth} duplicates`,
    );
  }
  const precision = (merged - lost) / merged;
  const strict = right / merged;
  const recall = right / truth;
  console.log(
    `\nDuplicates: ${PURCHASES.toLocaleString()} purchases (${set.synced.length} synced, ${set.csv.length} statement rows, ${set.manual.length} by hand, ${set.twins} identical twins): precision ${precision.toFixed(4)} (strict ${strict.toFixed(4)}), recall ${recall.toFixed(4)}  (target: precision at least 0.99) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  reportFigure({
    name: `Duplicate detection, merges losing no purchase, ${PURCHASES.toLocaleString()} labelled purchases (strict ${strict.toFixed(3)}, recall ${recall.toFixed(3)})`,
    value: precision,
    unit: '',
    budget: { on: 'value', atLeast: 0.99 },
  });
}

async function main() {
  if (FIGURES.has('duplicates')) duplicatesFigure();
  if (!FIGURES.has('sync') && !FIGURES.has('apply')) return;
  const bench = await benchDatabase(process.env.BENCH_DATABASE ?? 'finops_bench_ledger');
  const applyTeam = FIGURES.has('apply') ? await seededTeam(bench.db, APPLY_N) : undefined;
  const stack = await startSyncStack(bench, 'bench-ledger');
  try {
    await stack.whileWorking(async () => {
      if (FIGURES.has('sync')) await syncFigure(bench.db, stack);
      if (applyTeam) await applyFigure(bench.db, stack, applyTeam);
    });
  } finally {
    await stack.close();
    await bench.close();
  }
}

runMain(main);
