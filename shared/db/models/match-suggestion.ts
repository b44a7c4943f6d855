import { TeamScopedModel } from './base';

export class MatchSuggestion extends TeamScopedModel {
  static override tableName = 'match_suggestions';
  inboxItemId!: string;
  transactionId!: string;
  status!: 'pending' | 'confirmed' | 'declined' | 'expired';
  matchType!: 'auto_matched' | 'suggested' | 'manual';
  confidence!: number;
  amountScore!: number | null;
  currencyScore!: number | null;
  dateScore!: number | null;
  nameScore!: number | null;
  decidedAt!: string | null;
  decidedBy!: string | null;
  decidedVia!: 'chat' | 'api' | 'timeout' | 'auto' | null;
}
