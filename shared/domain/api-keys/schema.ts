import { z } from 'zod';
import { ALL_SCOPES } from '../auth/scopes';

export const scopeList = z
  .array(z.enum(ALL_SCOPES))
  .min(1, 'give at least one scope')
  .max(ALL_SCOPES.length)
  .transform((s) => [...new Set(s)])
  .meta({ description: 'Scopes from the scope list; never beyond your own.' });

export const apiKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    scopes: z.array(z.string()),
    keyHint: z.string().meta({ description: 'The last four characters of the key, to tell keys apart.' }),
    lastUsedAt: z.iso.datetime().nullable().meta({ description: 'Last authenticated request (updated at most once a minute).' }),
    createdAt: z.iso.datetime(),
    user: z
      .object({ id: z.uuid(), email: z.string(), fullName: z.string().nullable() })
      .nullable()
      .meta({ description: 'Who created it.' }),
  })
  .meta({ id: 'ApiKey', description: 'An API key of the team. The secret itself is shown only once, at creation.' });

export type ApiKeyDto = z.infer<typeof apiKeySchema>;

export const upsertApiKeyInput = z
  .object({
    id: z.uuid().optional().meta({ description: 'Update this key (only name and scopes change); omit to create one.' }),
    name: z.string().trim().min(1).max(100),
    scopes: scopeList,
  })
  .strict();

export const deleteApiKeyInput = z.object({ id: z.uuid() }).strict();

export const createApiKeyBody = upsertApiKeyInput.omit({ id: true });

export const updateApiKeyInput = z
  .object({
    id: z.uuid(),
    changes: z.object({ name: z.string().trim().min(1).max(100).optional(), scopes: scopeList.optional() }).strict(),
  })
  .strict();

export const apiKeyWithSecretSchema = apiKeySchema
  .extend({ key: z.string().meta({ description: 'The full secret: in this answer only, never again.' }) })
  .meta({ id: 'ApiKeyWithSecret', description: 'A new API key, with its secret shown this once.' });

export const upsertApiKeyResultSchema = z.object({
  key: z.string().optional().meta({ description: 'The full secret: only in the result of a creation, never again.' }),
  data: apiKeySchema,
});
