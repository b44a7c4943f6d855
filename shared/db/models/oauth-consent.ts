import { TeamScopedModel } from './base';

export class OAuthConsent extends TeamScopedModel {
  static override tableName = 'oauth_consents';
  applicationId!: string;
  userId!: string;
  scopes!: string[];
  updatedAt!: string;
}
