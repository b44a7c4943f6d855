import { z } from 'zod';
import { OAuthError, type OAuthErrorCode } from './errors';

/*
 * The OAuth 2.0 protocol inputs (RFC 6749, 7636, 7009): the router parses every request with these,
 * and the OpenAPI document shows the same schemas. A problem becomes an RFC 6749 error (see
 * parseOAuthInput); the messages are the error descriptions clients read.
 */

/** A parameter that must be present: missing (or empty) is `invalid_request` "<name> is required". */
const required = (name: string) => z.string({ error: `${name} is required` }).min(1, `${name} is required`);

/** Until these two are trusted, errors answer the browser as 400 JSON and never go to the redirect URI. */
export const authorizeClientParams = z.object({
  client_id: required('client_id'),
  redirect_uri: required('redirect_uri').meta({ description: 'Exactly one of the registered redirect URIs.' }),
});

/** The rest of an authorization request: its errors are redirected to the client with its state. */
export const authorizeRequestParams = z.object({
  response_type: z.literal('code', {
    error: (iss) => (iss.input === undefined ? 'response_type is required' : 'response_type must be "code"'),
  }),
  state: required('state').meta({ description: 'Required; returned unchanged.' }),
  scope: z
    .string({ error: 'scope is required' })
    .trim()
    .min(1, 'scope is required')
    .meta({ description: 'Space-separated scopes the application may ask for.' }),
  code_challenge_method: z.literal('S256', { error: 'code_challenge_method must be S256' }).optional(),
  code_challenge: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43,128}$/, 'code_challenge must be BASE64URL(SHA256(code_verifier))')
    .optional()
    .meta({ description: 'BASE64URL(SHA256(code_verifier)); required for public clients.' }),
});

export const authorizeQuery = z.object({ ...authorizeClientParams.shape, ...authorizeRequestParams.shape });
export type AuthorizeClientParams = z.infer<typeof authorizeClientParams>;
export type AuthorizeRequestParams = z.infer<typeof authorizeRequestParams>;
export type AuthorizeQuery = z.infer<typeof authorizeQuery>;

/** The user's answer on the consent page, posted with the authorization request's parameters. */
export const consentDecision = z.object({
  decision: z.enum(['allow', 'deny'], { error: 'decision must be "allow" or "deny"' }),
  csrf_token: z.string().optional().meta({ description: 'The consent form carries it; a cookie session needs it.' }),
});
export const consentForm = z.object({ ...authorizeQuery.shape, ...consentDecision.shape });

/** Client authentication in the body (client_secret_post, or `none` for public clients); HTTP Basic is the other way. */
export const clientAuthentication = z.object({
  client_id: z.string().optional().meta({ description: 'Or HTTP Basic.' }),
  client_secret: z.string().optional().meta({ description: 'Or HTTP Basic; none for public clients.' }),
});

const authorizationCodeGrant = z.object({
  grant_type: z.literal('authorization_code'),
  code: required('code'),
  redirect_uri: required('redirect_uri'),
  code_verifier: z.string().optional(),
});
const refreshTokenGrant = z.object({
  grant_type: z.literal('refresh_token'),
  refresh_token: required('refresh_token'),
  scope: z.string().optional().meta({ description: 'Narrow the granted scopes (never widen).' }),
});

const grantTypeError = (input: unknown) => {
  const given = typeof input === 'object' && input !== null && 'grant_type' in input ? input.grant_type : undefined;
  return typeof given === 'string' ? `grant_type ${given} is not supported` : 'grant_type is required';
};

/** What the token endpoint is asked for, one schema per grant type. */
export const tokenGrant = z.discriminatedUnion('grant_type', [authorizationCodeGrant, refreshTokenGrant], {
  error: (iss) => grantTypeError(iss.input),
});
export type TokenGrant = z.infer<typeof tokenGrant>;

/** The token request as documented: a grant and, unless sent by HTTP Basic, the client's credentials. */
export const tokenRequest = z
  .discriminatedUnion('grant_type', [
    authorizationCodeGrant.extend(clientAuthentication.shape),
    refreshTokenGrant.extend(clientAuthentication.shape),
  ])
  .meta({ id: 'OAuthTokenRequest' });

export const revokeRequest = z.object({
  token: required('token'),
  token_type_hint: z
    .string()
    .optional()
    .meta({ description: '`access_token` or `refresh_token`: where to look first. Any other value is ignored (RFC 7009).' }),
});
export const revokeForm = revokeRequest.extend(clientAuthentication.shape).meta({ id: 'OAuthRevokeRequest' });

export const tokenResponseSchema = z
  .object({
    access_token: z.string().meta({ description: 'Prefix `svc_access_token_`; valid 1 hour.' }),
    token_type: z.literal('Bearer'),
    expires_in: z.literal(3600),
    refresh_token: z.string().meta({
      description:
        'Prefix `svc_refresh_token_`; valid 30 days; single use (rotated on every refresh; reusing one revokes the whole grant).',
    }),
    scope: z.string().meta({ description: 'Space-separated granted scopes.' }),
  })
  .meta({ id: 'OAuthTokenResponse' });
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/** Parameters as a query string or form carries them: only text counts, empty is absent, and none may repeat (RFC 6749 §3.1). */
export function oauthParams(source: Record<string, unknown>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(source)) {
    if (Array.isArray(value)) throw new OAuthError('invalid_request', `${key} given more than once`);
    if (typeof value === 'string' && value !== '') params[key] = value;
  }
  return params;
}

/** A parameter whose value was given but is not one we support has its own RFC 6749 code. */
const UNSUPPORTED_VALUE: Partial<Record<string, OAuthErrorCode>> = {
  response_type: 'unsupported_response_type',
  grant_type: 'unsupported_grant_type',
};

/** Parses OAuth parameters with their schema; the first problem is thrown as an OAuthError. */
export function parseOAuthInput<S extends z.ZodType>(schema: S, params: Record<string, string>): z.output<S> {
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  const [issue] = parsed.error.issues;
  const field = String(issue.path[0] ?? '');
  const code = (field in params ? UNSUPPORTED_VALUE[field] : undefined) ?? 'invalid_request';
  throw new OAuthError(code, issue.message);
}
