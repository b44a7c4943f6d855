import { z } from 'zod';

export const createAccountantLinkBody = z
  .object({
    exportId: z.uuid().meta({ description: 'A completed export of the team (`POST /transactions/export`).' }),
    email: z.email().max(320).optional().meta({
      description:
        'Whom the link is for: recorded with the link, and the link is emailed there (what the export holds, the link, when it expires).',
    }),
    expiresInDays: z
      .number()
      .int()
      .min(1)
      .max(90)
      .default(14)
      .meta({ description: 'Days until the link stops working (1–90, default 14).' }),
  })
  .strict()
  .meta({ id: 'CreateAccountantLink' });
export type CreateAccountantLinkBody = z.infer<typeof createAccountantLinkBody>;

export const listAccountantLinksQuery = z.object({ exportId: z.uuid().meta({ description: 'The export whose links to list.' }) });
export const accountantLinkIdParams = z.object({ id: z.uuid().meta({ description: 'Link id.' }) });

export const accountantLinkSchema = z
  .object({
    id: z.uuid(),
    exportId: z.uuid(),
    email: z.string().nullable(),
    url: z
      .string()
      .nullable()
      .meta({ description: 'The link, with its secret token: only in the answer that created it (only its hash is stored).' }),
    expiresAt: z.iso.datetime(),
    revokedAt: z.iso.datetime().nullable(),
    status: z.enum(['active', 'expired', 'revoked']),
    uses: z.number().int().meta({ description: 'Downloads through the link so far.' }),
    refused: z.number().int().meta({ description: 'Attempts refused because the link had expired or was revoked.' }),
    createdAt: z.iso.datetime(),
  })
  .meta({
    id: 'AccountantLink',
    description: 'A signed, expiring link that lets an outside accountant download an export without team credentials.',
  });
export type AccountantLinkDto = z.infer<typeof accountantLinkSchema>;
