/**
 * Learned categories on a labelled ledger (bench/lib/labelled-ledger.ts), held out by time: the
 * model learns from the earlier 70 % of the transactions and suggests a category for each of the
 * later 30 %. Prints the precision/coverage curve by confidence threshold, and the figure the issue
 * names: precision over the most confident 70 % of the held-out transactions.
 *
 *   npx tsx bench/ledger-learned.ts              (24,000 transactions)
 *   SIZE=5000 npx tsx bench/ledger-learned.ts
 */
import { DEFAULT_LEARNED_THRESHOLD } from '../shared/domain/learned-categories/apply';
import { LearnedModel } from '../shared/domain/learned-categories/model';
import { reportFigure } from './lib/figures';
import { labelledLedger, splitByTime } from './lib/labelled-ledger';
import { runMain } from './lib/run-main';

const SIZE = Number(process.env.SIZE ?? 24_000);
const COVERAGE = 0.7;

function main() {
  const rows = labelledLedger(SIZE);
  const { train, test } = splitByTime(rows);
  const started = performance.now();
  const model = new LearnedModel(
    train.map((r) => ({
      text: r.name,
      accountId: r.accountId,
      amount: r.amount,
      categorySlug: r.categorySlug,
      count: 1,
      samples: [{ id: r.id, name: r.name }],
    })),
  );
  const built = performance.now();
  const judged = test.map((r) => {
    const s = model.suggest({ text: r.name, accountId: r.accountId, amount: r.amount });
    return { confidence: s?.confidence ?? -1, right: s?.categorySlug === r.categorySlug };
  });
  const done = performance.now();
  console.log(
    `${rows.length} labelled transactions: learned from ${train.length} (${model.size} entries, ${(built - started).toFixed(0)} ms), ` +
      `predicted ${test.length} (${(((done - built) * 1000) / test.length).toFixed(1)} µs each)`,
  );

  judged.sort((a, b) => b.confidence - a.confidence);
  console.log('threshold  coverage  precision');
  for (let t = 0.3; t <= 1.0001; t += 0.05) {
    const taken = judged.filter((j) => j.confidence >= t);
    const right = taken.filter((j) => j.right).length;
    const mark = Math.abs(t - DEFAULT_LEARNED_THRESHOLD) < 1e-9 ? '  ← default threshold' : '';
    console.log(
      `${t.toFixed(2).padStart(9)}  ${pct(taken.length / judged.length).padStart(8)}  ${(taken.length ? pct(right / taken.length) : '-').padStart(9)}${mark}`,
    );
  }
  // The most confident 70 %, as a threshold set just there would take them.
  const top = judged.slice(0, Math.ceil(judged.length * COVERAGE)).filter((j) => j.confidence >= 0);
  const precision = top.length < judged.length * COVERAGE ? 0 : top.filter((j) => j.right).length / top.length;
  const suggested = judged.filter((j) => j.confidence >= 0);
  console.log(
    `suggested for ${pct(suggested.length / judged.length)}, right in ${pct(suggested.filter((j) => j.right).length / suggested.length)}; ` +
      `precision at ${pct(COVERAGE)} coverage: ${pct(precision)} (threshold there ${top.at(-1)?.confidence.toFixed(3) ?? '-'})`,
  );
  reportFigure({ name: 'precision at 70% coverage', value: precision, unit: 'share', budget: { on: 'value', atLeast: 0.9 } });
  const atDefault = judged.filter((j) => j.confidence >= DEFAULT_LEARNED_THRESHOLD);
  reportFigure({ name: 'coverage at the default threshold', value: atDefault.length / judged.length, unit: 'share' });
  reportFigure({
    name: 'precision at the default threshold',
    value: atDefault.filter((j) => j.right).length / (atDefault.length || 1),
    unit: 'share',
  });
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

runMain(() => Promise.resolve().then(main));
