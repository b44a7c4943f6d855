import { z } from 'zod';
import { listTransactionsQuery, type TransactionDto } from '../../transactions/schema';
import { getTransaction, listTransactions } from '../../transactions/service';
import { categoriesLike, categoryInput } from './category';
import { defineTool, money } from './define';

/**
 * Why a transaction is in its category, in the words `GET /transactions/{id}` gives
 * (`categorySource.explanation`): a rule, learned from similar transactions, the bank's category, the
 * language model or a user. "Why is GitHub in Software?", "why is this in Software?" (the newest there).
 */
export const categoryWhyTool = defineTool({
  name: 'category_why',
  title: 'Why a transaction has its category',
  description:
    'Explains how transactions got their category (a rule and what it matched, learned from similar past transactions with a confidence, the bank category, chosen by the language model, or set by hand): one transaction by id, or the newest matching a text and/or in a category.',
  scopes: ['transactions.read'],
  input: z.object({
    transactionId: z.uuid().optional(),
    query: z.string().trim().min(1).max(200).optional().meta({ description: 'Text in the name, counterparty or merchant.' }),
    category: categoryInput,
    limit: z.number().int().min(1).max(20).default(5),
  }),
  run: async ({ db, teamId }, input) => {
    let rows: TransactionDto[];
    if (input.transactionId) rows = [await getTransaction(db, teamId, input.transactionId)];
    else {
      const slugs = input.category ? (await categoriesLike(db, teamId, input.category)).map((c) => c.slug) : undefined;
      if (slugs && !slugs.length) return { transactions: [] };
      const page = await listTransactions(
        db,
        teamId,
        listTransactionsQuery.parse({ q: input.query, categories: slugs, pageSize: input.limit }),
      );
      rows = page.data;
    }
    return {
      transactions: rows.map((t) => ({
        id: t.id,
        date: t.date,
        name: t.name,
        amount: t.amount,
        currency: t.currency,
        category: t.category?.name ?? null,
        by: t.categorySource?.by ?? null,
        why: t.categorySource?.explanation ?? null,
        suggested: t.suggestedCategory ? `${t.suggestedCategory.name} (${t.suggestedCategory.explanation})` : null,
      })),
    };
  },
  understand: (q) => {
    if (!/^why\b/.test(q.rest)) return null;
    const m = /^why\s+(?:is|are|was|were|did)\s+(.+?)(?:\s+(?:in|under|categori[sz]ed as|filed as|booked as|end up in)\s+(.+))?$/i.exec(
      q.restOriginal,
    );
    if (!m) return null;
    const subject = m[1].replace(/^(?:the|our|my)\s+/i, '').trim();
    // The category's group is optional: unmatched, exec leaves undefined where its type says string.
    const category = (m[2] as string | undefined)?.replace(/^(?:the|our)\s+/i, '').trim();
    const query = /^(?:this|that|it|these|those|this one|that one|this transaction|that transaction)$/i.test(subject) ? undefined : subject;
    if (!query && !category) return null;
    return { ...(query ? { query } : {}), ...(category ? { category } : {}) };
  },
  answer: (r, _input, ref) => {
    if (!r.transactions.length) return `No such transaction was found [${ref}].`;
    const lines = r.transactions.map((t) => {
      const what = `${t.date} ${t.name} ${money(t.amount, t.currency)}`;
      if (!t.category) return `${what} has no category${t.suggested ? `; suggested: ${t.suggested}` : ''}`;
      return `${what} is in ${t.category}: ${t.why ?? 'set before the reason was recorded'}`;
    });
    return `${lines.join('; ')} [${ref}].`;
  },
});
