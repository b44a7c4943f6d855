import { z } from 'zod';
import { profitAndLoss } from '../../reports/service';
import { defineTool, money, periodArgs, span } from './define';
import { reportInput, reportQueryOf } from './report-period';

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Money in and out by month, from the same transactions as profit and loss. */
export const cashFlowTool = defineTool({
  name: 'cash_flow',
  title: 'Cash flow',
  description: 'Money in, money out and net cash flow for a period, in total and by month, in one currency.',
  scopes: ['reports.read'],
  input: z.object(reportInput),
  run: async ({ db, teamId, today }, input) => {
    const pnl = await profitAndLoss(db, teamId, reportQueryOf(input, today));
    return {
      currency: pnl.currency,
      from: pnl.from,
      to: pnl.to,
      inflow: pnl.income,
      outflow: pnl.expenses,
      net: round2(pnl.income - pnl.expenses),
      months: pnl.months.map((m) => ({ month: m.month, inflow: m.income, outflow: m.expenses, net: m.profit })),
    };
  },
  understand: (q) => (/cash\s*-?flow|money (coming )?in and (going )?out/.test(q.rest) ? periodArgs(q) : null),
  answer: (r, _input, ref) =>
    `Net cash flow was ${r.net >= 0 ? '+' : '−'}${money(Math.abs(r.net), r.currency)} ${span(r)} [${ref}]: ${money(r.inflow, r.currency)} in, ${money(r.outflow, r.currency)} out.`,
});
