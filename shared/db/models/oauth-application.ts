import { BaseModel } from './base';

/**
 * A client of the authorization server. One a team registers in the dashboard belongs to that team;
 * one that registered itself (RFC 7591) belongs to no team (`teamId` null, `selfRegistered`), and
 * a team reaches it only through a consent one of its members gave.
 */
export class OAuthApplication extends BaseModel {
  static override tableName = 'oauth_applications';
  teamId!: string | null;
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
  selfRegistered!: boolean;
  /** Set until the first consent: a registration nobody consented to is deleted past it. */
  registrationExpiresAt!: Date | null;
  updatedAt!: Date;
}
