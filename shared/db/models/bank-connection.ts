import { Model, type RelationMappings } from 'objection';
import type { BANK_PROVIDERS, CONNECTION_STATUSES } from '../../domain/bank-connections/schema';
import { BankAccount } from './bank-account';
import { TeamScopedModel } from './base';

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
