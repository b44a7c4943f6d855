import { z } from 'zod';
import { DOCUMENT_KINDS } from '../../../db/models';
import { listDocumentsQuery } from '../../documents/schema';
import { listDocuments } from '../../documents/service';
import { defineTool, periodArgs, periodInput } from './define';

// The words after "documents about …" are the search. Quotes and a leading article are the asker's:
// the search matches every word, and few files say "the".
const ABOUT = /\b(?:documents?|docs|files)\s+(?:about|for|on|matching|containing|mentioning|regarding|named|called|with)\s+(.+)$/i;
const searchWords = (s: string) =>
  s
    .replace(/^["'“‘]+|["'”’]+$/g, '')
    .replace(/^(?:the|our|a|an)\s+/i, '')
    .trim();

/** The document library's search (GET /documents `q`): name, text read from the file, tag names. */
export const documentsSearchTool = defineTool({
  name: 'documents_search',
  title: 'Search documents',
  description:
    'Stored documents (uploaded files, receipts, invoices, contracts) whose name, text read from the file or tag names match a text, optionally of one kind or uploaded in a period, newest first; at most `limit`.',
  scopes: ['documents.read'],
  input: z.object({
    query: z.string().trim().min(1).max(200).optional().meta({ description: 'Words to search for.' }),
    kind: z.enum(DOCUMENT_KINDS).optional(),
    from: periodInput.from.meta({ description: 'Uploaded on or after this day (YYYY-MM-DD). Default: all time.' }),
    to: periodInput.to.meta({ description: 'Uploaded on or before this day. Default: today.' }),
    limit: z.number().int().min(1).max(50).default(10),
  }),
  run: async ({ db, teamId }, input) => {
    const page = await listDocuments(
      db,
      teamId,
      listDocumentsQuery.parse({ q: input.query, kinds: input.kind, from: input.from, to: input.to, pageSize: input.limit }),
    );
    return {
      query: input.query ?? null,
      documents: page.data.map((d) => ({
        id: d.id,
        name: d.name,
        title: d.title,
        kind: d.kind,
        uploaded: d.createdAt.slice(0, 10),
        tags: d.tags.map((t) => t.name),
      })),
      hasMore: page.meta.hasNextPage,
    };
  },
  understand: (q) => {
    if (!/\b(documents?|docs|files)\b/.test(q.rest)) return null;
    const query = searchWords(ABOUT.exec(q.restOriginal)?.[1] ?? '');
    return { ...periodArgs(q), ...(query ? { query } : {}) };
  },
  answer: (r, _input, ref) => {
    const about = r.query ? ` about ${r.query}` : '';
    if (r.documents.length === 0) return `No documents${about} were found [${ref}].`;
    const lines = r.documents.map((d) => `${d.name}${d.kind ? ` (${d.kind})` : ''}, uploaded ${d.uploaded}`);
    return `${r.hasMore ? 'The latest' : 'Found'} ${r.documents.length} document${r.documents.length === 1 ? '' : 's'}${about} [${ref}]: ${lines.join('; ')}.`;
  },
});
