import { TeamScopedModel } from './base';

export const RECURRING_FREQUENCIES = ['weekly', 'biweekly', 'monthly', 'quarterly', 'annually'] as const;
export type RecurringFrequency = (typeof RECURRING_FREQUENCIES)[number];

/** A payment the team makes at a regular interval to one counterparty (migration 0097), as last detected. */
export class RecurringPayment extends TeamScopedModel {
  static override tableName = 'recurring_payments';
  counterpartyKey!: string;
  counterpartyName!: string;
  currency!: string;
  frequency!: RecurringFrequency;
  expectedAmount!: number;
  lastAmount!: number;
  previousAmount!: number;
  lastDate!: string;
  lastTransactionId!: string | null;
  firstDate!: string;
  occurrences!: number;
  nextExpectedDate!: string;
  detectedOn!: string;
  updatedAt!: Date;
}
