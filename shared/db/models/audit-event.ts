import { TeamScopedModel } from './base';

// `link`: someone outside the team using a shared link (an accountant link), named by the link's id.
export const AUDIT_ACTOR_KINDS = ['user', 'agent', 'workflow', 'provider', 'admin', 'system', 'link'] as const;
export const AUDIT_CREDENTIAL_KINDS = ['session', 'api_key', 'oauth', 'mcp', 'workflow', 'webhook', 'admin', 'system', 'link'] as const;
export const AUDIT_ACTIONS = ['insert', 'update', 'delete'] as const;

/** One entry of a team's audit trail, written by the row triggers of migration 0088; never updated but once, by the sealer. */
export class AuditEvent extends TeamScopedModel {
  static override tableName = 'audit_events';
  occurredAt!: Date;
  operation!: string;
  actorKind!: (typeof AUDIT_ACTOR_KINDS)[number];
  actorId!: string | null;
  credentialKind!: (typeof AUDIT_CREDENTIAL_KINDS)[number];
  credentialId!: string | null;
  requestId!: string | null;
  ip!: string | null;
  targetType!: string;
  targetId!: string | null;
  action!: (typeof AUDIT_ACTIONS)[number];
  before!: Record<string, unknown> | null;
  after!: Record<string, unknown> | null;
  chainPos!: number | null;
  prevHash!: Buffer | null;
  hash!: Buffer | null;
}

/** A day's last sealed hash of a team's trail, signed with the server's Ed25519 key. */
export class AuditCheckpoint extends TeamScopedModel {
  static override tableName = 'audit_checkpoints';
  day!: string;
  chainPos!: number;
  hash!: Buffer;
  keyId!: string;
  signature!: Buffer;
}
