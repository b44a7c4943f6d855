/**
 * Every benchmark, one table: `npm run bench` runs them all, `npm run bench -- transactions webhooks`
 * the named ones (a group such as `books` names several). Each bench runs in a process of its own, BENCH_RUNS times (default 3, once for those
 * that count rather than time); a figure is the median of its runs, printed with their spread.
 * Benches seed once and keep their data (keyed by size), so a second run starts in seconds.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describeBudget, FIGURE_PREFIX, ratioOf, withinBudget, type Figure } from './lib/figures';
import { median } from './lib/latency';
import { compiledApiEntry } from './lib/server-process';

interface Bench {
  script: string;
  /** Benches that count outcomes (correctness, 5xx, lost events) need one run, not a median. */
  runs?: number;
}

const BENCHES: Record<string, Bench> = {
  transactions: { script: 'transactions.ts' },
  webhooks: { script: 'webhooks.ts' },
  sync: { script: 'sync.ts' },
  receipts: { script: 'receipts.ts', runs: 1 },
  matching: { script: 'matching.ts', runs: 1 },
  chat: { script: 'chat.ts' },
  fuzz: { script: 'fuzz.ts', runs: 1 },
  chaos: { script: 'chaos.ts', runs: 1 },
  scaling: { script: 'scaling.ts', runs: 1 },
  search: { script: 'search.ts' },
  reports: { script: 'reports.ts' },
  invoices: { script: 'invoices.ts' },
  'e-invoices': { script: 'e-invoices.ts' },
  // Five minutes of load: one run; its figures are a maximum and a growth, not a latency.
  memory: { script: 'memory.ts', runs: 1 },
  import: { script: 'import.ts' },
  audit: { script: 'audit.ts' },
  clients: { script: 'clients.ts' },
  // Precision of a deterministic model on a seeded set: the same every run.
  'ledger-learned': { script: 'ledger-learned.ts', runs: 1 },
  // Long (two 100,000-row syncs, a million-row ApplyRules): one run, its ratio measured side by side within it.
  'ledger-rules': { script: 'ledger.ts', runs: 1 },
};

/** Names an issue's speed section uses for the benches that measure it: `npm run bench -- books`. */
const GROUPS: Record<string, string[]> = {
  books: ['audit', 'e-invoices'],
  ledger: ['ledger-rules', 'ledger-learned'],
};

const RUNS = Number(process.env.BENCH_RUNS ?? 3);

/** The benches the arguments name, groups opened up, each once, in the order asked. */
function benchesNamed(asked: string[]): string[] {
  const names = asked.flatMap((n) => GROUPS[n] ?? [n]);
  const unknown = names.filter((n) => !(n in BENCHES));
  if (unknown.length) {
    const known = [...Object.keys(BENCHES), ...Object.keys(GROUPS)].join(', ');
    throw new Error(`no bench named ${unknown.join(', ')}; there are ${known}`);
  }
  return [...new Set(names.length ? names : Object.keys(BENCHES))];
}

interface Row {
  bench: string;
  figure: Figure;
  values: number[];
  ratios: number[];
}

async function runOnce(name: string, bench: Bench): Promise<{ figures: Figure[]; code: number | null }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, bench.script)], {
    env: process.env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const figures: Figure[] = [];
  const lines = createInterface({ input: child.stdout });
  lines.on('line', (line) => {
    if (line.startsWith(FIGURE_PREFIX)) figures.push(JSON.parse(line.slice(FIGURE_PREFIX.length)) as Figure);
    else console.log(`  [${name}] ${line}`);
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { figures, code };
}

const fmt = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2));

async function main() {
  const names = benchesNamed(process.argv.slice(2));
  // Once for every bench that serves the API; the children find the build current (environment).
  console.log('compiling the API (tsc, incremental)');
  compiledApiEntry();

  const rows: Row[] = [];
  const failed: string[] = [];
  for (const name of names) {
    const bench = BENCHES[name];
    const runs = bench.runs ?? RUNS;
    for (let i = 1; i <= runs; i++) {
      console.log(`\n▶ ${name} (run ${i} of ${runs})`);
      const { figures, code } = await runOnce(name, bench);
      if (code !== 0) failed.push(`${name} (run ${i}: exit ${code})`);
      for (const figure of figures) {
        let row = rows.find((r) => r.bench === name && r.figure.name === figure.name);
        if (!row) rows.push((row = { bench: name, figure, values: [], ratios: [] }));
        row.values.push(figure.value);
        const ratio = ratioOf(figure);
        if (ratio !== undefined) row.ratios.push(ratio);
      }
    }
  }

  const table = rows.map((r) => {
    const value = median(r.values);
    const ratio = r.ratios.length ? median(r.ratios) : undefined;
    const pass = withinBudget(r.figure.budget, value, ratio);
    const spread = r.values.length > 1 ? `${fmt(Math.min(...r.values))}–${fmt(Math.max(...r.values))}` : '';
    return {
      bench: r.bench,
      figure: r.figure.name,
      value: `${fmt(value)} ${r.figure.unit}`,
      spread,
      budget: describeBudget(r.figure.budget, r.figure.unit),
      ratio: ratio === undefined ? '' : `${ratio.toFixed(2)} of ${r.figure.comparator?.name ?? 'bare'}`,
      result: pass === undefined ? '' : pass ? 'pass' : 'FAIL',
    };
  });
  const columns = ['bench', 'figure', 'value', 'spread', 'budget', 'ratio', 'result'] as const;
  const widths = columns.map((c) => Math.max(c.length, ...table.map((t) => t[c].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
  console.log(`\n${line([...columns])}`);
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const t of table) console.log(line(columns.map((c) => t[c])));
  const misses = table.filter((t) => t.result === 'FAIL').length;
  console.log(`\n${table.length} figures, ${misses} over budget${failed.length ? `; benches that failed: ${failed.join(', ')}` : ''}`);
  if (misses || failed.length) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
