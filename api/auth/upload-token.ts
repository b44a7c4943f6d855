import { createHmac } from 'node:crypto';
import { jwtVerify, SignJWT, errors as joseErrors } from 'jose';
import type { Context } from 'koa';
import type { Db } from '../../shared/db/knex';
import { isTeamMember } from '../../shared/domain/auth/credentials';
import type { Caller, Principal } from '../../shared/domain/auth/principal';
import { unauthorized } from '../../shared/errors';

/**
 * Signed upload URLs for clients that cannot send multipart themselves (tRPC): a short-lived token
 * in the query string that stands for the caller who asked for it, allowed only to upload
 * documents to that team. Signed with a key derived from ENCRYPTION_KEY for this one purpose, so
 * it cannot be confused with a session token; refused once the user has left the team.
 */
const AUDIENCE = 'finops:document-upload';
export const UPLOAD_TOKEN_PARAM = 'upload_token';

export interface UploadTokens {
  sign(principal: Principal): Promise<{ token: string; expiresAt: Date }>;
  /** The caller a valid token stands for; null when the request carries none (it then needs a bearer). */
  callerOf(ctx: Context): Promise<Caller | null>;
}

export function createUploadTokens(opts: { encryptionKey: string; ttlMs: number; db: Db }): UploadTokens {
  const key = createHmac('sha256', Buffer.from(opts.encryptionKey, 'hex')).update(AUDIENCE).digest();
  return {
    async sign(principal) {
      const expiresAt = new Date(Date.now() + opts.ttlMs);
      const token = await new SignJWT({ team: principal.teamId, via: principal.kind })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(principal.userId)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(key);
      return { token, expiresAt };
    },
    async callerOf(ctx) {
      const token = ctx.query[UPLOAD_TOKEN_PARAM];
      if (token === undefined) return null;
      if (typeof token !== 'string') throw unauthorized('Invalid upload URL');
      let claims: { sub?: string; team?: unknown; via?: unknown };
      try {
        ({ payload: claims } = await jwtVerify(token, key, { audience: AUDIENCE, algorithms: ['HS256'] }));
      } catch (err) {
        if (err instanceof joseErrors.JWTExpired) throw unauthorized('The upload URL has expired; ask for a new one');
        throw unauthorized('Invalid upload URL');
      }
      const teamId = typeof claims.team === 'string' ? claims.team : '';
      const userId = claims.sub ?? '';
      if (!userId || !teamId || !(await isTeamMember(opts.db, teamId, userId)))
        throw unauthorized('The upload URL is no longer valid for this team');
      const kind = claims.via === 'api_key' || claims.via === 'oauth' ? claims.via : 'session';
      return { kind, userId, teamId, scopes: ['documents.write'] };
    },
  };
}
