import { TeamScopedModel } from './base';

export class IdempotencyKey extends TeamScopedModel {
  static override tableName = 'idempotency_keys';
  credential!: string;
  key!: string;
  requestHash!: string;
  state!: 'in_progress' | 'completed';
  responseStatus!: number | null;
  responseBody!: unknown;
  static override jsonAttributes = ['responseBody'];
}
