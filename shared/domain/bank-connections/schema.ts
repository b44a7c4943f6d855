import { z } from 'zod';
import { ACCOUNT_TYPES, BANK_PROVIDERS, CONNECTION_STATUSES } from '../../db/models';
import { currencyCode } from '../common/currency';
import { moneyAmount } from '../common/money';
import { isoDate } from '../common/query';

export const bankAccountSchema = z
  .object({
    id: z.uuid(),
    connectionId: z.uuid().nullable(),
    name: z.string(),
    currency: z.string(),
    type: z.enum(ACCOUNT_TYPES),
    subtype: z.string().nullable(),
    mask: z.string().nullable().meta({ description: 'Last digits of the account number.' }),
    balance: z
      .number()
      .nullable()
      .meta({ description: "The provider's balance; for a manual account, its opening balance plus its transactions since." }),
    availableBalance: z.number().nullable(),
    creditLimit: z.number().nullable(),
    enabled: z.boolean().meta({ description: 'Disabled accounts are left out of reports.' }),
    manual: z.boolean().meta({
      description: 'An account no provider feeds (cash, a card without a feed); its transactions are entered by hand or imported.',
    }),
    openingBalance: z.number().nullable(),
    openingBalanceDate: z.string().nullable(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'BankAccount' });

export const bankConnectionSchema = z
  .object({
    id: z.uuid(),
    provider: z.enum(BANK_PROVIDERS),
    referenceId: z.string().meta({ description: "The provider's item id (bank-a) or enrollment id (bank-b)." }),
    status: z.enum(CONNECTION_STATUSES),
    institution: z.object({ id: z.string().nullable(), name: z.string().nullable() }),
    error: z
      .object({ code: z.string().nullable(), message: z.string().nullable() })
      .nullable()
      .meta({ description: 'Why it was disconnected, when it was.' }),
    lastError: z
      .object({ code: z.string().nullable(), message: z.string().nullable(), at: z.iso.datetime() })
      .nullable()
      .meta({ description: 'The most recent break, kept after the connection is repaired (`error` is only the current one).' }),
    expiresAt: z.iso.datetime().nullable().meta({
      description:
        "When the provider's consent ends (bank-a's consent expiration; null when it does not expire). The team is notified ahead of it and on it; reconnecting renews it.",
    }),
    lastSyncedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    accounts: z.array(bankAccountSchema),
  })
  .meta({
    id: 'BankConnection',
    description: "A link to a banking-data provider; its accounts and transactions are kept in sync from the provider's webhooks.",
  });

export type BankConnectionDto = z.infer<typeof bankConnectionSchema>;
export type BankAccountDto = z.infer<typeof bankAccountSchema>;

export const createBankConnectionBody = z
  .discriminatedUnion('provider', [
    z
      .object({
        provider: z.literal('bank-a'),
        publicToken: z.string().min(1).max(500).meta({ description: 'From bank-a Link; exchanged for an access token.' }),
      })
      .strict(),
    z.object({ provider: z.literal('bank-b'), accessToken: z.string().min(1).max(500), enrollmentId: z.string().min(1).max(200) }).strict(),
  ])
  .meta({ id: 'CreateBankConnection' });

export const idParams = z.object({ id: z.uuid() });
export const updateBankAccountBody = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    enabled: z.boolean().optional(),
    openingBalance: moneyAmount.optional().meta({ description: 'Manual accounts only: the balance on `openingBalanceDate`.' }),
    openingBalanceDate: isoDate.nullable().optional().meta({
      description: 'Manual accounts only: transactions on this day or later count towards the balance; null: all of them.',
    }),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'give at least one field to change' })
  .meta({ id: 'UpdateBankAccount' });

export const createBankAccountBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    currency: currencyCode,
    type: z.enum(ACCOUNT_TYPES).default('depository'),
    openingBalance: moneyAmount.default(0).meta({ description: 'The balance on `openingBalanceDate`.' }),
    openingBalanceDate: isoDate
      .optional()
      .meta({ description: 'Transactions on this day or later count towards the balance; default: all of them.' }),
  })
  .strict()
  .meta({ id: 'CreateBankAccount', description: 'A manual account: no provider feeds it.' });

export const linkSessionBody = z
  .object({ provider: z.enum(BANK_PROVIDERS) })
  .strict()
  .meta({ id: 'CreateBankLinkSession' });

export const linkSessionSchema = z
  .object({
    provider: z.enum(BANK_PROVIDERS),
    mode: z.enum(['create', 'update']).meta({ description: '`update`: repairs an existing connection (reconnect).' }),
    linkToken: z.string().nullable().meta({
      description:
        'bank-a: the token to open Link with; it completes with a `public_token` (create mode) for `POST /bank-connections/exchange`.',
    }),
    enrollmentUrl: z
      .string()
      .nullable()
      .meta({ description: 'bank-b: where the user enrolls; Connect completes with an access token and enrollment id.' }),
    sessionId: z.string().nullable().meta({ description: "bank-b: the Connect session's id." }),
    expiresAt: z.iso.datetime().meta({ description: 'The session cannot be completed after this.' }),
    connectionId: z.uuid().nullable().meta({ description: 'The connection being repaired (update mode).' }),
  })
  .meta({ id: 'BankLinkSession', description: "What a client needs to open the provider's own linking UI." });

export const reconnectCompleteBody = z
  .object({
    accessToken: z.string().min(1).max(500).optional().meta({
      description: 'bank-b: the token Connect returned for the repaired enrollment (when it issued a new one). bank-a keeps its token.',
    }),
  })
  .strict()
  .meta({ id: 'CompleteBankReconnect' });

export type LinkSession = z.infer<typeof linkSessionSchema>;

export const syncStartedSchema = z.object({ workflowId: z.string(), status: z.literal('sync_requested') }).meta({ id: 'SyncRequested' });
