import * as schema from '../../shared/domain/transactions/schema';
import * as service from '../../shared/domain/transactions/service';
import * as bulk from '../../shared/domain/transactions/bulk';
import * as merges from '../../shared/domain/transactions/merge';
import * as splits from '../../shared/domain/transactions/splits';
import { requestLlmCategoriesAfterArrival } from '../../shared/domain/learned-categories/llm';
import { mutation, none, one, page, query } from './declare';

export const transactions = [
  query('transactions.get', 'GET /transactions', ['transactions.read'], {
    summary: 'List transactions',
    description:
      "The team's transactions, newest first (by date, then id) or in the order `sort` names (`sort=-amount,date`), with keyset pagination: pass `meta.cursor` back as `cursor`, with the same `sort`, for the next page. `categorizedBy` selects by how the category was set (a rule, learned, the bank's category, the language model, a user).",
    input: schema.listTransactionsQuery,
    output: page(schema.transactionSchema),
    run: ({ principal, input }, { db }) => service.listTransactions(db, principal.teamId, input),
  }),
  query('transactions.getById', 'GET /transactions/:id', ['transactions.read'], {
    summary: 'Get a transaction',
    description:
      "The transaction, with `categorySource` (why it has its category, in words in its `explanation`: \"Rule 'SaaS' matched: name contains 'github'\", \"Learned from 4 similar transactions (e.g. 'GitHub'), confidence 0.93\", the bank's category, the language model or a user), `suggestedCategory` (without a category: what similar transactions suggest, below the team's threshold), `splits` (its parts, when split) and `mergedFrom`: the transactions merged into it (a pending one it replaced when booked, a duplicate entered by hand or imported), each restorable by `POST /transactions/{id}/unmerge`.",
    input: schema.transactionIdParams,
    output: one(schema.transactionDetailSchema),
    run: ({ principal, input }, { db }) => merges.getTransactionDetail(db, principal.teamId, input.id),
  }),
  mutation('transactions.create', 'POST /transactions', ['transactions.write'], {
    status: 201,
    summary: 'Create a manual transaction',
    description:
      "For transactions that no bank feed brings in (cash, imports). Every referenced account, category, tag and user must belong to your team. Without a `categorySlug`, a new transaction is categorised as a synced or imported one is: by the team's rules, then learned from its similar past transactions (applied from the team's `learnedCategoryThreshold`, suggested below it).",
    input: schema.createTransactionBody,
    output: one(schema.transactionSchema),
    run: async ({ principal, input }, { db, config, temporal, logger }) => {
      const created = await service.createTransaction(db, principal.teamId, input);
      // Not awaited: the answer does not wait for Temporal, and a row it misses waits for the team's next arrival.
      if (!created.category)
        void requestLlmCategoriesAfterArrival({ config, temporal }, principal.teamId, (err) => {
          logger.warn({ err: String(err) }, 'language model categories not requested after a create');
        });
      return created;
    },
  }),
  mutation('transactions.update', 'PATCH /transactions/:id', ['transactions.write'], {
    body: 'data',
    summary: 'Update a transaction',
    description:
      'Categorise, tag, annotate, exclude or archive any transaction. Date, name, amount, currency, description, method, counterparty and account can change only on manual transactions: for bank-synced ones the bank is the source of truth (400).',
    input: schema.transactionIdParams.extend({ data: schema.updateTransactionBody }),
    output: one(schema.transactionSchema),
    run: ({ principal, input }, { db }) => service.updateTransaction(db, principal.teamId, input.id, input.data),
  }),
  mutation('transactions.delete', 'DELETE /transactions/:id', ['transactions.write'], {
    summary: 'Delete a manual transaction',
    description: 'Bank-synced transactions cannot be deleted (409): set `status` to `excluded` instead.',
    input: schema.transactionIdParams,
    output: none,
    run: ({ principal, input }, { db }) => service.deleteTransaction(db, principal.teamId, input.id),
  }),
  mutation('transactions.unmerge', 'POST /transactions/:id/unmerge', ['transactions.write'], {
    summary: 'Undo a merge',
    description: [
      'Transactions are merged when one replaces another: a booked bank transaction replaces its pending one (bank-a links them by `pending_transaction_id`; for a bank that does not, the same account, an amount within 20 %, a date up to 7 days later and a similar name), and a synced transaction replaces a row entered by hand or imported that it duplicates (the same account or none, currency and amount, a date a few days apart, a similar name; each row pairs at most once, so two identical purchases on one day stay two).',
      'The one that stays takes over the other’s category, tags, note, assignee, flags, attachments and receipt and invoice matches (a field its own user set stays), and lists it in `mergedFrom`.',
      'This restores the merged transaction (`mergedId`, or the latest merge) exactly as it was, with its id, tags and links, and takes back from this one what the merge gave it, unless it was changed since. 404 when there is no such merge.',
    ].join(' '),
    input: schema.unmergeParams,
    output: one(schema.unmergeResultSchema),
    run: ({ principal, input }, { db }) => merges.unmerge(db, principal.teamId, input.id, input.mergedId),
  }),
  mutation('transactions.split', 'PUT /transactions/:id/splits', ['transactions.write'], {
    summary: 'Split a transaction into parts',
    description: [
      `Replaces the transaction's parts with these: from 2 to ${schema.MAX_SPLIT_PARTS}, each with its own amount, category, tags and note.`,
      "Each amount has the transaction's sign and at most its currency's decimals (two for EUR, none for JPY, three for BHD), and together they must make the transaction's amount exactly; otherwise 400, naming each part, and nothing changes. Categories and tags must be your team's (400).",
      'Reports, the `categories` filter of `GET /transactions` and exports (CSV, XLSX, DATEV: one row or booking per part) then count each part in its own category instead of the whole.',
      'A split set here is set by hand: no rule replaces it. When the amount or currency of the transaction changes (a manual edit, a bank that books another amount), the parts no longer add up and are removed.',
    ].join(' '),
    input: schema.setSplitsParams,
    output: one(schema.transactionDetailSchema),
    run: ({ principal, input }, { db }) => splits.setSplits(db, principal.teamId, input.id, input.parts),
  }),
  mutation('transactions.unsplit', 'DELETE /transactions/:id/splits', ['transactions.write'], {
    summary: 'Remove the parts of a split transaction',
    description:
      'The transaction counts whole again, in its own category, in reports, filters and exports. No rule splits it again afterwards. Answers the transaction; one that was not split is answered unchanged.',
    input: schema.transactionIdParams,
    output: one(schema.transactionDetailSchema),
    run: ({ principal, input }, { db }) => splits.removeSplits(db, principal.teamId, input.id),
  }),
  mutation('transactions.bulkUpdate', 'PATCH /transactions/bulk', ['transactions.write'], {
    summary: 'Change many transactions at once',
    description: `Select by \`ids\` or by \`filter\` (the list's filters as JSON), up to ${bulk.BULK_LIMIT.toLocaleString('en')} transactions, and \`set\` a category, status, assignee, note, flags, or tags to add or remove. All or nothing: an id that is not the team's is 404, a filter that selects more than the limit is 400, and nothing changes. Answers how many were selected and how many really changed.`,
    input: bulk.bulkUpdateBody,
    output: one(bulk.bulkResultSchema),
    run: ({ principal, input }, { db }) => bulk.bulkUpdateTransactions(db, principal.teamId, input),
  }),
  mutation('transactions.bulkDelete', 'DELETE /transactions/bulk', ['transactions.write'], {
    summary: 'Delete many manual transactions',
    description: `Up to ${bulk.BULK_LIMIT.toLocaleString('en')} ids, all or nothing: an id that is not the team's is 404, a bank-synced transaction among them is 409 (it would come back with the next sync; exclude it instead).`,
    input: bulk.bulkDeleteBody,
    output: one(bulk.bulkResultSchema),
    run: ({ principal, input }, { db }) => bulk.bulkDeleteTransactions(db, principal.teamId, input.ids),
  }),
];
