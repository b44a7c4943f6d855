import { TeamScopedModel } from './base';

export const AGENT_ACTION_STATUSES = ['pending', 'applied', 'declined', 'expired', 'stale', 'failed'] as const;
export type AgentActionStatus = (typeof AGENT_ACTION_STATUSES)[number];
export const AGENT_ACTION_VIAS = ['mcp', 'chat'] as const;
export const AGENT_ACTION_DECIDED_VIAS = ['api', 'chat', 'policy', 'timeout'] as const;

/** A write an agent proposed; shared/domain/agent-actions says what each field holds. */
export class AgentAction extends TeamScopedModel {
  static override tableName = 'agent_actions';
  static override jsonAttributes = ['input', 'preview', 'versions', 'result'];
  operation!: string;
  input!: Record<string, unknown>;
  preview!: Record<string, unknown>;
  versions!: Record<string, string>;
  status!: AgentActionStatus;
  tool!: string;
  via!: (typeof AGENT_ACTION_VIAS)[number];
  proposedByUserId!: string | null;
  proposedByKind!: 'api_key' | 'oauth' | 'session';
  proposedByClientId!: string | null;
  clientName!: string | null;
  decidedByUserId!: string | null;
  decidedVia!: (typeof AGENT_ACTION_DECIDED_VIAS)[number] | null;
  decidedAt!: Date | null;
  result!: unknown;
  error!: string | null;
  expiresAt!: Date;
  updatedAt!: Date;
}
