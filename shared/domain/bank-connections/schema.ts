import { z } from 'zod';
import { BANK_PROVIDERS, CONNECTION_STATUSES } from '../../db/models';
import { bankAccountSchema } from '../bank-accounts/schema';

/** Connections are addressed by id as their accounts are: one path schema for both. */
export { idParams } from '../bank-accounts/schema';

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
