import { Model, type RelationMappings } from 'objection';
import { TeamScopedModel } from './base';
import { OAuthApplication } from './oauth-application';

export class OAuthConsent extends TeamScopedModel {
  static override tableName = 'oauth_consents';
  applicationId!: string;
  userId!: string;
  scopes!: string[];
  updatedAt!: Date;
  /** The application the user granted access to (`withGraphFetched('application')`). */
  application?: OAuthApplication;

  static override relationMappings = (): RelationMappings => ({
    application: {
      relation: Model.BelongsToOneRelation,
      modelClass: OAuthApplication,
      join: { from: 'oauth_consents.applicationId', to: 'oauth_applications.id' },
    },
  });
}
