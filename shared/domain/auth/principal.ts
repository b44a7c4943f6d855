/**
 * Who is calling, as every service sees it. Services take the principal (or at least its teamId)
 * and scope every query to that team.
 */
export interface Principal {
  kind: 'api_key' | 'oauth' | 'session';
  userId: string;
  teamId: string;
  scopes: string[];
  apiKeyId?: string;
  oauthApplicationId?: string;
  oauthTokenId?: string;
}
