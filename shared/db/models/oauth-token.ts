import { TeamScopedModel } from './base';

export class OAuthToken extends TeamScopedModel {
  static override tableName = 'oauth_tokens';
  applicationId!: string;
  userId!: string;
  authorizationCodeId!: string | null;
  familyId!: string;
  accessTokenHash!: string;
  refreshTokenHash!: string | null;
  scopes!: string[];
  expiresAt!: Date;
  refreshExpiresAt!: Date | null;
  rotatedAt!: Date | null;
  revokedAt!: Date | null;
  lastUsedAt!: Date | null;
}
