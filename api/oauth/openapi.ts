import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

const oauthError = z
  .object({
    error: z.string().meta({ description: 'RFC 6749 code: invalid_request, invalid_client, invalid_grant, unauthorized_client, unsupported_grant_type, invalid_scope.' }),
    error_description: z.string(),
    description: z.string().meta({ description: 'Same text, under the name every other endpoint uses.' }),
  })
  .meta({ id: 'OAuthError' });

const tokenResponse = z
  .object({
    access_token: z.string().meta({ description: 'Prefix `svc_access_token_`; valid 1 hour.' }),
    token_type: z.literal('Bearer'),
    expires_in: z.literal(3600),
    refresh_token: z.string().meta({ description: 'Prefix `svc_refresh_token_`; valid 30 days; single use (rotated on every refresh; reusing one revokes the whole grant).' }),
    scope: z.string().meta({ description: 'Space-separated granted scopes.' }),
  })
  .meta({ id: 'OAuthTokenResponse' });

const authorizeQuery = z.object({
  response_type: z.literal('code'),
  client_id: z.string(),
  redirect_uri: z.string().meta({ description: 'Exactly one of the registered redirect URIs.' }),
  scope: z.string().meta({ description: 'Space-separated scopes the application may ask for.' }),
  state: z.string().meta({ description: 'Required; returned unchanged.' }),
  code_challenge: z.string().optional().meta({ description: 'BASE64URL(SHA256(code_verifier)); required for public clients.' }),
  code_challenge_method: z.literal('S256').optional(),
});

const tokenRequest = z.object({
  grant_type: z.enum(['authorization_code', 'refresh_token']),
  code: z.string().optional(),
  redirect_uri: z.string().optional(),
  code_verifier: z.string().optional(),
  refresh_token: z.string().optional(),
  scope: z.string().optional().meta({ description: 'refresh_token: narrow the scopes (never widen).' }),
  client_id: z.string().optional().meta({ description: 'Or HTTP Basic.' }),
  client_secret: z.string().optional().meta({ description: 'Or HTTP Basic; none for public clients.' }),
});

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });

/** The OAuth 2.0 endpoints in the OpenAPI document (they are served by api/oauth/router.ts). */
export function registerOAuthPaths(registry: OpenAPIRegistry): void {
  const tags = ['OAuth 2.0'];
  registry.registerPath({
    method: 'get', path: '/.well-known/oauth-authorization-server', tags, summary: 'Authorization server metadata (RFC 8414)',
    responses: { 200: { description: 'Endpoints, grant types, PKCE methods and scopes.' } },
  });
  registry.registerPath({
    method: 'get', path: '/oauth/authorize', tags, summary: 'Start an authorization (consent)',
    description: [
      'Needs a signed-in user: the `svc_session` cookie (browsers; see POST /auth/session) or a Bearer session token (API callers).',
      'Until `client_id` and `redirect_uri` are trusted, errors are 400 JSON and never redirect. Later errors redirect to `redirect_uri` with `error` and `state`.',
      'When the user already granted these scopes to this application, it redirects at once with `code` and `state`. Otherwise browsers get an HTML consent page, API callers a JSON description of the request.',
      'Codes are single use and valid 10 minutes.',
    ].join('\n\n'),
    request: { query: authorizeQuery },
    responses: {
      200: { description: 'Consent needed: HTML page, or JSON `{consent_required, application, scopes, team, user, params}`.' },
      302: { description: 'Redirect to `redirect_uri` with `code` and `state` (or `error` and `state`).' },
      400: { description: 'Unknown client or unregistered redirect URI.', content: json(oauthError) },
      401: { description: 'No signed-in user (`login_required`).', content: json(oauthError) },
    },
  });
  registry.registerPath({
    method: 'post', path: '/oauth/authorize', tags, summary: 'The user\'s decision',
    description: 'The GET parameters plus `decision` (`allow` or `deny`). The HTML form (cookie session) carries `csrf_token` and gets a 302; a JSON request with a Bearer session token needs no CSRF token and gets `{redirect_url}`. Deny redirects with `error=access_denied` and `state`.',
    request: { body: { content: json(authorizeQuery.extend({ decision: z.enum(['allow', 'deny']) })) } },
    responses: {
      200: { description: 'JSON callers.', content: json(z.object({ redirect_url: z.string() })) },
      302: { description: 'Form posts.' },
      403: { description: 'Cookie session without a valid CSRF token.' },
    },
  });
  registry.registerPath({
    method: 'post', path: '/oauth/token', tags, summary: 'Exchange a code or refresh a token',
    description: 'JSON or `application/x-www-form-urlencoded`; client credentials in the body or HTTP Basic. Failed client authentications and grants are counted per IP and per client: past the budget the endpoint answers 429 for a while.',
    request: { body: { content: { 'application/x-www-form-urlencoded': { schema: tokenRequest }, 'application/json': { schema: tokenRequest } } } },
    responses: {
      200: { description: 'Tokens.', content: json(tokenResponse) },
      400: { description: 'invalid_request, invalid_grant, unsupported_grant_type, invalid_scope.', content: json(oauthError) },
      401: { description: 'invalid_client.', content: json(oauthError) },
      429: { description: 'Too many failed attempts.' },
    },
  });
  registry.registerPath({
    method: 'post', path: '/oauth/revoke', tags, summary: 'Revoke a token (RFC 7009)',
    description: 'An access token ends at once; a refresh token ends its whole grant (every access and refresh token issued from it). Unknown tokens also answer success.',
    request: { body: { content: json(z.object({ token: z.string(), token_type_hint: z.enum(['access_token', 'refresh_token']).optional(), client_id: z.string().optional(), client_secret: z.string().optional() })) } },
    responses: { 200: { description: 'Done.', content: json(z.object({ success: z.literal(true) })) }, 401: { description: 'invalid_client.', content: json(oauthError) } },
  });
  registry.registerPath({
    method: 'post', path: '/auth/session', tags: ['Session'], summary: 'Start a browser session',
    description: 'Send the identity provider\'s session token as `Authorization: Bearer …`; the response sets it as the httpOnly, SameSite=Lax `svc_session` cookie (24 h) that the consent page reads. `DELETE /auth/session` clears it.',
    responses: { 200: { description: 'Cookie set.' }, 401: { description: 'Invalid session token.' } },
  });
}
