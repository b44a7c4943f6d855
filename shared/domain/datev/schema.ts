import { z } from 'zod';

const account = z.string().regex(/^[0-9]{4,8}$/, '4 to 8 digits');

export const accountMappingSchema = z
  .object({
    consultantNumber: z.number().int().nullable().meta({ description: 'Beraternummer (1001–9999999); the export needs it.' }),
    clientNumber: z.number().int().nullable().meta({ description: 'Mandantennummer (1–99999); the export needs it.' }),
    accountLength: z.number().int().meta({ description: 'Sachkontenlänge: digits of a ledger account (4 for SKR03 as shipped).' }),
    suspenseAccount: z.string().meta({ description: 'Where a transaction of a category without an account books to.' }),
    categories: z.array(
      z.object({
        categorySlug: z.string(),
        name: z.string(),
        account: z.string(),
        source: z.enum(['team', 'skr03', 'suspense']).meta({
          description:
            '`team`: mapped by the team; `skr03`: the SKR03 default of a default category; `suspense`: neither, so the suspense account.',
        }),
      }),
    ),
    bankAccounts: z.array(z.object({ bankAccountId: z.uuid(), name: z.string(), account: z.string(), source: z.enum(['team', 'skr03']) })),
  })
  .meta({ id: 'DatevAccountMapping', description: "The team's DATEV numbers and the ledger account of each category and bank account." });
export type AccountMappingDto = z.infer<typeof accountMappingSchema>;

export const updateAccountMappingBody = z
  .object({
    consultantNumber: z.number().int().min(1001).max(9_999_999).nullable(),
    clientNumber: z.number().int().min(1).max(99_999).nullable(),
    accountLength: z.number().int().min(4).max(8).default(4),
    suspenseAccount: account.optional().meta({ description: 'Default: 1590 (SKR03), widened to the account length.' }),
    categories: z
      .array(z.object({ categorySlug: z.string().min(1).max(100), account }).strict())
      .max(1000)
      .default([])
      .refine((a) => new Set(a.map((c) => c.categorySlug)).size === a.length, 'each category once'),
    bankAccounts: z
      .array(z.object({ bankAccountId: z.uuid(), account }).strict())
      .max(1000)
      .default([])
      .refine((a) => new Set(a.map((c) => c.bankAccountId)).size === a.length, 'each bank account once'),
  })
  .strict()
  .meta({ id: 'UpdateDatevAccountMapping' });
export type UpdateAccountMappingBody = z.infer<typeof updateAccountMappingBody>;
