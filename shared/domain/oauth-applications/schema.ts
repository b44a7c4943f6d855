import { z } from 'zod';
import { scopeList } from '../api-keys/schema';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
// RFC 8252 §7.1: a private-use scheme is a reversed domain name the app owns, so it holds a period.
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/;

/**
 * Where an authorization may send its code: https; http only to a loopback address (native apps and
 * local development, RFC 8252 §7.3); or, for an application a team registers, an app's private-use
 * scheme like `com.example.app:`. Never a wildcard, a fragment (even an empty `#`) or credentials,
 * and never a scheme a browser would run or read locally (javascript:, data:, vbscript:, file:,
 * blob:, about:). A client that registers itself gets no private-use scheme: nobody vouches that
 * the app on the user's device owning it is that client.
 */
export function isRedirectUri(u: string, opts: { privateUseSchemes: boolean }): boolean {
  let url: URL;
  try {
    url = new URL(u);
  } catch {
    return false;
  }
  if (u.includes('#') || url.username || url.password || u.includes('*')) return false;
  if (url.protocol === 'https:') return url.hostname !== '';
  if (url.protocol === 'http:') return LOOPBACK.has(url.hostname);
  return opts.privateUseSchemes && PRIVATE_USE_SCHEME.test(url.protocol);
}

export const redirectUri = z
  .string()
  .max(2000)
  .refine(
    (u) => isRedirectUri(u, { privateUseSchemes: true }),
    'https, http only for loopback, or a private-use scheme such as com.example.app: — no wildcards, fragments or credentials',
  );

export const oauthApplicationSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    logoUrl: z.string().nullable(),
    website: z.string().nullable(),
    client_id: z.string(),
    redirectUris: z.array(z.string()),
    scopes: z.array(z.string()),
    isPublic: z.boolean().meta({ description: 'Public clients (SPAs, mobile apps) have no secret and must use PKCE.' }),
    active: z.boolean(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'OAuthApplication' });

export type OAuthApplicationDto = z.infer<typeof oauthApplicationSchema>;

export const oauthApplicationWithSecretSchema = oauthApplicationSchema.extend({
  client_secret: z.string().nullable().meta({ description: 'Shown once; null for public clients.' }),
});

export const authorizedApplicationSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  logoUrl: z.string().nullable(),
  website: z.string().nullable(),
  selfRegistered: z.boolean().meta({
    description:
      'The client registered itself (RFC 7591, POST /oauth/register): its name and website are its own claim, and no team owns it.',
  }),
  scopes: z.array(z.string()),
  grantedAt: z.iso.datetime(),
});

export const accessRevokedSchema = z.object({ applicationId: z.uuid(), revoked: z.literal(true) });

export const createOAuthApplicationInput = z
  .object({
    name: z.string().trim().min(1).max(100),
    redirectUris: z.array(redirectUri).min(1).max(20),
    scopes: scopeList,
    isPublic: z.boolean().default(false),
    description: z.string().max(1000).optional(),
    logoUrl: z.url().optional(),
    website: z.url().optional(),
  })
  .strict();

export const updateOAuthApplicationInput = z
  .object({
    id: z.uuid(),
    name: z.string().trim().min(1).max(100).optional(),
    redirectUris: z.array(redirectUri).min(1).max(20).optional(),
    scopes: scopeList.optional(),
    description: z.string().max(1000).nullable().optional(),
    logoUrl: z.url().nullable().optional(),
    website: z.url().nullable().optional(),
    active: z.boolean().optional().meta({ description: 'false stops every token of the application at once.' }),
  })
  .strict();

export const idInput = z.object({ id: z.uuid() }).strict();
export const revokeAccessInput = z.object({ applicationId: z.uuid() }).strict();
