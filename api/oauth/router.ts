import Router from '@koa/router';
import type { Context } from 'koa';
import { ALL_SCOPES } from '../../shared/domain/auth/scopes';
import { OAuthError } from '../../shared/domain/oauth/errors';
import {
  authenticateClient,
  exchangeCode,
  hasConsent,
  issueCode,
  redirectWith,
  refreshTokens,
  revokeToken,
  trustRedirect,
  validateAuthorization,
  type AuthorizeParams,
  type ClientCredentials,
} from '../../shared/domain/oauth/flow';
import { AppError, badRequest } from '../../shared/errors';
import type { ApiDeps } from '../deps';
import type { AppState } from '../http/state';
import { createBruteForceGuard } from './brute-force';
import { consentPage, signInRequiredPage } from './consent-page';
import { createSessionReader, csrfToken, csrfValid, SESSION_COOKIE, type SessionUser } from './session';

const AUTHORIZE_FIELDS = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const;

function pickParams(source: Record<string, unknown>): AuthorizeParams {
  const out: Record<string, string> = {};
  for (const f of AUTHORIZE_FIELDS) {
    const v = source[f];
    if (Array.isArray(v)) throw new OAuthError('invalid_request', `${f} given more than once`);
    if (typeof v === 'string' && v !== '') out[f] = v;
  }
  return out;
}

const wantsHtml = (ctx: Context) => !ctx.get('authorization') && ctx.accepts('json', 'html') === 'html';

function sendOAuthError(ctx: Context, err: OAuthError) {
  ctx.status = err.status;
  ctx.body = err.toBody();
  if (err.status === 401 && ctx.get('authorization').startsWith('Basic ')) ctx.set('WWW-Authenticate', 'Basic realm="oauth"');
}

/** Client credentials from HTTP Basic (RFC 6749 §2.3.1, form-encoded parts) or the body, never both. */
function clientCredentials(ctx: Context, body: Record<string, unknown>): ClientCredentials {
  const basic = /^Basic\s+(\S+)$/i.exec(ctx.get('authorization'))?.[1];
  if (basic) {
    if (body.client_secret) throw new OAuthError('invalid_request', 'Use one client authentication method, not two');
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    if (i < 0) throw new OAuthError('invalid_client', 'Malformed Basic credentials');
    return { clientId: decodeURIComponent(decoded.slice(0, i)), clientSecret: decodeURIComponent(decoded.slice(i + 1)) };
  }
  return { clientId: str(body.client_id), clientSecret: str(body.client_secret) };
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/** OAuth 2.0 authorization server: authorize (consent), token, revoke, metadata; plus the browser session cookie. */
export function oauthRouter(deps: ApiDeps) {
  const { db, config } = deps;
  const router = new Router<AppState>();
  const readSession = createSessionReader(db, config);
  const guard = createBruteForceGuard();
  const issuer = (ctx: Context) => config.PUBLIC_URL ?? `${ctx.protocol}://${ctx.host}`;

  router.get('/.well-known/oauth-authorization-server', (ctx) => {
    const base = issuer(ctx);
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = {
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      revocation_endpoint: `${base}/oauth/revoke`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      scopes_supported: [...ALL_SCOPES],
      service_documentation: `${base}/`,
    };
  });

  /** Shared by GET (show consent) and POST (decide): validates, and routes errors to the right place. */
  async function authorizeRequest(ctx: Context, params: AuthorizeParams) {
    const trusted = await trustRedirect(db, params); // throws: 400, no redirect
    try {
      return { trusted, valid: validateAuthorization(trusted, params) };
    } catch (err) {
      if (!(err instanceof OAuthError)) throw err;
      ctx.redirect(redirectWith(trusted.redirectUri, { error: err.code, error_description: err.description, state: params.state }));
      return null;
    }
  }

  router.get('/oauth/authorize', async (ctx) => {
    try {
      const params = pickParams(ctx.query);
      const req = await authorizeRequest(ctx, params);
      if (!req) return;
      const { valid } = req;
      const session = await readSession(ctx).catch((err) => {
        if (err instanceof AppError) return null;
        throw err;
      });
      if (!session) {
        if (wantsHtml(ctx)) {
          ctx.status = 401;
          ctx.type = 'html';
          ctx.body = signInRequiredPage();
        } else {
          sendOAuthError(ctx, new OAuthError('login_required', 'Sign in first: send the session cookie or a Bearer session token'));
        }
        return;
      }
      if (await hasConsent(db, valid.app.id, session.userId, session.teamId, valid.scopes)) {
        const code = await issueCode(db, valid, session.userId, session.teamId);
        ctx.redirect(redirectWith(valid.redirectUri, { code, state: valid.state }));
        return;
      }
      if (wantsHtml(ctx)) {
        ctx.type = 'html';
        // form-action also governs the redirect after the post, so the client's origin must be allowed.
        const clientOrigin = new URL(valid.redirectUri).origin;
        const formAction = clientOrigin === 'null' ? '' : ` ${clientOrigin}`;
        ctx.set({
          'X-Frame-Options': 'DENY',
          'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'${formAction}; frame-ancestors 'none'`,
          'Cache-Control': 'no-store',
        });
        ctx.body = consentPage({
          appName: valid.app.name,
          appWebsite: valid.app.website,
          teamName: session.teamName,
          email: session.email,
          scopes: valid.scopes,
          hidden: { ...(params as Record<string, string>), csrf_token: csrfToken(config, session.token) },
        });
        return;
      }
      ctx.set('Cache-Control', 'no-store');
      ctx.body = {
        consent_required: true,
        application: { name: valid.app.name, description: valid.app.description, logoUrl: valid.app.logoUrl, website: valid.app.website },
        scopes: valid.scopes,
        team: { id: session.teamId, name: session.teamName },
        user: { id: session.userId, email: session.email },
        decision_endpoint: '/oauth/authorize',
        params,
      };
    } catch (err) {
      if (err instanceof OAuthError) return sendOAuthError(ctx, err);
      throw err;
    }
  });

  router.post('/oauth/authorize', async (ctx) => {
    try {
      const body = ((ctx.request as { body?: Record<string, unknown> }).body ?? {}) as Record<string, unknown>;
      const params = pickParams(body);
      const session = await readSession(ctx);
      if (!session) throw new OAuthError('login_required', 'Sign in first: send the session cookie or a Bearer session token');
      // A cookie rides along on cross-site posts; a Bearer header does not. Only the cookie needs the CSRF token.
      if (session.via === 'cookie' && !csrfValid(config, session.token, body.csrf_token)) {
        throw new AppError(403, 'Forbidden', 'Missing or invalid CSRF token');
      }
      const decision = body.decision;
      if (decision !== 'allow' && decision !== 'deny') throw new OAuthError('invalid_request', 'decision must be "allow" or "deny"');
      const req = await authorizeRequest(ctx, params);
      if (!req) return;
      const { valid } = req;
      const target =
        decision === 'allow'
          ? redirectWith(valid.redirectUri, { code: await issueCode(db, valid, session.userId, session.teamId), state: valid.state })
          : redirectWith(valid.redirectUri, { error: 'access_denied', error_description: 'The user denied access', state: valid.state });
      if (ctx.request.is('json')) {
        ctx.status = 200;
        ctx.body = { redirect_url: target };
      } else {
        ctx.redirect(target);
      }
    } catch (err) {
      if (err instanceof OAuthError) return sendOAuthError(ctx, err);
      throw err;
    }
  });

  router.post('/oauth/token', async (ctx) => {
    ctx.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    const body = ((ctx.request as { body?: Record<string, unknown> }).body ?? {}) as Record<string, unknown>;
    let creds: ClientCredentials = {};
    try {
      creds = clientCredentials(ctx, body);
      await guard.check(ctx.ip, creds.clientId);
      const app = await authenticateClient(db, creds);
      const grant = str(body.grant_type);
      if (!grant) throw new OAuthError('invalid_request', 'grant_type is required');
      if (grant === 'authorization_code') {
        ctx.body = await exchangeCode(db, app, { code: str(body.code), redirect_uri: str(body.redirect_uri), code_verifier: str(body.code_verifier) });
      } else if (grant === 'refresh_token') {
        ctx.body = await refreshTokens(db, app, { refresh_token: str(body.refresh_token), scope: str(body.scope) });
      } else {
        throw new OAuthError('unsupported_grant_type', `grant_type ${grant} is not supported`);
      }
    } catch (err) {
      if (err instanceof OAuthError) {
        if (err.code === 'invalid_client' || err.code === 'invalid_grant') await guard.failed(ctx.ip, creds.clientId);
        return sendOAuthError(ctx, err);
      }
      if (err instanceof AppError && err.status === 429) ctx.set('Retry-After', String((err as AppError & { retryAfter: number }).retryAfter));
      throw err;
    }
  });

  router.post('/oauth/revoke', async (ctx) => {
    const body = ((ctx.request as { body?: Record<string, unknown> }).body ?? {}) as Record<string, unknown>;
    let creds: ClientCredentials = {};
    try {
      creds = clientCredentials(ctx, body);
      await guard.check(ctx.ip, creds.clientId);
      const app = await authenticateClient(db, creds);
      const token = str(body.token);
      if (!token) throw new OAuthError('invalid_request', 'token is required');
      await revokeToken(db, app, token, str(body.token_type_hint));
      ctx.body = { success: true };
    } catch (err) {
      if (err instanceof OAuthError) {
        if (err.code === 'invalid_client') await guard.failed(ctx.ip, creds.clientId);
        return sendOAuthError(ctx, err);
      }
      if (err instanceof AppError && err.status === 429) ctx.set('Retry-After', String((err as AppError & { retryAfter: number }).retryAfter));
      throw err;
    }
  });

  /**
   * The browser session: the dashboard (or any page holding the identity provider's session JWT)
   * posts it here with a Bearer header; the JWT goes into an httpOnly, SameSite=Lax cookie that the
   * consent page reads. DELETE signs out.
   */
  router.post('/auth/session', async (ctx) => {
    const session: SessionUser | null = await readSession(ctx);
    if (!session || session.via !== 'bearer') throw badRequest('Send the session token as `Authorization: Bearer <token>`');
    ctx.cookies.set(SESSION_COOKIE, session.token, { httpOnly: true, sameSite: 'lax', secure: ctx.secure, path: '/', maxAge: 24 * 3600 * 1000, overwrite: true });
    ctx.body = { data: { userId: session.userId, teamId: session.teamId } };
  });
  router.delete('/auth/session', (ctx) => {
    ctx.cookies.set(SESSION_COOKIE, null, { path: '/' });
    ctx.status = 204;
  });

  return router;
}
