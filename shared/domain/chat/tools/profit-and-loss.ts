import { z } from 'zod';
import { profitAndLoss } from '../../reports/service';
import { askedCategory, categoriesLike, categoryInput, noSuchCategory } from './category';
import { defineTool, money, periodArgs, span, type ToolContext } from './define';
import { reportInput, reportQueryOf } from './report-period';

/** What the revenue and profit tools take: a report period and, optionally, a category. */
export const categoryReportInput = { ...reportInput, category: categoryInput };

/** Profit and loss for a tool's input: the team's, or with `category` only the categories that name matches. */
export async function profitAndLossOf(
  { db, teamId, today }: ToolContext,
  input: { from?: string; to?: string; currency?: string; category?: string },
) {
  const matched = input.category ? await categoriesLike(db, teamId, input.category) : [];
  const filter = input.category ? { categories: matched.map((c) => c.slug) } : {};
  const pnl = await profitAndLoss(db, teamId, reportQueryOf(input, today), filter);
  return { ...pnl, category: input.category ?? null, matched };
}

/** "on Software and Software licences", or nothing for the whole team. */
export const onCategories = (preposition: string, matched: readonly { name: string }[]) =>
  matched.length ? ` ${preposition} ${matched.map((c) => c.name).join(' and ')}` : '';

export const profitAndLossTool = defineTool({
  name: 'profit_and_loss',
  title: 'Profit and loss',
  description:
    'Income, expenses and profit (or loss) for a period, in total and by month, from posted transactions in one currency. Give `category` (a name or slug) for that category alone.',
  scopes: ['reports.read'],
  input: z.object(categoryReportInput),
  run: profitAndLossOf,
  understand: (q) =>
    /\bprofit|\bloss(es)?\b|p&l|p and l|net income|\bmargin/.test(q.rest)
      ? { ...periodArgs(q), ...askedCategory(q, ['on', 'from', 'for', 'in']) }
      : null,
  answer: (r, _input, ref) =>
    r.category && r.matched.length === 0
      ? noSuchCategory(r.category, ref)
      : `${r.profit >= 0 ? 'Profit' : 'Loss'}${onCategories('on', r.matched)} was ${money(Math.abs(r.profit), r.currency)} ${span(r)} [${ref}]: income ${money(r.income, r.currency)}, expenses ${money(r.expenses, r.currency)}.`,
});
