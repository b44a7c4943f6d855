import type { MATCH_TYPES, SUGGESTION_STATUSES } from '../../domain/inbox/schema';
import type { DecisionVia } from '../../temporal/receipt-ingestion/contract';
import { TeamScopedModel } from './base';

export class MatchSuggestion extends TeamScopedModel {
  static override tableName = 'match_suggestions';
  inboxItemId!: string;
  transactionId!: string;
  status!: (typeof SUGGESTION_STATUSES)[number];
  matchType!: (typeof MATCH_TYPES)[number];
  confidence!: number;
  amountScore!: number | null;
  currencyScore!: number | null;
  dateScore!: number | null;
  nameScore!: number | null;
  decidedAt!: Date | null;
  decidedBy!: string | null;
  decidedVia!: DecisionVia | null;
}
