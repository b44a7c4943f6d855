import { TeamScopedModel } from './base';

export const TRANSACTION_STATUSES = ['posted', 'pending', 'excluded', 'completed', 'archived'] as const;
export const TRANSACTION_METHODS = [
  'payment',
  'card_purchase',
  'card_atm',
  'transfer',
  'ach',
  'wire',
  'deposit',
  'interest',
  'fee',
  'other',
  'unknown',
] as const;
export const TRANSACTION_FREQUENCIES = ['weekly', 'biweekly', 'monthly', 'semi_monthly', 'quarterly', 'annually', 'irregular'] as const;

/** The fields a rule may set, and which a user's own edit protects from rules (`manual_fields`). */
export const RULE_FIELDS = ['categorySlug', 'tags', 'assignedId', 'note', 'status', 'recurring', 'splits'] as const;
export type RuleField = (typeof RULE_FIELDS)[number];

/** Who can set a transaction's category, as `field_sources.categorySlug.by` and `GET /transactions?categorizedBy=` name them. */
export const CATEGORY_SOURCES = ['rule', 'learned', 'provider', 'llm', 'user'] as const;

/**
 * Why a field has its value: set by a rule (which, and what it matched), by a user, by a detection
 * (recurring payments), learned from the team's similar transactions (with them and the confidence),
 * mapped from the bank's own category, or chosen by the language model (with its confidence).
 */
export interface FieldSource {
  by: 'rule' | 'user' | 'detected' | 'learned' | 'provider' | 'llm';
  ruleId: string | null;
  ruleName: string | null;
  explanation: string;
  /** Learned, llm: how sure, 0..1. */
  confidence?: number;
  /** Learned: some of the past transactions it was learned from. */
  neighbours?: { id: string; name: string }[];
  /** Provider: the bank's category it was mapped from. */
  providerCategory?: string;
}

/** A category learned with too little confidence to apply: offered on the transaction instead. */
export interface SuggestedCategory {
  slug: string;
  confidence: number;
  neighbours: { id: string; name: string }[];
  explanation: string;
}

/** One part of a split transaction, as stored in `splits` (migration 0098); amounts in the transaction's currency. */
export interface StoredSplitPart {
  amount: number;
  categorySlug: string | null;
  tags: string[];
  note: string | null;
}

export class Transaction extends TeamScopedModel {
  static override tableName = 'transactions';
  static override jsonAttributes = ['fieldSources', 'suggestedCategory', 'splits'];
  bankAccountId!: string | null;
  providerTransactionId!: string | null;
  date!: string;
  name!: string;
  description!: string | null;
  method!: (typeof TRANSACTION_METHODS)[number];
  amount!: number;
  currency!: string;
  status!: (typeof TRANSACTION_STATUSES)[number];
  /** The bank calls it pending (migration 0101), whatever status the team gave it. */
  pending!: boolean;
  categorySlug!: string | null;
  counterpartyName!: string | null;
  merchantName!: string | null;
  note!: string | null;
  manual!: boolean;
  internal!: boolean;
  recurring!: boolean;
  frequency!: (typeof TRANSACTION_FREQUENCIES)[number] | null;
  taxAmount!: number | null;
  taxRate!: number | null;
  taxType!: string | null;
  assignedId!: string | null;
  /** The provider's own category (bank-a's personal_finance_category), for rules to match. */
  providerCategory!: string | null;
  /** Inserted since migration 0104 and not yet asked of the language model (learned-categories/llm.ts). */
  awaitsLlmCategory!: boolean;
  /** Fields a user set by hand (RULE_FIELDS): no rule overwrites them. */
  manualFields!: string[];
  /** Why each field holds its value: field → FieldSource. */
  fieldSources!: Record<string, FieldSource>;
  /** A learned (or the language model's) category below the team's threshold, until one is set. */
  suggestedCategory!: SuggestedCategory | null;
  /** The parts of a split transaction, in order, summing to `amount`; null when it is not split. */
  splits!: StoredSplitPart[] | null;
  updatedAt!: Date;
}
