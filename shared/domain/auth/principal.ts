import { forbidden } from '../../errors';

/**
 * Who is calling. API keys and OAuth tokens are bound to one team; a session acts in the team it
 * names (`x-team-id`), else the user's current team, else the first team they joined, and may have
 * none at all (a new user, or one whose last team went): user-level operations (their profile,
 * their invitations, creating a team) still work then.
 */
export interface Caller {
  kind: 'api_key' | 'oauth' | 'session';
  userId: string;
  teamId: string | null;
  scopes: string[];
  apiKeyId?: string;
  oauthApplicationId?: string;
  oauthTokenId?: string;
}

/**
 * A caller acting in a team, as every team-scoped service sees it. Services take the principal (or
 * at least its teamId) and scope every query to that team.
 */
export interface Principal extends Caller {
  teamId: string;
}

export const hasTeam = (caller: Caller): caller is Principal => caller.teamId !== null;

/** Operations on the user themselves (their account, joining or creating teams) need the user's own session. */
export function assertSession(caller: Caller, what: string): void {
  if (caller.kind !== 'session') throw forbidden(`${what} needs the user's own session; API keys and OAuth tokens act only in their team`);
}
