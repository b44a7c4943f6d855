import { z } from 'zod';
import { profitAndLoss } from '../../reports/service';
import { defineTool, money, periodArgs, span } from './define';
import { reportInput, reportQueryOf } from './report-period';

/** Revenue is the income side of profit and loss: the same transactions, the same rules. */
export const revenueTool = defineTool({
  name: 'revenue',
  title: 'Revenue',
  description: 'Revenue (money in) for a period, in total and by month, from posted transactions in one currency.',
  scopes: ['reports.read'],
  input: z.object(reportInput),
  run: async ({ db, teamId, today }, input) => {
    const pnl = await profitAndLoss(db, teamId, reportQueryOf(input, today));
    return {
      currency: pnl.currency,
      from: pnl.from,
      to: pnl.to,
      revenue: pnl.income,
      months: pnl.months.map((m) => ({ month: m.month, revenue: m.income })),
    };
  },
  understand: (q) =>
    /\brevenue|\bincome\b|\bearn(ed|ings)?\b|\bsales\b|\bturnover\b|how much (did|have) we (make|made|bring|brought|invoice)/.test(q.rest)
      ? periodArgs(q)
      : null,
  answer: (r, _input, ref) => `Revenue was ${money(r.revenue, r.currency)} ${span(r)} [${ref}].`,
});
