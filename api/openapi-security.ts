import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { ALL_SCOPES, type Scope } from '../shared/domain/auth/scopes';
import { SESSION_COOKIE } from './oauth/session';

/** The security schemes' names, as operations' `security` lists them. */
export const OAUTH2 = 'oauth2';
export const BEARER = 'bearerAuth';
export const SESSION = 'sessionCookie';
export const OAUTH_CLIENT = 'oauthClient';

/** What a scope lets its holder do, for the OAuth2 scheme's scope list (and Swagger UI's Authorize dialog). */
export function scopeDescription(scope: Scope): string {
  if (scope === 'apis.all') return 'Everything: every scope below.';
  if (scope === 'apis.read') return 'Read everything: every `*.read` scope.';
  const [resource, access] = scope.split('.');
  const what = resource.replace(/-/g, ' ');
  return access === 'read' ? `Read ${what}.` : `Create, change and delete ${what} (does not include reading them).`;
}

/**
 * The ways to authenticate: our own OAuth 2.0 server (authorization code with PKCE; the scopes are
 * those an application can ask for), a bearer token of any kind, the browser session cookie the
 * consent page reads, and an OAuth client's own credentials at the token endpoint. Relative URLs
 * when the public URL is not configured: they resolve against the server that serves the document.
 */
export function registerSecuritySchemes(registry: OpenAPIRegistry, serverUrl = ''): void {
  registry.registerComponent('securitySchemes', OAUTH2, {
    type: 'oauth2',
    description: [
      "OAuth 2.0 with this server's own authorization server (metadata at `/.well-known/oauth-authorization-server`).",
      'Register an application (`oauthApplications.create`) with its redirect URI; a public application (no secret) must use PKCE (`S256`), and any application may.',
      "Each operation lists the scopes it needs; the user grants them on the consent page. For the reference page's *Authorize*, register `/reference/assets/oauth2-redirect.html` on this server as a redirect URI and sign in first (`POST /auth/session`).",
    ].join('\n\n'),
    flows: {
      authorizationCode: {
        authorizationUrl: `${serverUrl}/oauth/authorize`,
        tokenUrl: `${serverUrl}/oauth/token`,
        refreshUrl: `${serverUrl}/oauth/token`,
        scopes: Object.fromEntries(ALL_SCOPES.map((s) => [s, scopeDescription(s)])),
      },
    },
  });
  registry.registerComponent('securitySchemes', BEARER, {
    type: 'http',
    scheme: 'bearer',
    description:
      'An API key (`svc_` + 64 hex), an OAuth 2.0 access token (`svc_access_token_…`) or a session token from the identity provider. The scopes listed are those the key, token or session must hold.',
  });
  registry.registerComponent('securitySchemes', SESSION, {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: 'The browser session that `POST /auth/session` sets (httpOnly); read only by the consent page.',
  });
  registry.registerComponent('securitySchemes', OAUTH_CLIENT, {
    type: 'http',
    scheme: 'basic',
    description:
      "An OAuth application's `client_id` and `client_secret` (`client_secret_basic`). They may be sent in the body instead (`client_secret_post`), and a public application sends only its `client_id` there.",
  });
}
