import { Model, type RelationMappings } from 'objection';
import { BankAccount } from './bank-account';
import { TeamScopedModel } from './base';

export const BANK_PROVIDERS = ['bank-a', 'bank-b'] as const;
export const CONNECTION_STATUSES = ['connected', 'disconnected'] as const;

export class BankConnection extends TeamScopedModel {
  static override tableName = 'bank_connections';
  provider!: (typeof BANK_PROVIDERS)[number];
  /** The provider's item id (bank-a) or enrollment id (bank-b). */
  referenceId!: string;
  accessTokenEncrypted!: string | null;
  institutionId!: string | null;
  institutionName!: string | null;
  logoUrl!: string | null;
  status!: (typeof CONNECTION_STATUSES)[number];
  errorCode!: string | null;
  errorMessage!: string | null;
  /** The provider's sync cursor, saved with each page of transactions. */
  syncCursor!: string | null;
  lastSyncedAt!: Date | null;
  /** When the provider's consent ends (bank-a's consent_expiration_time); null when it does not expire. */
  consentExpiresAt!: Date | null;
  /** When the provider was read (or its webhook received) for consentExpiresAt: an older reading does not replace it. */
  consentObservedAt!: Date | null;
  /** The expiry the "expires soon" / "expired" notice was sent for: each goes out once per expiry. */
  consentWarningSentFor!: Date | null;
  consentExpiredSentFor!: Date | null;
  /** The most recent break, kept after a repair (errorCode/errorMessage are cleared then). */
  lastErrorCode!: string | null;
  lastErrorMessage!: string | null;
  lastErrorAt!: Date | null;
  updatedAt!: Date;
  /** Its accounts (`withGraphFetched('accounts')`). */
  accounts?: BankAccount[];

  static override relationMappings = (): RelationMappings => ({
    accounts: {
      relation: Model.HasManyRelation,
      modelClass: BankAccount,
      join: { from: 'bank_connections.id', to: 'bank_accounts.bankConnectionId' },
    },
  });
}
