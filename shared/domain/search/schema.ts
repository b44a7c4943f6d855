import { z } from 'zod';
import { multi } from '../common/query';

export const SEARCH_TYPES = ['transaction', 'customer', 'invoice', 'document', 'inbox', 'tracker_project'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export const searchQuery = z.object({
  q: z.string().trim().min(1).max(200).meta({
    description:
      'Words (web-search syntax: "quoted phrase", -excluded, or), a partial name ("figm" finds Figma), or an amount ("49.99" finds 49.99 and -49.99).',
  }),
  type: multi(z.enum(SEARCH_TYPES)).meta({ description: 'Only these kinds of results; naming one the token has no scope for is 403.' }),
  limit: z.coerce.number().int().min(1).max(50).default(20).meta({ description: 'How many results, best first (1–50).' }),
});
export type SearchQuery = z.infer<typeof searchQuery>;

export const searchHitSchema = z
  .object({
    type: z.enum(SEARCH_TYPES),
    id: z.uuid(),
    title: z.string(),
    snippet: z.string().meta({
      description: 'Where it matched: HTML-escaped text with the matched words in `<mark>…</mark>`, safe to insert as HTML.',
    }),
    date: z.iso.date().nullable().meta({ description: "The entry's own date (booking, issue, receipt), else the day it was created." }),
    amount: z.number().nullable(),
    currency: z.string().nullable(),
    rank: z.number().meta({ description: 'Relevance, higher is better; comparable within one response only.' }),
  })
  .meta({ id: 'SearchHit', description: 'One result of a search across the resources the caller may read.' });
export type SearchHit = z.infer<typeof searchHitSchema>;
