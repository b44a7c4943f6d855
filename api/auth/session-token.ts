import { createRemoteJWKSet, jwtVerify, SignJWT, errors as joseErrors, type JWTVerifyGetKey } from 'jose';
import type { Config } from '../../shared/config';
import { unauthorized } from '../../shared/errors';

type SessionConfig = Pick<Config, 'AUTH_JWT_SECRET' | 'AUTH_JWKS_URL' | 'AUTH_JWT_ISSUER' | 'AUTH_JWT_AUDIENCE'>;

/**
 * Verifies identity-provider session tokens: HS256 with AUTH_JWT_SECRET, or any asymmetric key
 * published at AUTH_JWKS_URL. Returns the user id (`sub`).
 */
export function createSessionVerifier(config: SessionConfig) {
  const jwks: JWTVerifyGetKey | undefined = config.AUTH_JWKS_URL ? createRemoteJWKSet(new URL(config.AUTH_JWKS_URL)) : undefined;
  const secret = config.AUTH_JWT_SECRET ? new TextEncoder().encode(config.AUTH_JWT_SECRET) : undefined;

  return async function verifySession(token: string): Promise<string> {
    try {
      const options = { issuer: config.AUTH_JWT_ISSUER, audience: config.AUTH_JWT_AUDIENCE };
      const { payload } = jwks
        ? await jwtVerify(token, jwks, { ...options, algorithms: ['RS256', 'ES256', 'EdDSA'] })
        : await jwtVerify(token, secret!, { ...options, algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || !payload.sub) throw unauthorized('Session token has no subject');
      return payload.sub;
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw unauthorized('Session token expired');
      if (err instanceof joseErrors.JOSEError) throw unauthorized('Invalid session token');
      throw err;
    }
  };
}

/** Issues an HS256 session token, as the identity provider would (admin CLI, demo seed, tests). */
export async function signSessionToken(secret: string, userId: string, ttlSeconds = 24 * 3600): Promise<string> {
  return new SignJWT({ scope: 'apis.all' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(new TextEncoder().encode(secret));
}
