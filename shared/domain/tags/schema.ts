import { z } from 'zod';

export const tagSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    color: z.string().nullable().meta({ description: 'A CSS colour, e.g. `#4f46e5`.' }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Tag', description: 'A label the team puts on transactions, customers and projects.' });

export type TagDto = z.infer<typeof tagSchema>;

const color = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'a hex colour such as #4f46e5')
  .nullable()
  .optional();

export const createTagBody = z
  .object({ name: z.string().trim().min(1).max(100), color })
  .strict()
  .meta({ id: 'CreateTag' });
export const updateTagBody = z
  .object({ name: z.string().trim().min(1).max(100).optional(), color })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'give at least one field to change' })
  .meta({ id: 'UpdateTag' });
export const tagIdParams = z.object({ id: z.uuid() });
