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
  expiresAt!: string;
  refreshExpiresAt!: string | null;
  rotatedAt!: string | null;
  revokedAt!: string | null;
  lastUsedAt!: string | null;
}
