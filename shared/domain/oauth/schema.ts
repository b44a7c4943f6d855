import { z } from 'zod';
import { scopeList } from '../api-keys/schema';

const redirectUri = z
  .string()
  .url()
  .refine((u) => {
    const url = new URL(u);
    // Plain http only for loopback (native apps, local development); never a fragment (RFC 6749 §3.1.2).
    return !url.hash && (url.protocol === 'https:' || (url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) || !['http:', 'https:', 'javascript:', 'data:'].includes(url.protocol));
  }, 'https (http only for localhost), no fragment');

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

export const createOAuthApplicationInput = z
  .object({
    name: z.string().trim().min(1).max(100),
    redirectUris: z.array(redirectUri).min(1).max(20),
    scopes: scopeList,
    isPublic: z.boolean().default(false),
    description: z.string().max(1000).optional(),
    logoUrl: z.string().url().optional(),
    website: z.string().url().optional(),
  })
  .strict();

export const updateOAuthApplicationInput = z
  .object({
    id: z.uuid(),
    name: z.string().trim().min(1).max(100).optional(),
    redirectUris: z.array(redirectUri).min(1).max(20).optional(),
    scopes: scopeList.optional(),
    description: z.string().max(1000).nullable().optional(),
    logoUrl: z.string().url().nullable().optional(),
    website: z.string().url().nullable().optional(),
    active: z.boolean().optional().meta({ description: 'false stops every token of the application at once.' }),
  })
  .strict();

export const idInput = z.object({ id: z.uuid() }).strict();
export const revokeAccessInput = z.object({ applicationId: z.uuid() }).strict();
