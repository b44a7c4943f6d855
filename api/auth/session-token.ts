import { createRemoteJWKSet, jwtVerify, SignJWT, errors as joseErrors, type JWTVerifyGetKey } from 'jose';
import type { Config } from '../../shared/config';
import { unauthorized } from '../../shared/errors';

type SessionConfig = Pick<Config, 'AUTH_JWT_SECRET' | 'AUTH_JWKS_URL' | 'AUTH_JWT_ISSUER' | 'AUTH_JWT_AUDIENCE'>;

/** What a verified session token says about its user. */
export interface SessionClaims {
  /** The user id. */
  sub: string;
  email?: string;
  /** Only a verified address may create a user (AUTH_AUTO_PROVISION). */
  emailVerified: boolean;
  name?: string;
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/**
 * Verifies identity-provider session tokens: HS256 with AUTH_JWT_SECRET, or any asymmetric key
 * published at AUTH_JWKS_URL. Returns the user id (`sub`) with the email and name claims (top level,
 * or in `user_metadata` as Supabase puts them).
 */
export function createSessionVerifier(config: SessionConfig) {
  const jwks: JWTVerifyGetKey | undefined = config.AUTH_JWKS_URL ? createRemoteJWKSet(new URL(config.AUTH_JWKS_URL)) : undefined;
  const secret = config.AUTH_JWT_SECRET ? new TextEncoder().encode(config.AUTH_JWT_SECRET) : undefined;
  // The config guarantees one of the two (a secret defaults outside production).
  const verifyKey = jwks ?? secret;
  if (!verifyKey) throw new Error('AUTH_JWT_SECRET or AUTH_JWKS_URL is required to verify session tokens');

  return async function verifySession(token: string): Promise<SessionClaims> {
    try {
      const options = { issuer: config.AUTH_JWT_ISSUER, audience: config.AUTH_JWT_AUDIENCE };
      const { payload } =
        typeof verifyKey === 'function'
          ? await jwtVerify(token, verifyKey, { ...options, algorithms: ['RS256', 'ES256', 'EdDSA'] })
          : await jwtVerify(token, verifyKey, { ...options, algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || !payload.sub) throw unauthorized('Session token has no subject');
      const meta =
        typeof payload.user_metadata === 'object' && payload.user_metadata !== null
          ? (payload.user_metadata as Record<string, unknown>)
          : {};
      return {
        sub: payload.sub,
        email: str(payload.email) ?? str(meta.email),
        emailVerified: payload.email_verified === true || meta.email_verified === true,
        name: str(payload.name) ?? str(meta.full_name) ?? str(meta.name),
      };
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw unauthorized('Session token expired');
      if (err instanceof joseErrors.JOSEError) throw unauthorized('Invalid session token');
      throw err;
    }
  };
}

/** Issues an HS256 session token, as the identity provider would (admin CLI, demo seed, tests). */
export async function signSessionToken(
  secret: string,
  userId: string,
  ttlSeconds = 24 * 3600,
  claims: { email?: string; email_verified?: boolean; name?: string } = {},
): Promise<string> {
  return new SignJWT({ scope: 'apis.all', ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(new TextEncoder().encode(secret));
}
