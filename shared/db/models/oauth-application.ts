import { TeamScopedModel } from './base';

export class OAuthApplication extends TeamScopedModel {
  static override tableName = 'oauth_applications';
  createdBy!: string | null;
  name!: string;
  description!: string | null;
  logoUrl!: string | null;
  website!: string | null;
  clientId!: string;
  clientSecretHash!: string | null;
  redirectUris!: string[];
  scopes!: string[];
  isPublic!: boolean;
  active!: boolean;
  updatedAt!: Date;
}
