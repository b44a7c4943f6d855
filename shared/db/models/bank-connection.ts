import { TeamScopedModel } from './base';

export class BankConnection extends TeamScopedModel {
  static override tableName = 'bank_connections';
  provider!: 'bank-a' | 'bank-b';
  referenceId!: string;
  accessTokenEncrypted!: string | null;
  institutionId!: string | null;
  institutionName!: string | null;
  logoUrl!: string | null;
  status!: 'connected' | 'disconnected';
  errorCode!: string | null;
  errorMessage!: string | null;
  syncCursor!: string | null;
  lastSyncedAt!: string | null;
  updatedAt!: string;
}
