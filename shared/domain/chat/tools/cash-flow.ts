import { z } from 'zod';
import { cashFlow } from '../../reports/service';
import { defineTool, money, periodArgs, span } from './define';
import { reportInput, reportQueryOf } from './report-period';

/** Money in and out by month: the cash-flow report, which counts excluded categories (taxes paid) too. */
export const cashFlowTool = defineTool({
  name: 'cash_flow',
  title: 'Cash flow',
  description: 'Money in, money out and net cash flow for a period, in total and by month, in one currency.',
  scopes: ['reports.read'],
  input: z.object(reportInput),
  run: async ({ db, teamId, today }, input) => {
    const flow = await cashFlow(db, teamId, reportQueryOf(input, today));
    return {
      currency: flow.currency,
      from: flow.from,
      to: flow.to,
      inflow: flow.inflow,
      outflow: flow.outflow,
      net: flow.net,
      months: flow.months.map(({ month, inflow, outflow, net }) => ({ month, inflow, outflow, net })),
    };
  },
  understand: (q) => (/cash\s*-?flow|money (coming )?in and (going )?out/.test(q.rest) ? periodArgs(q) : null),
  answer: (r, _input, ref) =>
    `Net cash flow was ${r.net >= 0 ? '+' : '−'}${money(Math.abs(r.net), r.currency)} ${span(r)} [${ref}]: ${money(r.inflow, r.currency)} in, ${money(r.outflow, r.currency)} out.`,
});
