import { z } from 'zod';
import { spending } from '../../reports/service';
import { askedCategory, categoryInput, sameCategory } from './category';
import { defineTool, money, periodArgs, span } from './define';
import { reportInput, reportQueryOf } from './report-period';

const SPEND = /\b(spend|spent|spending|expenses?|costs?|outgoings)\b/;

/** Expenses by category for a period (the spending report); with `category`, that category's share. */
export const spendingTool = defineTool({
  name: 'spending',
  title: 'Spending by category',
  description:
    'Money spent (expenses) in a period, by category, largest first, from posted transactions in one currency. Give `category` (a name or slug) to single one out.',
  scopes: ['reports.read'],
  input: z.object({
    ...reportInput,
    category: categoryInput,
  }),
  run: async ({ db, teamId, today }, input) => {
    const q = reportQueryOf(input, today);
    const report = await spending(db, teamId, q);
    const asked = input.category;
    const match = asked ? report.categories.filter((c) => sameCategory(asked, c)) : [];
    return { ...report, from: q.from, to: q.to, category: input.category ?? null, matched: match };
  },
  understand: (q) => {
    if (!SPEND.test(q.rest)) return null;
    return { ...periodArgs(q), ...askedCategory(q, ['on', 'for', 'in']) };
  },
  answer: (r, _input, ref) => {
    if (r.category) {
      if (r.matched.length === 0) {
        const top = r.categories.slice(0, 3).map((c) => `${c.name} ${money(c.amount, r.currency)}`);
        return `Nothing was spent on ${r.category} ${span(r)} [${ref}].${top.length ? ` The largest categories were ${top.join(', ')}.` : ''}`;
      }
      const amount = r.matched.reduce((s, c) => s + c.amount, 0);
      const names = r.matched.map((c) => c.name).join(' and ');
      return `You spent ${money(amount, r.currency)} on ${names} ${span(r)} [${ref}].`;
    }
    const top = r.categories.slice(0, 3).map((c) => `${c.name} (${money(c.amount, r.currency)})`);
    return `You spent ${money(r.total, r.currency)} ${span(r)} [${ref}]${top.length ? `, most on ${top.join(', ')}` : ''}.`;
  },
});
