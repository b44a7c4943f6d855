import { z } from 'zod';
import { profitAndLoss } from '../../reports/service';
import { defineTool, money, periodArgs, span } from './define';
import { reportInput, reportQueryOf } from './report-period';

export const profitAndLossTool = defineTool({
  name: 'profit_and_loss',
  title: 'Profit and loss',
  description: 'Income, expenses and profit (or loss) for a period, in total and by month, from posted transactions in one currency.',
  scopes: ['reports.read'],
  input: z.object(reportInput),
  run: ({ db, teamId, today }, input) => profitAndLoss(db, teamId, reportQueryOf(input, today)),
  understand: (q) => (/\bprofit|\bloss(es)?\b|p&l|p and l|net income|\bmargin/.test(q.rest) ? periodArgs(q) : null),
  answer: (r, _input, ref) =>
    `${r.profit >= 0 ? 'Profit' : 'Loss'} was ${money(Math.abs(r.profit), r.currency)} ${span(r)} [${ref}]: income ${money(r.income, r.currency)}, expenses ${money(r.expenses, r.currency)}.`,
});
