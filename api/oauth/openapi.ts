import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { authorizeQuery, consentForm, revokeForm, tokenRequest, tokenResponseSchema } from '../../shared/domain/oauth/schema';
import { MAX_JSON_DEPTH } from '../http/json-body';
import { errorResponses, errorSchema } from '../openapi-errors';
import { withHeaders } from '../openapi-headers';
import { BEARER, OAUTH_CLIENT, SESSION } from '../openapi-security';

const oauthError = z
  .object({
    error: z.string().meta({
      description:
        'RFC 6749 code: invalid_request, invalid_client, invalid_grant, unauthorized_client, unsupported_grant_type, invalid_scope.',
    }),
    error_description: z.string(),
    description: z.string().meta({ description: 'Same text, under the name every other endpoint uses.' }),
  })
  .meta({ id: 'OAuthError' });

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });

const unreadable = `\`invalid_request\` also for a body that cannot be read: a content type other than a form or JSON, JSON that is not an object or nests deeper than ${MAX_JSON_DEPTH} levels, a malformed percent-escape, or NUL characters (413 with \`invalid_request\` past 1 MB).`;

// Behind the per-credential budget like every door but the probes: any answer may be a 429.
const limited = { rateLimited: true };
const tooMany = errorResponses([429]);
/** A signed-in user: the consent page's cookie, or a session token as a bearer. */
const signedIn: Record<string, string[]>[] = [{ [SESSION]: [] }, { [BEARER]: [] }];
/** The client's credentials in HTTP Basic, or (the empty requirement) in the body or none, for a public client. */
const asClient: Record<string, string[]>[] = [{ [OAUTH_CLIENT]: [] }, {}];

/** The OAuth 2.0 endpoints in the OpenAPI document (they are served by api/oauth/router.ts). */
export function registerOAuthPaths(registry: OpenAPIRegistry): void {
  const tags = ['OAuth 2.0'];
  registry.registerPath({
    method: 'get',
    path: '/.well-known/oauth-authorization-server',
    operationId: 'oauth.metadata',
    security: [],
    tags,
    summary: 'Authorization server metadata (RFC 8414)',
    responses: withHeaders({ 200: { description: 'Endpoints, grant types, PKCE methods and scopes.' }, ...tooMany }, limited),
  });
  registry.registerPath({
    method: 'get',
    path: '/oauth/authorize',
    operationId: 'oauth.authorize',
    security: signedIn,
    tags,
    summary: 'Start an authorization (consent)',
    description: [
      'Needs a signed-in user: the `svc_session` cookie (browsers; see POST /auth/session) or a Bearer session token (API callers).',
      'Until `client_id` and `redirect_uri` are trusted, errors are 400 JSON and never redirect. Later errors redirect to `redirect_uri` with `error` and `state`.',
      'When the user already granted these scopes to this application, it redirects at once with `code` and `state`. Otherwise browsers get an HTML consent page, API callers a JSON description of the request.',
      'Codes are single use and valid 10 minutes.',
    ].join('\n\n'),
    request: { query: authorizeQuery },
    responses: withHeaders(
      {
        200: { description: 'Consent needed: HTML page, or JSON `{consent_required, application, scopes, team, user, params}`.' },
        302: { description: 'Redirect to `redirect_uri` with `code` and `state` (or `error` and `state`).' },
        400: { description: 'Unknown client or unregistered redirect URI.', content: json(oauthError) },
        401: { description: 'No signed-in user (`login_required`).', content: json(oauthError) },
        ...tooMany,
      },
      limited,
    ),
  });
  registry.registerPath({
    method: 'post',
    path: '/oauth/authorize',
    operationId: 'oauth.decide',
    security: signedIn,
    tags,
    summary: "The user's decision",
    description:
      'The GET parameters plus `decision` (`allow` or `deny`). The HTML form (cookie session) carries `csrf_token` and gets a 302; a JSON request with a Bearer session token needs no CSRF token and gets `{redirect_url}`. Deny redirects with `error=access_denied` and `state`.',
    request: { body: { content: json(consentForm) } },
    responses: withHeaders(
      {
        200: { description: 'JSON callers.', content: json(z.object({ redirect_url: z.string() })) },
        302: { description: 'Form posts.' },
        400: { description: `Invalid parameters (\`invalid_request\`). ${unreadable}`, content: json(oauthError) },
        403: { description: 'Cookie session without a valid CSRF token.' },
        ...tooMany,
      },
      limited,
    ),
  });
  registry.registerPath({
    method: 'post',
    path: '/oauth/token',
    operationId: 'oauth.token',
    security: asClient,
    tags,
    summary: 'Exchange a code or refresh a token',
    description:
      'JSON or `application/x-www-form-urlencoded`; client credentials in the body or HTTP Basic. Failed client authentications and grants are counted per IP and per client: past the budget the endpoint answers 429 for a while.',
    request: {
      body: { content: { 'application/x-www-form-urlencoded': { schema: tokenRequest }, 'application/json': { schema: tokenRequest } } },
    },
    responses: withHeaders(
      {
        200: { description: 'Tokens.', content: json(tokenResponseSchema) },
        400: {
          description: `invalid_request, invalid_grant, unsupported_grant_type, invalid_scope. ${unreadable}`,
          content: json(oauthError),
        },
        401: { description: 'invalid_client.', content: json(oauthError) },
        429: { ...tooMany[429], description: 'Too many failed attempts, or requests: see `Retry-After`.' },
      },
      limited,
    ),
  });
  registry.registerPath({
    method: 'post',
    path: '/oauth/revoke',
    operationId: 'oauth.revoke',
    security: asClient,
    tags,
    summary: 'Revoke a token (RFC 7009)',
    description:
      'An access token ends at once; a refresh token ends its whole grant (every access and refresh token issued from it). Unknown tokens also answer success.',
    request: {
      body: {
        content: { 'application/x-www-form-urlencoded': { schema: revokeForm }, 'application/json': { schema: revokeForm } },
      },
    },
    responses: withHeaders(
      {
        200: { description: 'Done.', content: json(z.object({ success: z.literal(true) })) },
        400: { description: `No \`token\` (\`invalid_request\`). ${unreadable}`, content: json(oauthError) },
        401: { description: 'invalid_client.', content: json(oauthError) },
        ...tooMany,
      },
      limited,
    ),
  });
  registry.registerPath({
    method: 'post',
    path: '/auth/session',
    operationId: 'session.start',
    security: [{ [BEARER]: [] }],
    tags: ['Session'],
    summary: 'Start a browser session',
    description:
      "Send the identity provider's session token as `Authorization: Bearer …`; the response sets it as the httpOnly, SameSite=Lax `svc_session` cookie (24 h) that the consent page reads. A request body is not read. `DELETE /auth/session` clears it.",
    responses: withHeaders(
      {
        200: {
          description: 'Cookie set.',
          content: json(z.object({ data: z.object({ userId: z.uuid(), teamId: z.uuid().nullable() }) })),
        },
        ...errorResponses([400]),
        401: { description: 'Invalid session token.', content: json(errorSchema) },
        ...tooMany,
      },
      limited,
    ),
  });
  registry.registerPath({
    method: 'delete',
    path: '/auth/session',
    operationId: 'session.end',
    security: [],
    tags: ['Session'],
    summary: 'End the browser session',
    description: 'Clears the `svc_session` cookie.',
    responses: withHeaders({ 204: { description: 'Cookie cleared.' }, ...tooMany }, limited),
  });
}
