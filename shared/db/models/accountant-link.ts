import { TeamScopedModel } from './base';

/** An export shared with an outside accountant (`/accountant/:token`); only the token's hash is kept (migration 0095). */
export class AccountantLink extends TeamScopedModel {
  static override tableName = 'accountant_links';
  exportId!: string;
  tokenHash!: string;
  email!: string | null;
  expiresAt!: Date;
  revokedAt!: Date | null;
  createdBy!: string | null;
}

export const ACCOUNTANT_LINK_OUTCOMES = ['downloaded', 'expired', 'revoked', 'unavailable'] as const;
export type AccountantLinkOutcome = (typeof ACCOUNTANT_LINK_OUTCOMES)[number];

/** One use of an accountant link, or one refused attempt: each row is an audit entry with the link as its actor. */
export class AccountantLinkUse extends TeamScopedModel {
  static override tableName = 'accountant_link_uses';
  linkId!: string;
  outcome!: AccountantLinkOutcome;
  ip!: string | null;
}
