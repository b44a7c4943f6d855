import type { ModelObject } from 'objection';
import type { Db } from '../../db/knex';
import { ApiKey, OAuthToken, TeamMember, type OAuthApplication, type Team, type User } from '../../db/models';
import { isUuid } from '../common/uuid';

/**
 * The lookups authentication makes on every request. Each credential is one round trip: the key
 * or token joined with its owner's membership of its team (and a token with its application), so
 * a removed member or a deactivated application fails at once without a second query. A team being
 * deleted is joined out the same way: its keys, tokens and sessions stop on the next request.
 */

/** An OAuth access token with what decides whether it still authenticates. */
export type AccessTokenCredential = Pick<
  ModelObject<OAuthToken>,
  'id' | 'userId' | 'teamId' | 'scopes' | 'applicationId' | 'expiresAt' | 'revokedAt'
> & {
  appActive: OAuthApplication['active'];
  /** null when the user no longer belongs to the token's team. */
  memberId: TeamMember['userId'] | null;
};

/** An API key with its owner's membership of the key's team. */
export type ApiKeyCredential = Pick<ModelObject<ApiKey>, 'id' | 'userId' | 'teamId' | 'scopes'> & {
  /** null when the user no longer belongs to the key's team. */
  memberId: TeamMember['userId'] | null;
};

export function findAccessToken(db: Db, accessTokenHash: string): Promise<AccessTokenCredential | undefined> {
  return db('oauth_tokens as t')
    .join('oauth_applications as a', 'a.id', 't.applicationId')
    .join('teams as team', (j) => j.on('team.id', 't.teamId').andOnNull('team.deletionRequestedAt'))
    .leftJoin('team_members as m', (j) => j.on('m.userId', 't.userId').andOn('m.teamId', 't.teamId'))
    .where('t.accessTokenHash', accessTokenHash)
    .first<AccessTokenCredential | undefined>(
      't.id',
      't.userId',
      't.teamId',
      't.scopes',
      't.applicationId',
      't.expiresAt',
      't.revokedAt',
      'a.active as appActive',
      'm.userId as memberId',
    );
}

export function findApiKey(db: Db, keyHash: string): Promise<ApiKeyCredential | undefined> {
  return db('api_keys as k')
    .join('teams as team', (j) => j.on('team.id', 'k.teamId').andOnNull('team.deletionRequestedAt'))
    .leftJoin('team_members as m', (j) => j.on('m.userId', 'k.userId').andOn('m.teamId', 'k.teamId'))
    .where('k.keyHash', keyHash)
    .first<ApiKeyCredential | undefined>('k.id', 'k.userId', 'k.teamId', 'k.scopes', 'm.userId as memberId');
}

/** A session user with the team the session acts in (null when they belong to none, or not to the one asked for). */
export interface SessionCredential {
  userId: User['id'];
  email: User['email'];
  teamId: Team['id'] | null;
  teamName: Team['name'] | null;
  role: TeamMember['role'] | null;
}

/**
 * A session user and, in the same round trip, the team they act in: `requestedTeamId` when they are
 * a member of it; otherwise their current team while they still belong to it, else the first team
 * they joined. Teams being deleted never count. undefined when there is no such user.
 */
export async function findSession(db: Db, userId: string, requestedTeamId?: string): Promise<SessionCredential | undefined> {
  // A subject that is no uuid (another identity provider's ids) names nobody here.
  if (!isUuid(userId)) return undefined;
  const membership = db('team_members as tm')
    .join('teams as tt', (j) => j.on('tt.id', 'tm.teamId').andOnNull('tt.deletionRequestedAt'))
    .whereRaw('tm.user_id = u.id')
    .modify((q) => {
      if (requestedTeamId) q.where('tm.teamId', requestedTeamId);
    })
    .orderByRaw('coalesce(tm.team_id = u.team_id, false) desc, tm.created_at, tm.team_id')
    .limit(1)
    .select('tm.teamId', 'tm.role', 'tt.name');
  return db('users as u')
    .joinRaw('left join lateral ? as m on true', [db.raw('(?)', [membership])])
    .where('u.id', userId)
    .first<SessionCredential | undefined>('u.id as userId', 'u.email', 'm.teamId', 'm.name as teamName', 'm.role');
}

/** Records that a key or token was used just now (bookkeeping; callers throttle it). */
export async function touchLastUsed(db: Db, credential: { kind: 'api_key' | 'oauth_token'; id: string; teamId: string }): Promise<void> {
  const where = { id: credential.id, teamId: credential.teamId };
  const used = { lastUsedAt: new Date() };
  if (credential.kind === 'api_key') await ApiKey.query(db).patch(used).where(where);
  else await OAuthToken.query(db).patch(used).where(where);
}

/** Whether the user still belongs to the team: a credential that stands for a member (a signed upload URL) stops when they leave. */
export async function isTeamMember(db: Db, teamId: string, userId: string): Promise<boolean> {
  return Boolean(await TeamMember.query(db).findOne({ teamId, userId }).select('id'));
}
