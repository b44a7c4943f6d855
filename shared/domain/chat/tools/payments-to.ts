import { z } from 'zod';
import { roundMoney as round2 } from '../../common/currency';
import { listTransactionsQuery } from '../../transactions/schema';
import { listTransactions } from '../../transactions/service';
import { defineTool, money, periodArgs, periodInput, span } from './define';

// Past this many rows the sum would cost more than a chat answer is worth; the answer says so.
const MAX_ROWS = 2000;

/** What was paid to a merchant or counterparty: the transactions search, summed per currency. */
export const paymentsToTool = defineTool({
  name: 'payments_to',
  title: 'Payments to a merchant',
  description:
    'How much was paid to a merchant or counterparty (matched by name) in a period (default: all time), per currency, with the number of payments.',
  scopes: ['transactions.read'],
  input: z.object({
    counterparty: z.string().trim().min(1).max(200).meta({ description: 'Merchant or counterparty name, or part of it.' }),
    from: periodInput.from.meta({ description: 'First day, inclusive. Default: all time.' }),
    to: periodInput.to.meta({ description: 'Last day, inclusive. Default: today.' }),
  }),
  run: async ({ db, teamId }, input) => {
    const totals = new Map<string, { amount: number; count: number }>();
    let cursor: string | undefined;
    let seen = 0;
    let first: string | null = null;
    let last: string | null = null;
    do {
      const page = await listTransactions(
        db,
        teamId,
        listTransactionsQuery.parse({ q: input.counterparty, type: 'expense', from: input.from, to: input.to, pageSize: 500, cursor }),
      );
      for (const t of page.data) {
        const sum = totals.get(t.currency) ?? { amount: 0, count: 0 };
        totals.set(t.currency, { amount: sum.amount - t.amount, count: sum.count + 1 });
        last ??= t.date;
        first = t.date;
      }
      seen += page.data.length;
      cursor = page.meta.cursor ?? undefined;
    } while (cursor && seen < MAX_ROWS);
    return {
      counterparty: input.counterparty,
      from: input.from ?? first,
      to: input.to ?? last,
      complete: !cursor,
      totals: [...totals]
        .map(([currency, t]) => ({ currency, amount: round2(t.amount), payments: t.count }))
        .sort((a, b) => b.amount - a.amount),
    };
  },
  understand: (q) => {
    const m =
      /\b(?:pay|paid|payed)\s+(?:to\s+)?(.+)$/.exec(q.restOriginal) ??
      /\b(?:spend|spent|spending)\s+(?:at|with)\s+(.+)$/.exec(q.restOriginal);
    const counterparty = m?.[1]
      .replace(/\b(in total|so far|altogether|overall|in all)\b/gi, '')
      .replace(/^(?:the|our)\s+/i, '')
      .trim();
    if (!counterparty || /^(for|on|in)\b/i.test(counterparty)) return null;
    return { counterparty, ...periodArgs(q) };
  },
  answer: (r, _input, ref) => {
    const when = r.from && r.to ? ` ${span({ from: r.from, to: r.to })}` : '';
    if (r.totals.length === 0) return `No payments to ${r.counterparty} were found${when} [${ref}].`;
    const parts = r.totals.map((t) => `${money(t.amount, t.currency)} in ${t.payments} payment${t.payments === 1 ? '' : 's'}`);
    return `You paid ${r.counterparty} ${parts.join(' and ')}${when} [${ref}]${r.complete ? '' : ` (the first ${MAX_ROWS} payments only)`}.`;
  },
});
