import { z } from 'zod';

/**
 * One page of a keyset-paginated list. It is the list's own shape in both interfaces (REST sends it
 * as is, tRPC returns it), as Stripe's list object is: `data` holds the items, `meta` how to go on.
 */
export interface Page<T> {
  data: T[];
  meta: { cursor: string | null; hasNextPage: boolean };
}

export const pageMetaSchema = z.object({
  cursor: z.string().nullable().meta({ description: 'Pass as `cursor` to get the next page; null on the last page.' }),
  hasNextPage: z.boolean(),
});

/** The schema of a page of `item`. */
export const pageOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), meta: pageMetaSchema });
