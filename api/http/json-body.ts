import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { AppError, badRequest, payloadTooLarge, type FieldProblem } from '../../shared/errors';

export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

const unsupportedMediaType = () =>
  new AppError(415, 'Unsupported Media Type', 'Send the request body as JSON with `Content-Type: application/json`');

/**
 * Reads a JSON request body for a route that takes one, after the caller was authenticated: an
 * anonymous client cannot make us read a megabyte. Refuses other content types (415), bodies that
 * are not JSON (400), larger ones (413), and NUL characters or lone surrogates in strings (400:
 * PostgreSQL cannot store them, and no legitimate client sends them).
 */
export async function readJsonBody(ctx: Context, limitBytes = JSON_BODY_LIMIT_BYTES): Promise<unknown> {
  const hasBody = Boolean(ctx.get('transfer-encoding')) || Number(ctx.get('content-length') || 0) > 0;
  if (!hasBody) return undefined;
  if (!ctx.request.is('application/json', '+json')) throw unsupportedMediaType();
  let text: string;
  try {
    text = await getRawBody(ctx.req, { limit: limitBytes, encoding: 'utf8', length: ctx.get('content-length') || undefined });
  } catch (err) {
    if ((err as { type?: string }).type === 'entity.too.large')
      throw payloadTooLarge(`The request body is larger than ${limitBytes} bytes`);
    throw badRequest('The request body could not be read');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest('Invalid JSON body', [{ field: '(root)', message: 'not valid JSON' }]);
  }
  assertStorableText(value, 'request body');
  return value;
}

/** Half of a UTF-16 pair without its other half: JSON can carry it (`"\ud800"`), UTF-8 and jsonb cannot. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** 400 when a string anywhere in `value` (keys included) holds a NUL character or a lone surrogate. */
export function assertStorableText(value: unknown, where: string): void {
  const found: FieldProblem[] = [];
  const walk = (v: unknown, path: string) => {
    if (found.length) return;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) found.push({ field: path || '(root)', message: 'must not contain NUL characters' });
      else if (v.search(LONE_SURROGATE) >= 0)
        found.push({ field: path || '(root)', message: 'must be well-formed Unicode (a lone surrogate)' });
    } else if (Array.isArray(v)) {
      v.forEach((x, i) => walk(x, path ? `${path}.${i}` : String(i)));
    } else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        if (k.includes('\u0000') || k.search(LONE_SURROGATE) >= 0)
          found.push({ field: path || '(root)', message: 'keys must not contain NUL characters or lone surrogates' });
        walk(x, path ? `${path}.${k}` : k);
      }
    }
  };
  walk(value, '');
  if (found.length) throw badRequest(`Invalid ${where}: NUL characters and lone surrogates are not allowed`, found);
}
