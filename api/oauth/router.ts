import Router from '@koa/router';
import type { Context } from 'koa';
import { ALL_SCOPES } from '../../shared/domain/auth/scopes';
import { OAuthError, type OAuthErrorCode } from '../../shared/domain/oauth/errors';
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
  type ClientCredentials,
  type OAuthClient,
} from '../../shared/domain/oauth/flow';
import {
  authorizeClientParams,
  authorizeRequestParams,
  clientAuthentication,
  consentDecision,
  oauthParams,
  parseOAuthInput,
  revokeRequest,
  tokenGrant,
} from '../../shared/domain/oauth/schema';
import { registerClient } from '../../shared/domain/oauth/registration';
import { parseClientRegistration, TOKEN_ENDPOINT_AUTH_METHODS } from '../../shared/domain/oauth/registration-schema';
import { asActor, type AuditActor } from '../../shared/db/team-wall';
import { AppError, badRequest } from '../../shared/errors';
import type { ApiDeps } from '../deps';
import { readFormBody } from '../http/form-body';
import { readJsonBody } from '../http/json-body';
import type { AppState } from '../http/state';
import { createBruteForceGuard } from './brute-force';
import { consentPage, signInRequiredPage } from './consent-page';
import { createRegistrationLimit } from './registration-limit';
import { createSessionReader, csrfToken, csrfValid, SESSION_COOKIE, type SessionUser } from './session';

/** The body's parameters, form-encoded or JSON; a body that cannot be read is `invalid_request` with its status. */
async function bodyParams(ctx: Context): Promise<Record<string, string>> {
  try {
    return oauthParams(await readFormBody(ctx));
  } catch (err) {
    if (err instanceof AppError && err.status < 500) throw new OAuthError('invalid_request', err.description, err.status);
    throw err;
  }
}

/** The registration's JSON body; a body that cannot be read is `invalid_client_metadata` with its status. */
async function registrationBody(ctx: Context): Promise<unknown> {
  try {
    return await readJsonBody(ctx);
  } catch (err) {
    if (err instanceof AppError && err.status < 500) throw new OAuthError('invalid_client_metadata', err.description, err.status);
    throw err;
  }
}

/** The parameters that were given, for hidden form fields. */
const definedOnly = (params: Record<string, string | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined));

/** Who a consent's writes (the grant, its code) are by: the signed-in user, through their session. */
const consentActor = (ctx: Context, userId: string): AuditActor => ({
  op: 'oauth.authorize',
  actor: 'user',
  actorId: userId,
  cred: 'session',
  req: (ctx.state as AppState).requestId,
  ip: ctx.ip,
});

const wantsHtml = (ctx: Context) => !ctx.get('authorization') && ctx.accepts('json', 'html') === 'html';

function sendOAuthError(ctx: Context, err: OAuthError) {
  ctx.status = err.status;
  ctx.body = err.toBody();
  if (err.status === 401 && ctx.get('authorization').startsWith('Basic ')) ctx.set('WWW-Authenticate', 'Basic realm="oauth"');
}

/** Client credentials from HTTP Basic (RFC 6749 §2.3.1, form-encoded parts) or the body, never both. */
function clientCredentials(ctx: Context, params: Record<string, string>): ClientCredentials {
  const basic = /^Basic\s+(\S+)$/i.exec(ctx.get('authorization'))?.[1];
  if (basic) {
    if (params.client_secret) throw new OAuthError('invalid_request', 'Use one client authentication method, not two');
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    if (i < 0) throw new OAuthError('invalid_client', 'Malformed Basic credentials');
    return { clientId: decodeURIComponent(decoded.slice(0, i)), clientSecret: decodeURIComponent(decoded.slice(i + 1)) };
  }
  const body = parseOAuthInput(clientAuthentication, params);
  return { clientId: body.client_id, clientSecret: body.client_secret };
}

/** OAuth 2.0 authorization server: registration, authorize (consent), token, revoke, metadata; plus the browser session cookie. */
export function oauthRouter(deps: ApiDeps) {
  const { db, config } = deps;
  const router = new Router<AppState>();
  const readSession = createSessionReader(db, config);
  const guard = createBruteForceGuard(deps.limiters);
  const assertRegistrationAllowed = createRegistrationLimit(deps.limiters, config.OAUTH_REGISTRATIONS_PER_HOUR, () =>
    deps.metrics.rateLimited('registrations'),
  );
  const issuer = (ctx: Context) => config.PUBLIC_URL ?? `${ctx.protocol}://${ctx.host}`;

  router.get('/.well-known/oauth-authorization-server', (ctx) => {
    const base = issuer(ctx);
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = {
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      revocation_endpoint: `${base}/oauth/revoke`,
      registration_endpoint: `${base}/oauth/register`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: [...TOKEN_ENDPOINT_AUTH_METHODS],
      revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      scopes_supported: [...ALL_SCOPES],
      service_documentation: `${base}/`,
    };
  });

  /**
   * Dynamic Client Registration (RFC 7591): anyone may register a client, which belongs to no team
   * and reaches none until a user consents to it. Counted per IP; errors are RFC 7591's.
   */
  router.post('/oauth/register', async (ctx) => {
    ctx.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    try {
      await assertRegistrationAllowed(ctx);
      const request = parseClientRegistration(await registrationBody(ctx));
      ctx.status = 201;
      ctx.body = await registerClient(db, request, { ttlMs: config.OAUTH_REGISTRATION_TTL });
    } catch (err) {
      if (!(err instanceof OAuthError)) throw err;
      sendOAuthError(ctx, err);
    }
  });

  /** Shared by GET (show consent) and POST (decide): validates, and routes errors to the right place. */
  async function authorizeRequest(ctx: Context, params: Record<string, string>) {
    const trusted = await trustRedirect(db, parseOAuthInput(authorizeClientParams, params)); // throws: 400, no redirect
    try {
      return validateAuthorization(trusted, parseOAuthInput(authorizeRequestParams, params));
    } catch (err) {
      if (!(err instanceof OAuthError)) throw err;
      ctx.redirect(redirectWith(trusted.redirectUri, { error: err.code, error_description: err.description, state: params.state }));
      return null;
    }
  }

  router.get('/oauth/authorize', async (ctx) => {
    try {
      const valid = await authorizeRequest(ctx, oauthParams(ctx.query));
      if (!valid) return;
      const session = await readSession(ctx).catch((err: unknown) => {
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
        const code = await asActor(consentActor(ctx, session.userId), () => issueCode(db, valid, session.userId, session.teamId));
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
          selfRegistered: valid.app.selfRegistered,
          redirectHost: new URL(valid.redirectUri).host,
          teamName: session.teamName,
          email: session.email,
          scopes: valid.scopes,
          hidden: { ...definedOnly(valid.params), csrf_token: csrfToken(config, session.token) },
        });
        return;
      }
      ctx.set('Cache-Control', 'no-store');
      ctx.body = {
        consent_required: true,
        application: {
          name: valid.app.name,
          description: valid.app.description,
          logoUrl: valid.app.logoUrl,
          website: valid.app.website,
          selfRegistered: valid.app.selfRegistered,
        },
        scopes: valid.scopes,
        team: { id: session.teamId, name: session.teamName },
        user: { id: session.userId, email: session.email },
        decision_endpoint: '/oauth/authorize',
        params: valid.params,
      };
    } catch (err) {
      if (!(err instanceof OAuthError)) throw err;
      sendOAuthError(ctx, err);
    }
  });

  router.post('/oauth/authorize', async (ctx) => {
    try {
      const params = await bodyParams(ctx);
      const session = await readSession(ctx);
      if (!session) throw new OAuthError('login_required', 'Sign in first: send the session cookie or a Bearer session token');
      // A cookie rides along on cross-site posts; a Bearer header does not. Only the cookie needs the CSRF token.
      if (session.via === 'cookie' && !csrfValid(config, session.token, params.csrf_token)) {
        throw new AppError(403, 'Forbidden', 'Missing or invalid CSRF token');
      }
      const { decision } = parseOAuthInput(consentDecision, params);
      const valid = await authorizeRequest(ctx, params);
      if (!valid) return;
      const target =
        decision === 'allow'
          ? redirectWith(valid.redirectUri, {
              code: await asActor(consentActor(ctx, session.userId), () => issueCode(db, valid, session.userId, session.teamId)),
              state: valid.state,
            })
          : redirectWith(valid.redirectUri, { error: 'access_denied', error_description: 'The user denied access', state: valid.state });
      if (ctx.request.is('json')) {
        ctx.status = 200;
        ctx.body = { redirect_url: target };
      } else {
        ctx.redirect(target);
      }
    } catch (err) {
      if (!(err instanceof OAuthError)) throw err;
      sendOAuthError(ctx, err);
    }
  });

  /**
   * Token and revoke: authenticate the client, then `handle`. Failures with a code in `counted` count
   * against the client and the IP (brute force); OAuth errors leave in the RFC 6749 shape.
   */
  async function asClient(
    ctx: Context,
    counted: readonly OAuthErrorCode[],
    handle: (app: OAuthClient, params: Record<string, string>) => Promise<object>,
  ): Promise<void> {
    let clientId: string | undefined;
    try {
      const params = await bodyParams(ctx);
      const creds = clientCredentials(ctx, params);
      clientId = creds.clientId;
      let app: OAuthClient;
      try {
        app = await authenticateClient(db, creds);
      } catch (err) {
        // A wrong secret from an address that keeps failing is told to wait; a right one always gets through.
        if (err instanceof OAuthError && err.code === 'invalid_client') {
          await guard.failed(ctx.ip, clientId);
          await guard.assertAllowed(ctx.ip, clientId, 'address');
        }
        throw err;
      }
      // A public client has no secret: its codes and refresh tokens are what a guesser tries, per client and address.
      if (app.isPublic) await guard.assertAllowed(ctx.ip, clientId, 'client-at-address');
      // What the client's call writes (tokens issued, rotated or revoked) names the client as the credential.
      const actor: AuditActor = {
        op: `oauth.${ctx.path.split('/').pop()}`,
        actor: 'user',
        cred: 'oauth',
        credId: app.id,
        req: (ctx.state as AppState).requestId,
        ip: ctx.ip,
      };
      ctx.body = await asActor(actor, () => handle(app, params));
    } catch (err) {
      if (err instanceof OAuthError) {
        if (counted.includes(err.code) && err.code !== 'invalid_client') await guard.failed(ctx.ip, clientId);
        sendOAuthError(ctx, err);
        return;
      }
      if (err instanceof AppError && err.status === 429)
        ctx.set('Retry-After', String((err as AppError & { retryAfter: number }).retryAfter));
      throw err;
    }
  }

  router.post('/oauth/token', async (ctx) => {
    ctx.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    await asClient(ctx, ['invalid_client', 'invalid_grant'], (app, params) => {
      const grant = parseOAuthInput(tokenGrant, params);
      return grant.grant_type === 'authorization_code' ? exchangeCode(db, app, grant) : refreshTokens(db, app, grant);
    });
  });

  router.post('/oauth/revoke', async (ctx) => {
    await asClient(ctx, ['invalid_client'], async (app, params) => {
      const { token, token_type_hint } = parseOAuthInput(revokeRequest, params);
      await revokeToken(db, app, token, token_type_hint);
      return { success: true };
    });
  });

  /**
   * The browser session: the dashboard (or any page holding the identity provider's session JWT)
   * posts it here with a Bearer header; the JWT goes into an httpOnly, SameSite=Lax cookie that the
   * consent page reads. DELETE signs out.
   */
  router.post('/auth/session', async (ctx) => {
    const session: SessionUser | null = await readSession(ctx);
    if (!session || session.via !== 'bearer') throw badRequest('Send the session token as `Authorization: Bearer <token>`');
    ctx.cookies.set(SESSION_COOKIE, session.token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.secure,
      path: '/',
      maxAge: 24 * 3600 * 1000,
      overwrite: true,
    });
    ctx.body = { data: { userId: session.userId, teamId: session.teamId } };
  });
  router.delete('/auth/session', (ctx) => {
    ctx.cookies.set(SESSION_COOKIE, null, { path: '/' });
    ctx.status = 204;
  });

  return router;
}
