import { z } from 'zod';
import { CATEGORY_SOURCES, MERGE_REASONS, TRANSACTION_FREQUENCIES, TRANSACTION_METHODS, TRANSACTION_STATUSES } from '../../db/models';
import { isoDate, multi, pageSize, queryBoolean, searchText } from '../common/query';
import { currencyCode } from '../common/currency';
import { moneyAmount } from '../common/money';
import { sortParam, type Sort } from '../common/sort';

const money = z.number().meta({ description: 'Signed amount: negative is an expense, positive is income.', example: -42.5 });
const currency = currencyCode;
const categoryRef = z.object({ slug: z.string(), name: z.string(), color: z.string().nullable() });
const tagRef = z.object({ id: z.uuid(), name: z.string() });

/** At most this many parts to a split: a receipt's lines, not a ledger. */
export const MAX_SPLIT_PARTS = 100;

export const splitPartSchema = z
  .object({
    amount: money.meta({ description: "The part's amount, in the transaction's currency and with its sign." }),
    category: categoryRef.nullable(),
    tags: z.array(tagRef),
    note: z.string().nullable(),
  })
  .meta({ id: 'TransactionSplitPart', description: 'One part of a split transaction.' });

export const transactionSchema = z
  .object({
    id: z.uuid(),
    date: isoDate.meta({ description: 'Booking date, YYYY-MM-DD.', example: '2026-11-02' }),
    name: z.string().meta({ description: 'Display name, usually the counterparty as the bank shows it.' }),
    description: z.string().nullable(),
    amount: money,
    currency,
    status: z.enum(TRANSACTION_STATUSES),
    method: z.enum(TRANSACTION_METHODS),
    category: categoryRef.nullable().meta({ description: 'The category, when one is set.' }),
    categorySource: z
      .object({
        by: z.enum(CATEGORY_SOURCES).meta({
          description:
            "`rule`: a transaction rule set it. `learned`: the team categorised similar transactions so (nearest neighbours over merchant words, amount and account), with a confidence at or above the team's `learnedCategoryThreshold`. `provider`: the bank's own category, mapped onto the default tree, when nothing else applied. `llm`: the language model (`LLM_API_URL`) chose it for a transaction nothing else categorised, at a confidence of its own at or above the team's `learnedCategoryThreshold`; the `explanation` names the model. `user`: set by hand.",
        }),
        ruleId: z.uuid().nullable(),
        ruleName: z.string().nullable(),
        explanation: z.string().meta({
          description: 'The reason in words.',
          example: "Learned from 4 similar transactions (e.g. 'GitHub'), confidence 0.93",
        }),
        confidence: z.number().optional().meta({ description: 'Learned, llm: how sure, 0 to 1.' }),
        neighbours: z
          .array(z.object({ id: z.string(), name: z.string() }))
          .optional()
          .meta({ description: 'Learned: some of the past transactions it was learned from, the nearest first.' }),
        providerCategory: z.string().optional().meta({ description: "Provider: the bank's category, as the bank sent it." }),
      })
      .nullable()
      .meta({
        description:
          "Why the transaction has its category: a rule (which, and what it matched), learned from similar transactions, the bank's category, the language model, or a user. Null without a category, or when it was set before this was recorded.",
      }),
    suggestedCategory: z
      .object({
        slug: z.string(),
        name: z.string(),
        confidence: z
          .number()
          .meta({ description: "0 to 1, below the team's `learnedCategoryThreshold` (at or above it the category is applied)." }),
        explanation: z.string().meta({ example: "Learned from 2 similar transactions (e.g. 'AMAZON MKTPLACE'), confidence 0.61" }),
        neighbours: z.array(z.object({ id: z.string(), name: z.string() })),
      })
      .nullable()
      .meta({
        description:
          "Without a category: the one the team's similar past transactions point to (or, when none do, the language model), not confident enough to apply. Setting `categorySlug` accepts or overrules it.",
      }),
    counterpartyName: z.string().nullable(),
    merchantName: z.string().nullable(),
    note: z.string().nullable(),
    manual: z.boolean().meta({ description: 'Created through the API rather than a bank feed.' }),
    internal: z.boolean().meta({ description: "A transfer between the team's own accounts." }),
    recurring: z.boolean(),
    frequency: z.string().nullable(),
    taxAmount: z.number().nullable(),
    taxRate: z.number().nullable().meta({ description: 'Percent, e.g. 20 for 20 %.' }),
    taxType: z.string().nullable(),
    account: z
      .object({ id: z.uuid(), name: z.string(), currency: z.string() })
      .nullable()
      .meta({ description: 'The bank account it was booked on; null for manual transactions without one.' }),
    tags: z.array(tagRef),
    splits: z.array(splitPartSchema).nullable().meta({
      description:
        'The parts of a split transaction, in order; they sum to `amount`. Reports, category filters and exports count each part in its own category instead of the whole. Null when it is not split.',
    }),
    attachments: z.array(z.object({ id: z.uuid(), name: z.string(), mimeType: z.string(), size: z.number() })),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Transaction', description: 'A financial transaction of the team.' });

export type TransactionDto = z.infer<typeof transactionSchema>;

export const mergedFromSchema = z
  .object({
    id: z
      .uuid()
      .meta({ description: 'The merged-away transaction’s id; `POST /transactions/{id}/unmerge` with it as `mergedId` restores it.' }),
    reason: z.enum(MERGE_REASONS).meta({
      description:
        '`booked`: the pending transaction this booked one replaced. `duplicate`: a row entered by hand or imported that this one duplicated.',
    }),
    mergedAt: z.iso.datetime(),
    date: isoDate,
    name: z.string(),
    amount: money,
  })
  .meta({ id: 'MergedTransaction' });

export const transactionDetailSchema = transactionSchema
  .extend({
    mergedFrom: z.array(mergedFromSchema).meta({
      description:
        'Transactions merged into this one, newest first: it took over their category, tags, note, attachments and matches, and each can be restored by an unmerge.',
    }),
  })
  .meta({ id: 'TransactionDetail', description: 'A transaction of the team, with the transactions merged into it.' });

export type TransactionDetailDto = z.infer<typeof transactionDetailSchema>;

export const unmergeResultSchema = z
  .object({
    transaction: transactionDetailSchema.meta({ description: 'The transaction that was merged into, as it is now.' }),
    restored: transactionSchema.meta({ description: 'The transaction restored, with its id, fields, tags and links as before the merge.' }),
  })
  .meta({ id: 'UnmergeResult' });

/** The fields `GET /transactions` sorts by; each has a (team_id, field, id) index (migrations 0001, 0086). */
export const TRANSACTION_SORT_FIELDS = ['date', 'amount', 'name', 'createdAt'] as const;
export type TransactionSortField = (typeof TRANSACTION_SORT_FIELDS)[number];
export type TransactionSort = Sort<TransactionSortField>;
const transactionSort = sortParam(TRANSACTION_SORT_FIELDS, '-date');
/** Newest first: the list's order when none is asked for, served by its hand-assembled SQL. */
export const NEWEST_FIRST_SORT: TransactionSort = transactionSort.parse(undefined);

export const listTransactionsQuery = z
  .object({
    cursor: z.string().optional().meta({ description: "Opaque cursor from the previous page's `meta.cursor`." }),
    pageSize: pageSize.meta({ description: 'Rows per page, 1 to 500.', example: 50 }),
    sort: transactionSort,
    q: searchText('Case-insensitive search in name, description, counterparty and merchant.'),
    from: isoDate.optional().meta({ description: 'Earliest date, inclusive.' }),
    to: isoDate.optional().meta({ description: 'Latest date, inclusive.' }),
    statuses: multi(z.enum(TRANSACTION_STATUSES)).meta({
      description: 'One or more statuses (repeat the key or separate by commas). Default: every status except excluded and archived.',
    }),
    accounts: multi(z.uuid()).meta({ description: 'Bank account ids.' }),
    categories: multi(z.string().min(1)).meta({ description: 'Category slugs.' }),
    tags: multi(z.uuid()).meta({ description: 'Tag ids; a transaction matches when it has any of them.' }),
    currency: currency.optional(),
    type: z.enum(['income', 'expense']).optional().meta({ description: '`income` (amount > 0) or `expense` (amount < 0).' }),
    amountMin: z.coerce.number().optional(),
    amountMax: z.coerce.number().optional(),
    manual: queryBoolean.meta({ description: '`true` for API-created, `false` for bank-synced.' }),
    categorizedBy: multi(z.enum(CATEGORY_SOURCES)).meta({
      description: 'How the category was set (`categorySource.by`): `rule`, `learned`, `provider`, `llm` or `user`; one or more.',
    }),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: '`from` must not be after `to`', path: ['from'] })
  .refine((q) => q.amountMin === undefined || q.amountMax === undefined || q.amountMin <= q.amountMax, {
    message: '`amountMin` must not exceed `amountMax`',
    path: ['amountMin'],
  });

/** The list's query; callers inside the service layer (exports, chat tools) may leave out the sort. */
export type ListTransactionsQuery = Omit<z.infer<typeof listTransactionsQuery>, 'sort'> & { sort?: TransactionSort };
/** What selects transactions, in a list or a bulk edit. */
export type TransactionFilter = Omit<ListTransactionsQuery, 'cursor' | 'pageSize' | 'sort'>;

/**
 * The list's filters as JSON, for operations that select transactions in a body (a bulk edit, an
 * export): the same fields and meanings as the query of `GET /transactions`, typed instead of strings.
 */
export const transactionFilterBody = z
  .object({
    q: z.string().trim().min(1).max(200).optional(),
    from: isoDate.optional(),
    to: isoDate.optional(),
    statuses: z.array(z.enum(TRANSACTION_STATUSES)).min(1).optional(),
    accounts: z.array(z.uuid()).min(1).max(500).optional(),
    categories: z.array(z.string().min(1)).min(1).max(500).optional(),
    tags: z.array(z.uuid()).min(1).max(500).optional(),
    currency: currency.optional(),
    type: z.enum(['income', 'expense']).optional(),
    amountMin: z.number().optional(),
    amountMax: z.number().optional(),
    manual: z.boolean().optional(),
    categorizedBy: z.array(z.enum(CATEGORY_SOURCES)).min(1).optional(),
  })
  .strict()
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: '`from` must not be after `to`', path: ['from'] })
  .refine((q) => q.amountMin === undefined || q.amountMax === undefined || q.amountMin <= q.amountMax, {
    message: '`amountMin` must not exceed `amountMax`',
    path: ['amountMin'],
  })
  .meta({ id: 'TransactionFilter', description: 'The same filters as `GET /transactions`, as JSON.' });

export type TransactionFilterBody = z.infer<typeof transactionFilterBody>;

export const transactionIdParams = z.object({ id: z.uuid().meta({ description: 'Transaction id.' }) });

// Strict, as every body is: a misspelt `mergedId` must be a 400, not "the latest merge".
export const unmergeParams = transactionIdParams
  .extend({
    mergedId: z
      .uuid()
      .optional()
      .meta({ description: 'Which merged transaction to restore (one of `mergedFrom`); the latest merge when left out.' }),
  })
  .strict();

export const splitPartBody = z
  .object({
    amount: moneyAmount.meta({
      description: "The part's amount, with the transaction's sign, in its currency's minor units (two decimals for EUR, none for JPY).",
      example: -30,
    }),
    categorySlug: z.string().min(1).max(100).nullable().optional().meta({ description: 'Category slug of the team.' }),
    tags: z.array(z.uuid()).max(50).optional().meta({ description: 'Tag ids of the team.' }),
    note: z.string().max(5000).nullable().optional(),
  })
  .strict()
  .meta({ id: 'TransactionSplitPartInput' });
export type SplitPartBody = z.infer<typeof splitPartBody>;

// Strict, as every body is: the parts replace the current ones whole.
export const setSplitsParams = transactionIdParams
  .extend({
    parts: z
      .array(splitPartBody)
      .min(2)
      .max(MAX_SPLIT_PARTS)
      .meta({ description: `From 2 to ${MAX_SPLIT_PARTS} parts that sum exactly to the transaction's amount.` }),
  })
  .strict();

/** Fields a user may set on any transaction, bank-synced or manual. */
const annotations = {
  categorySlug: z.string().min(1).max(100).nullable().optional().meta({ description: 'Category slug of the team; null clears it.' }),
  note: z.string().max(5000).nullable().optional(),
  tags: z.array(z.uuid()).max(50).optional().meta({ description: 'Tag ids of the team; replaces the current tags.' }),
  assignedId: z.uuid().nullable().optional().meta({ description: 'A member of the team responsible for it.' }),
  internal: z.boolean().optional(),
  recurring: z.boolean().optional(),
  frequency: z.enum(TRANSACTION_FREQUENCIES).nullable().optional(),
  taxAmount: moneyAmount.nullable().optional(),
  taxRate: z.number().min(0).max(100).nullable().optional(),
  taxType: z.string().max(50).nullable().optional(),
};

export const createTransactionBody = z
  .object({
    date: isoDate,
    name: z.string().trim().min(1).max(500),
    amount: moneyAmount,
    currency,
    description: z.string().max(5000).nullable().optional(),
    method: z.enum(TRANSACTION_METHODS).default('other'),
    status: z.enum(['posted', 'pending', 'completed']).default('posted'),
    bankAccountId: z.uuid().nullable().optional().meta({ description: 'A bank account of the team.' }),
    counterpartyName: z.string().max(500).nullable().optional(),
    ...annotations,
  })
  .strict()
  .meta({ id: 'CreateTransaction', description: 'A manual transaction (not from a bank feed).' });

export const updateTransactionBody = z
  .object({
    // Only manual transactions may change these: for bank-synced ones the bank is the source of truth.
    date: isoDate.optional(),
    name: z.string().trim().min(1).max(500).optional(),
    amount: moneyAmount.optional(),
    currency: currency.optional(),
    description: z.string().max(5000).nullable().optional(),
    method: z.enum(TRANSACTION_METHODS).optional(),
    counterpartyName: z.string().max(500).nullable().optional(),
    bankAccountId: z.uuid().nullable().optional(),
    status: z
      .enum(TRANSACTION_STATUSES)
      .optional()
      .meta({ description: '`excluded` hides a bank transaction from lists and reports; `archived` files it away.' }),
    ...annotations,
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'give at least one field to change' })
  .meta({ id: 'UpdateTransaction' });

export type CreateTransactionBody = z.infer<typeof createTransactionBody>;
export type UpdateTransactionBody = z.infer<typeof updateTransactionBody>;

export const BANK_OWNED_FIELDS = [
  'date',
  'name',
  'amount',
  'currency',
  'description',
  'method',
  'counterpartyName',
  'bankAccountId',
] as const;
