import { TeamScopedModel } from './base';

export class OAuthAuthorizationCode extends TeamScopedModel {
  static override tableName = 'oauth_authorization_codes';
  applicationId!: string;
  userId!: string;
  codeHash!: string;
  redirectUri!: string;
  scopes!: string[];
  codeChallenge!: string | null;
  codeChallengeMethod!: 'S256' | null;
  expiresAt!: Date;
  usedAt!: Date | null;
}
