import { TeamScopedModel } from './base';

export const RULE_RUN_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
export type RuleRunStatus = (typeof RULE_RUN_STATUSES)[number];

/** A transaction rule (migration 0089); the domain gives `conditions` and `actions` their types. */
export class TransactionRule extends TeamScopedModel {
  static override tableName = 'transaction_rules';
  static override jsonAttributes = ['conditions', 'actions'];
  name!: string;
  enabled!: boolean;
  priority!: number;
  stopAfter!: boolean;
  conditions!: object;
  actions!: object;
  updatedAt!: Date;
}

/** One ApplyRules run: what it applies to, and how far it got (written with each batch). */
export class TransactionRuleRun extends TeamScopedModel {
  static override tableName = 'transaction_rule_runs';
  static override jsonAttributes = ['filter'];
  ruleId!: string;
  dryRun!: boolean;
  filter!: object;
  status!: RuleRunStatus;
  scanned!: number;
  matched!: number;
  changed!: number;
  lastDate!: string | null;
  lastId!: string | null;
  error!: string | null;
  createdBy!: string | null;
  updatedAt!: Date;
  completedAt!: Date | null;
}
