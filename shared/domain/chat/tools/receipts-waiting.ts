import { z } from 'zod';
import { listInbox } from '../../inbox/service';
import { defineTool, money } from './define';

/** Receipts in the inbox not yet attached to a transaction (nor archived). */
const WAITING = ['new', 'processing', 'analyzing', 'pending', 'suggested_match', 'no_match'] as const;

export const receiptsWaitingTool = defineTool({
  name: 'receipts_waiting',
  title: 'Receipts waiting',
  description:
    'Receipts and invoices in the inbox that are not matched to a transaction yet, with the ones that have a match suggestion to review.',
  scopes: ['inbox.read'],
  input: z.object({ limit: z.number().int().min(1).max(50).default(10) }),
  run: async ({ db, teamId }, input) => {
    const page = await listInbox(db, teamId, { statuses: [...WAITING], pageSize: 500 });
    return {
      count: page.data.length,
      complete: !page.meta.hasNextPage,
      withSuggestion: page.data.filter((i) => i.status === 'suggested_match').length,
      items: page.data.slice(0, input.limit).map((i) => ({
        id: i.id,
        name: i.displayName ?? i.fileName,
        amount: i.amount,
        currency: i.currency,
        date: i.date,
        status: i.status,
      })),
    };
  },
  understand: (q) => (/\breceipts?\b|\binbox\b/.test(q.rest) ? {} : null),
  answer: (r, _input, ref) => {
    if (r.count === 0) return `No receipts are waiting in the inbox [${ref}].`;
    const items = r.items.map(
      (i) => `${i.name ?? 'unnamed'}${i.amount !== null ? ` ${money(i.amount, i.currency)}` : ''}${i.date ? ` (${i.date})` : ''}`,
    );
    const review = r.withSuggestion ? `, ${r.withSuggestion} with a suggested match to review` : '';
    return `${r.count}${r.complete ? '' : '+'} receipt${r.count === 1 ? ' is' : 's are'} waiting in the inbox${review} [${ref}]: ${items.join('; ')}.`;
  },
});
