import { TeamScopedModel } from './base';

export const SUGGESTION_STATUSES = ['pending', 'confirmed', 'declined', 'expired'] as const;
export const MATCH_TYPES = ['auto_matched', 'suggested', 'manual'] as const;

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
  /** Where the decision came from: a chat button, the API, the wait running out, or the team's auto-match. */
  decidedVia!: 'chat' | 'api' | 'timeout' | 'auto' | null;
}
