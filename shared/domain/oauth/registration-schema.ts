import { z } from 'zod';
import { ALL_SCOPES, isScope } from '../auth/scopes';
import { isRedirectUri } from '../oauth-applications/schema';
import { OAuthError } from './errors';

/*
 * Dynamic Client Registration (RFC 7591): the metadata a client sends to POST /oauth/register and
 * what it gets back. Metadata we do not understand is ignored, as §2 asks; a value we understand
 * but cannot honour is refused (§3.2.2), never silently changed.
 */

export const TOKEN_ENDPOINT_AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post'] as const;
/** The token endpoint issues a refresh token with every code exchange, so every client gets both. */
export const REGISTERED_GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;

const REDIRECT_URI_RULE =
  'must be https, or http on a loopback address (localhost, 127.0.0.1, [::1]), with no fragment, credentials or wildcard';

const httpsUrl = (name: string) =>
  z
    .string()
    .max(2000)
    .refine((u) => URL.canParse(u) && new URL(u).protocol === 'https:', `${name} must be an https URL`);

export const clientRegistrationRequest = z
  .object({
    redirect_uris: z
      .array(
        z
          .string()
          .max(2000)
          .refine((u) => isRedirectUri(u, { privateUseSchemes: false }), REDIRECT_URI_RULE),
        {
          error: 'redirect_uris is required: a list of redirect URIs',
        },
      )
      .min(1, 'redirect_uris needs at least one URI')
      .max(10, 'at most 10 redirect_uris')
      .transform((uris) => [...new Set(uris)])
      .meta({ description: `Where codes may be sent; an authorization names one of them exactly. Each ${REDIRECT_URI_RULE}.` }),
    token_endpoint_auth_method: z
      .enum(TOKEN_ENDPOINT_AUTH_METHODS, { error: `token_endpoint_auth_method must be one of ${TOKEN_ENDPOINT_AUTH_METHODS.join(', ')}` })
      .default('client_secret_basic')
      .meta({
        description:
          '`none`: a public client (a native app, an agent, a single-page app), no secret. The other two: a confidential client, given a secret in the answer. RFC 7591 makes `client_secret_basic` the default.',
      }),
    grant_types: z
      .array(z.enum(REGISTERED_GRANT_TYPES, { error: `grant_types may hold only ${REGISTERED_GRANT_TYPES.join(', ')}` }))
      .refine((g) => g.includes('authorization_code'), 'grant_types must include authorization_code')
      .optional(),
    response_types: z
      .array(z.literal('code', { error: 'response_types may hold only code' }))
      .min(1)
      .optional(),
    client_name: z
      .string()
      .trim()
      .min(1, 'client_name must not be empty')
      .max(100, 'client_name is at most 100 characters')
      .optional()
      .meta({
        description: 'Shown on the consent page, marked as the name the client gave itself. Default: the first redirect URI’s host.',
      }),
    client_uri: httpsUrl('client_uri').optional(),
    logo_uri: httpsUrl('logo_uri').optional(),
    scope: z
      .string()
      .max(2000)
      .transform((s) => [...new Set(s.trim().split(/\s+/).filter(Boolean))])
      .refine((list) => list.length > 0, 'scope must name at least one scope')
      .refine((list) => list.every(isScope), 'scope names an unknown scope (see scopes_supported in the metadata)')
      .optional()
      .meta({
        description:
          'Space-separated scopes the client may later ask for. Default: every scope; the user grants what an authorization asks.',
      }),
  })
  .meta({ id: 'OAuthClientRegistrationRequest' });

export type ClientRegistrationRequest = z.output<typeof clientRegistrationRequest>;

export const clientRegistrationResponse = z
  .object({
    client_id: z.string().meta({ description: 'Prefix `svc_client_`.' }),
    client_id_issued_at: z.number().int().meta({ description: 'Seconds since the epoch.' }),
    client_secret: z.string().optional().meta({ description: 'Confidential clients only, in this answer only; prefix `svc_secret_`.' }),
    client_secret_expires_at: z.literal(0).optional().meta({ description: 'With a secret: 0, it does not expire.' }),
    client_name: z.string(),
    redirect_uris: z.array(z.string()),
    token_endpoint_auth_method: z.enum(TOKEN_ENDPOINT_AUTH_METHODS),
    grant_types: z.array(z.enum(REGISTERED_GRANT_TYPES)),
    response_types: z.array(z.literal('code')),
    scope: z.string(),
    client_uri: z.string().optional(),
    logo_uri: z.string().optional(),
  })
  .meta({ id: 'OAuthClientRegistration' });

export type ClientRegistrationResponse = z.infer<typeof clientRegistrationResponse>;

/** Every scope, for a registration that names none. */
export const DEFAULT_REGISTRATION_SCOPES: readonly string[] = ALL_SCOPES;

/**
 * Parses a registration; the first problem is an RFC 7591 error: `invalid_redirect_uri` for the
 * redirect URIs, `invalid_client_metadata` for anything else, with the field in its description.
 */
export function parseClientRegistration(body: unknown): ClientRegistrationRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new OAuthError('invalid_client_metadata', 'Send the client metadata as a JSON object');
  const parsed = clientRegistrationRequest.safeParse(body);
  if (parsed.success) return parsed.data;
  const [issue] = parsed.error.issues;
  const field = issue.path.join('.');
  const code = issue.path[0] === 'redirect_uris' ? 'invalid_redirect_uri' : 'invalid_client_metadata';
  throw new OAuthError(code, issue.message.startsWith(`${field} `) ? issue.message : `${field}: ${issue.message}`);
}
