import { z } from 'zod';
import { outsideTheWall } from '../../../db/team-wall';
import { roundMoney } from '../../currencies/money';
import { listTransactionsQuery } from '../../transactions/schema';
import { whereFiltered } from '../../transactions/service';
import { narrowingPiece, textSample } from '../../transactions/text-filter';
import { defineTool, money, periodArgs, periodInput, span } from './define';

/**
 * What was paid to a merchant or counterparty: the transactions search's filters (`q=`, expenses,
 * the period), summed per currency by the database in one statement, every match counted.
 */
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
    const filter = listTransactionsQuery.parse({ q: input.counterparty, type: 'expense', from: input.from, to: input.to });
    // Every match is summed: the trigram index is given the rarest part of the name (a short word's
    // start, " 42" of "Merchant 42", where "merchant" is in every row), and is read outside the team
    // wall, under which ilike is evaluated row by row after the policy (shared/db/team-wall.ts).
    const piece = narrowingPiece(input.counterparty, await textSample(db));
    const narrowed = whereFiltered(db, db('transactions as t').where('t.team_id', teamId), filter, piece ? { word: piece } : null)
      .groupBy('t.currency')
      .select<{ currency: string; paid: string; payments: number; first: string; last: string }[]>(
        't.currency',
        db.raw('-sum(t.amount) as paid'),
        db.raw('count(*)::int as payments'),
        db.raw('min(t.date)::text as first'),
        db.raw('max(t.date)::text as last'),
      );
    const rows = await outsideTheWall(() => narrowed);
    const dates = rows.flatMap((r) => [r.first, r.last]).sort();
    return {
      counterparty: input.counterparty,
      from: input.from ?? dates.at(0) ?? null,
      to: input.to ?? dates.at(-1) ?? null,
      totals: rows
        .map((r) => ({ currency: r.currency, amount: roundMoney(Number(r.paid), r.currency), payments: r.payments }))
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
    return `You paid ${r.counterparty} ${parts.join(' and ')}${when} [${ref}].`;
  },
});
