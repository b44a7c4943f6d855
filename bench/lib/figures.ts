/**
 * How a benchmark hands its figures to `npm run bench` (bench/run.ts): one line per figure, prefixed
 * so the runner can pick them out of everything else the bench prints for people.
 */
export const FIGURE_PREFIX = '::figure:: ';

export interface Budget {
  /** Judge the figure's value, or its ratio to the comparator. */
  on: 'value' | 'ratio';
  atMost?: number;
  atLeast?: number;
}

export interface Figure {
  name: string;
  value: number;
  unit: string;
  budget?: Budget;
  /** The bare program doing the same work, measured in the same run. */
  comparator?: { name: string; value: number };
}

export function reportFigure(figure: Figure): void {
  console.log(`${FIGURE_PREFIX}${JSON.stringify(figure)}`);
}

export function ratioOf(figure: Figure): number | undefined {
  return figure.comparator && figure.comparator.value !== 0 ? figure.value / figure.comparator.value : undefined;
}

/** undefined when the figure has no budget. */
export function withinBudget(budget: Budget | undefined, value: number, ratio: number | undefined): boolean | undefined {
  if (!budget) return undefined;
  const judged = budget.on === 'ratio' ? ratio : value;
  if (judged === undefined || Number.isNaN(judged)) return false;
  return (budget.atMost === undefined || judged <= budget.atMost) && (budget.atLeast === undefined || judged >= budget.atLeast);
}

export function describeBudget(budget: Budget | undefined, unit: string): string {
  if (!budget) return '';
  const what = budget.on === 'ratio' ? 'ratio ' : '';
  const suffix = budget.on === 'ratio' ? '' : ` ${unit}`;
  if (budget.atMost !== undefined) return `${what}≤ ${budget.atMost}${suffix}`;
  if (budget.atLeast !== undefined) return `${what}≥ ${budget.atLeast}${suffix}`;
  return '';
}
