import { z } from 'zod';
import { MAX_JSON_DEPTH } from './http/json-body';

export const errorSchema = z
  .object({
    error: z.string().meta({ description: 'Short error name, e.g. `Unauthorized`.', example: 'Bad Request' }),
    description: z.string().meta({ description: 'What went wrong, for a human.', example: 'Invalid query parameters: pageSize: Too big' }),
    details: z
      .array(z.object({ field: z.string(), message: z.string() }))
      .optional()
      .meta({ description: 'On 400: one entry per invalid field.' }),
    requestId: z.string().optional().meta({ description: 'On 500: the request id to quote when reporting it.' }),
  })
  .meta({ id: 'Error', description: 'The one error envelope of every endpoint.' });

const texts: Record<number, string> = {
  400: `Invalid input; \`details\` lists each invalid field. An unknown key is refused at any depth and named as its own field (\`lineItems.0.vat\`). A body that is not valid JSON, or nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels, is refused as a whole (\`(root)\`).`,
  401: 'Missing or invalid credentials.',
  403: 'Valid credentials without the required scopes.',
  404: 'No such resource in your team.',
  409: 'Conflicts with the current state.',
  413: 'Request body too large.',
  415: 'The body is not JSON (`Content-Type: application/json`).',
  422: 'The Idempotency-Key was used with a different request.',
  429: 'Rate limit exceeded; see `Retry-After`.',
  500: 'Unexpected error; quote `requestId`.',
  503: 'A dependency is unavailable.',
};

export const errorResponses = (statuses: number[]) =>
  Object.fromEntries(
    statuses.map((s) => [s, { description: texts[s] ?? 'Error.', content: { 'application/json': { schema: errorSchema } } }]),
  );
