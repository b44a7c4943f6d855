import { z } from 'zod';
import { listTransactionsQuery } from '../../transactions/schema';
import { listTransactions } from '../../transactions/service';
import { defineTool, money, periodArgs, periodInput } from './define';

export const transactionsSearchTool = defineTool({
  name: 'transactions_search',
  title: 'Search transactions',
  description:
    'Transactions matching a text (name, description, counterparty, merchant), a period, a category slug or a direction, newest first; at most `limit`.',
  scopes: ['transactions.read'],
  input: z.object({
    query: z.string().trim().min(1).max(200).optional(),
    ...periodInput,
    category: z.string().trim().min(1).max(100).optional().meta({ description: 'Category slug.' }),
    type: z.enum(['income', 'expense']).optional(),
    limit: z.number().int().min(1).max(50).default(10),
  }),
  run: async ({ db, teamId }, input) => {
    const page = await listTransactions(
      db,
      teamId,
      listTransactionsQuery.parse({
        q: input.query,
        from: input.from,
        to: input.to,
        categories: input.category,
        type: input.type,
        pageSize: input.limit,
      }),
    );
    return {
      transactions: page.data.map((t) => ({
        id: t.id,
        date: t.date,
        name: t.name,
        amount: t.amount,
        currency: t.currency,
        category: t.category?.name ?? null,
        categorizedBy: t.categorySource?.explanation ?? null,
        // A split transaction is found by its parts' categories: they say what of it is in which.
        ...(t.splits ? { parts: t.splits.map((p) => ({ amount: p.amount, category: p.category?.name ?? null })) } : {}),
      })),
      hasMore: page.meta.hasNextPage,
    };
  },
  understand: (q) => {
    if (!/\btransactions?\b/.test(q.rest)) return null;
    const query = /\b(?:from|to|with|at|named|called|matching|containing|for)\s+(.+)$/.exec(q.restOriginal)?.[1]?.trim();
    return { ...periodArgs(q), ...(query ? { query } : {}) };
  },
  answer: (r, _input, ref) => {
    if (r.transactions.length === 0) return `No transactions match [${ref}].`;
    const lines = r.transactions.map((t) => `${t.date} ${t.name} ${money(t.amount, t.currency)}`);
    return `${r.hasMore ? 'The latest' : 'Found'} ${r.transactions.length} transaction${r.transactions.length === 1 ? '' : 's'} [${ref}]: ${lines.join('; ')}.`;
  },
});
