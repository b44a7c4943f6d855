import { z } from 'zod';
import { monthlyBurnOf, profitAndLoss } from '../../reports/service';
import { lastFullMonths } from '../period';
import { defineTool, money, periodArgs, span } from './define';
import { reportInput, reportQueryOf } from './report-period';

/** The monthly burn of the runway report, over the last three full months unless a period is given. */
export const burnRateTool = defineTool({
  name: 'burn_rate',
  title: 'Burn rate',
  description: 'Average net money out per month over a period (default: the last three full months); 0 when the team made money.',
  scopes: ['reports.read'],
  input: z.object(reportInput),
  run: async ({ db, teamId, today }, input) => {
    const q = reportQueryOf(input, today, lastFullMonths(today, 3));
    // The runway's burn without its balance: the accounts and the rates are not needed for it.
    const pnl = await profitAndLoss(db, teamId, q);
    return { currency: pnl.currency, from: q.from, to: q.to, monthlyBurn: monthlyBurnOf(pnl) };
  },
  understand: (q) => (/\bburn/.test(q.rest) ? periodArgs(q) : null),
  answer: (r, _input, ref) =>
    r.monthlyBurn > 0
      ? `The average monthly burn was ${money(r.monthlyBurn, r.currency)} ${span(r)} [${ref}].`
      : `No money was burned ${span(r)}: the team took in more than it spent [${ref}].`,
});
