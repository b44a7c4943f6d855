import { z } from 'zod';
import { askedCategory, noSuchCategory } from './category';
import { defineTool, money, periodArgs, span } from './define';
import { categoryReportInput, onCategories, profitAndLossOf } from './profit-and-loss';

/** Revenue is the income side of profit and loss: the same transactions, the same rules. */
export const revenueTool = defineTool({
  name: 'revenue',
  title: 'Revenue',
  description:
    'Revenue (money in) for a period, in total and by month, from posted transactions in one currency. Give `category` (a name or slug) for that category alone.',
  scopes: ['reports.read'],
  input: z.object(categoryReportInput),
  run: async (ctx, input) => {
    const pnl = await profitAndLossOf(ctx, input);
    return {
      currency: pnl.currency,
      from: pnl.from,
      to: pnl.to,
      revenue: pnl.income,
      months: pnl.months.map((m) => ({ month: m.month, revenue: m.income })),
      category: pnl.category,
      matched: pnl.matched,
    };
  },
  understand: (q) =>
    /\brevenue|\bincome\b|\bearn(ed|ings)?\b|\bsales\b|\bturnover\b|how much (did|have) we (make|made|bring|brought|invoice)/.test(q.rest)
      ? { ...periodArgs(q), ...askedCategory(q, ['from', 'on', 'for', 'in']) }
      : null,
  answer: (r, _input, ref) =>
    r.category && r.matched.length === 0
      ? noSuchCategory(r.category, ref)
      : `Revenue${onCategories('from', r.matched)} was ${money(r.revenue, r.currency)} ${span(r)} [${ref}].`,
});
