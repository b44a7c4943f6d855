import { TeamScopedModel } from './base';

export const MERGE_REASONS = ['booked', 'duplicate'] as const;
export type MergeReason = (typeof MERGE_REASONS)[number];

/**
 * A merge of two transactions (migration 0094): the merged-away row's snapshot and what the merge
 * moved onto the survivor; the domain gives `snapshot` its type.
 */
export class TransactionMerge extends TeamScopedModel {
  static override tableName = 'transaction_merges';
  static override jsonAttributes = ['snapshot'];
  survivorId!: string;
  mergedId!: string;
  reason!: MergeReason;
  snapshot!: object;
}
