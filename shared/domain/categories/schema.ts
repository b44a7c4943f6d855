import { z } from 'zod';

export const categorySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    slug: z.string().meta({ description: 'Stable key that transactions refer to (`categorySlug`).' }),
    color: z.string().nullable(),
    description: z.string().nullable(),
    parentId: z.uuid().nullable(),
    taxRate: z.number().nullable().meta({ description: 'Default tax rate in percent for transactions in it.' }),
    taxType: z.string().nullable(),
    excluded: z.boolean().meta({ description: 'Transactions in it are left out of reports.' }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Category', description: 'A transaction category of the team.' });

export type CategoryDto = z.infer<typeof categorySchema>;

const fields = {
  color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'a hex colour such as #4f46e5')
    .nullable()
    .optional(),
  description: z.string().max(1000).nullable().optional(),
  parentId: z.uuid().nullable().optional(),
  taxRate: z.number().min(0).max(100).nullable().optional(),
  taxType: z.string().max(50).nullable().optional(),
  excluded: z.boolean().optional(),
};

export const createCategoryBody = z
  .object({
    name: z.string().trim().min(1).max(100),
    slug: z
      .string()
      .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lower-case words joined by hyphens')
      .max(100)
      .optional()
      .meta({ description: 'Defaults to the name in lower case with hyphens.' }),
    ...fields,
  })
  .strict()
  .meta({ id: 'CreateCategory' });

export const updateCategoryBody = z
  .object({ name: z.string().trim().min(1).max(100).optional(), ...fields })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'give at least one field to change' })
  .meta({ id: 'UpdateCategory' });

export const categoryIdParams = z.object({ id: z.uuid() });
