import { z } from 'zod';
import { roundMoney } from '../../currencies/money';
import { listInvoicesQuery } from '../../invoices/schema';
import { listInvoices } from '../../invoices/service';
import { defineTool, money } from './define';

export const unpaidInvoicesTool = defineTool({
  name: 'unpaid_invoices',
  title: 'Unpaid and overdue invoices',
  description:
    'Invoices sent and not paid yet (unpaid and overdue), with what is still due on each (less payments and credit notes) and its totals per currency; `overdueOnly` for those past their due date.',
  scopes: ['invoices.read'],
  input: z.object({ overdueOnly: z.boolean().default(false) }),
  run: async ({ db, teamId }, input) => {
    const page = await listInvoices(
      db,
      teamId,
      listInvoicesQuery.parse({ statuses: input.overdueOnly ? ['overdue'] : ['unpaid', 'overdue'], pageSize: 500 }),
    );
    // The most pressing first: earliest due date, undated last.
    const byDue = [...page.data].sort((a, b) => (a.dueDate ?? '9999').localeCompare(b.dueDate ?? '9999'));
    const totals = new Map<string, number>();
    for (const i of page.data) totals.set(i.currency, (totals.get(i.currency) ?? 0) + i.amountDue);
    return {
      count: page.data.length,
      overdue: page.data.filter((i) => i.status === 'overdue').length,
      complete: !page.meta.hasNextPage,
      totals: [...totals].map(([currency, amount]) => ({ currency, amount: roundMoney(amount, currency) })),
      invoices: byDue.slice(0, 20).map((i) => ({
        id: i.id,
        invoiceNumber: i.invoiceNumber,
        customer: i.customer?.name ?? null,
        amount: i.amount,
        amountDue: i.amountDue,
        currency: i.currency,
        dueDate: i.dueDate,
        status: i.status,
      })),
    };
  },
  understand: (q) =>
    /\binvoices?\b/.test(q.rest) && /\b(unpaid|overdue|outstanding|open|owes?|owed|owing|not (yet )?(been )?paid|late|due)\b/.test(q.rest)
      ? { overdueOnly: /\b(overdue|late)\b/.test(q.rest) }
      : null,
  answer: (r, input, ref) => {
    const what = input.overdueOnly ? 'overdue' : 'unpaid';
    if (r.count === 0) return `No invoices are ${what} [${ref}].`;
    const total = r.totals.map((t) => money(t.amount, t.currency)).join(' and ');
    const list = r.invoices.map(
      (i) =>
        `${i.invoiceNumber}${i.customer ? ` (${i.customer})` : ''} ${money(i.amountDue, i.currency)}${i.dueDate ? ` due ${i.dueDate}` : ''}${i.status === 'overdue' ? ', overdue' : ''}`,
    );
    const overdue = !input.overdueOnly && r.overdue ? `, ${r.overdue} of them overdue` : '';
    return `${r.count}${r.complete ? '' : '+'} invoice${r.count === 1 ? ' is' : 's are'} ${what}${overdue}, ${total} in total [${ref}]: ${list.join('; ')}.`;
  },
});
