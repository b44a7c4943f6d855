import { z } from 'zod';
import { runway } from '../../reports/service';
import { lastFullMonths } from '../period';
import { defineTool, money, periodArgs, span } from './define';
import { reportInput, reportQueryOf } from './report-period';

export const runwayTool = defineTool({
  name: 'runway',
  title: 'Cash runway',
  description:
    'Months the current bank balance lasts at the average monthly burn of a period (default: the last three full months), with the balance and the burn.',
  scopes: ['reports.read'],
  input: z.object(reportInput),
  run: async ({ db, teamId, today }, input) => {
    const q = reportQueryOf(input, today, lastFullMonths(today, 3));
    return { ...(await runway(db, teamId, q)), from: q.from, to: q.to };
  },
  understand: (q) =>
    /\brunway\b|how long (will|does|can|would) (our |the )?(money|cash|balance)|months? (of )?(cash|money) (left|remaining)/.test(q.rest)
      ? periodArgs(q)
      : null,
  answer: (r, _input, ref) =>
    r.runwayMonths === null
      ? `With ${money(r.balance, r.currency)} in the bank, the team is not burning money (burn measured ${span(r)}) [${ref}].`
      : `With ${money(r.balance, r.currency)} in the bank and an average burn of ${money(r.monthlyBurn, r.currency)} a month (${span(r)}), the runway is ${r.runwayMonths} months [${ref}].`,
});
