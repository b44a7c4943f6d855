import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { clientRegistrationRequest, clientRegistrationResponse } from '../../shared/domain/oauth/registration-schema';
import { authorizeQuery, consentForm, revokeForm, tokenRequest, tokenResponseSchema } from '../../shared/domain/oauth/schema';
import { MAX_JSON_DEPTH } from '../http/json-body';
import { errorResponses, errorSchema } from '../openapi-errors';
import { withHeaders } from '../openapi-headers';
import { BEARER, OAUTH_CLIENT, SESSION } from '../openapi-security';

const oauthError = z
  .object({
    error: z.string().meta({
      description:
        'RFC 6749 code: invalid_request, invalid_client, invalid_grant, unauthorized_client, unsupported_grant_type, invalid_scope; from POST /oauth/register, RFC 7591 code: invalid_redirect_uri, invalid_client_metadata.',
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
    description:
      'What a client given only this server\'s URL needs: `issuer`, `authorization_endpoint`, `token_endpoint`, `revocation_endpoint`, `registration_endpoint` (POST /oauth/register), `scopes_supported` (every scope), `response_types_supported` `["code"]`, `grant_types_supported` `["authorization_code", "refresh_token"]`, `code_challenge_methods_supported` `["S256"]` and `token_endpoint_auth_methods_supported`. The MCP server\'s RFC 9728 metadata (`/.well-known/oauth-protected-resource`) names this server in `authorization_servers`.',
    responses: withHeaders({ 200: { description: 'Endpoints, grant types, PKCE methods and scopes.' }, ...tooMany }, limited),
  });
  registry.registerPath({
    method: 'post',
    path: '/oauth/register',
    operationId: 'oauth.register',
    security: [],
    tags,
    summary: 'Register a client (RFC 7591)',
    description: [
      'Dynamic Client Registration for agents and apps given only this server\'s URL: no credential needed. `token_endpoint_auth_method: "none"` registers a public client (no secret); `client_secret_basic` (the default) or `client_secret_post` a confidential one, whose secret is in this answer only. Every self-registered client must use PKCE (S256) when it asks for authorization.',
      'Redirect URIs must be https, or http on a loopback address (localhost, 127.0.0.1, [::1]); no fragment, credentials or wildcard, and no other scheme. An authorization must name one of them exactly. Metadata this server does not know is ignored.',
      "The client belongs to no team and nobody sees it until a user consents to it on the consent page; it is then among that user's authorized applications in that team (GET /oauth-applications/authorized), where revoking it ends its tokens. A registration nobody consents to within `OAUTH_REGISTRATION_TTL` (24 h by default) is deleted. Registrations are limited per IP (`OAUTH_REGISTRATIONS_PER_HOUR`, 20 by default).",
    ].join('\n\n'),
    request: { body: { content: json(clientRegistrationRequest) } },
    responses: withHeaders(
      {
        201: { description: 'The client as registered (RFC 7591 §3.2.1).', content: json(clientRegistrationResponse) },
        400: {
          description:
            '`invalid_redirect_uri` for a missing or refused redirect URI; `invalid_client_metadata` for any other value, or a body that is not a JSON object. Nothing is stored.',
          content: json(oauthError),
        },
        413: { description: 'A body over 1 MB (`invalid_client_metadata`).', content: json(oauthError) },
        415: { description: 'A body that is not JSON (`invalid_client_metadata`).', content: json(oauthError) },
        429: { description: 'Too many registrations from this address; `Retry-After` says when to try again.' },
      },
      limited,
    ),
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
