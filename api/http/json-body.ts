import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { AppError, badRequest, payloadTooLarge } from '../../shared/errors';

export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * How deep arrays and objects may nest in anything a client or provider sends. What runs after
 * parsing (zod, the webhook clean-up, JSON.stringify on the way into a jsonb column) walks a value
 * recursively, and a few thousand levels overflow the stack; no body any route takes comes near this.
 */
export const MAX_JSON_DEPTH = 64;

const unsupportedMediaType = () =>
  new AppError(415, 'Unsupported Media Type', 'Send the request body as JSON with `Content-Type: application/json`');

/** Whether the request carries a body at all (an empty one counts as none). */
export const hasBody = (ctx: Context): boolean => Boolean(ctx.get('transfer-encoding')) || Number(ctx.get('content-length') || 0) > 0;

/** The body as UTF-8 text: 413 past `limitBytes`, 400 when the client hung up or sent broken bytes. */
export async function readBodyText(ctx: Context, limitBytes: number): Promise<string> {
  try {
    return await getRawBody(ctx.req, { limit: limitBytes, encoding: 'utf8', length: ctx.get('content-length') || undefined });
  } catch (err) {
    if ((err as { type?: string }).type === 'entity.too.large')
      throw payloadTooLarge(`The request body is larger than ${limitBytes} bytes`);
    throw badRequest('The request body could not be read');
  }
}

/**
 * Reads a JSON request body for a route that takes one, after the caller was authenticated: an
 * anonymous client cannot make us read a megabyte. Refuses other content types (415), larger bodies
 * (413), and whatever parseJsonBody refuses (400).
 */
export async function readJsonBody(ctx: Context, limitBytes = JSON_BODY_LIMIT_BYTES): Promise<unknown> {
  if (!hasBody(ctx)) return undefined;
  if (!ctx.request.is('application/json', '+json')) throw unsupportedMediaType();
  return parseJsonBody(await readBodyText(ctx, limitBytes));
}

/**
 * The one way a request's JSON text becomes a value: 400 for text that is not JSON, that nests
 * deeper than MAX_JSON_DEPTH, or whose strings PostgreSQL cannot store (see assertStorableText).
 */
export function parseJsonBody(text: string): unknown {
  const value = parseJsonText(text);
  assertStorableText(value, 'request body');
  return value;
}

/**
 * JSON.parse behind a depth check of the text itself, so that nothing deeper than MAX_JSON_DEPTH
 * is ever handed on; 400 with a detail at `(root)` either way.
 */
export function parseJsonText(text: string): unknown {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw tooDeep('Invalid JSON body');
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('Invalid JSON body', [{ field: '(root)', message: 'not valid JSON' }]);
  }
}

const tooDeep = (description: string) =>
  badRequest(`${description}: nested deeper than ${MAX_JSON_DEPTH} levels`, [
    { field: '(root)', message: `arrays and objects nest at most ${MAX_JSON_DEPTH} levels deep` },
  ]);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const [OPEN_BRACKET, CLOSE_BRACKET, OPEN_BRACE, CLOSE_BRACE] = [0x5b, 0x5d, 0x7b, 0x7d];

/**
 * Whether brackets and braces outside strings open more than `limit` levels at some point: one pass
 * with a counter, no recursion, so no text can overflow the stack here. A string is skipped to its
 * closing quote by indexOf, so a large body of long strings (a provider's base64 attachment) costs
 * little. Text that is not JSON at all is left for JSON.parse to refuse.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = closingQuote(text, i);
      if (i < 0) return false;
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) depth--;
  }
  return false;
}

/** The index of the quote that ends the string opened at `open`, or -1 when it never ends. */
function closingQuote(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

/** Half of a UTF-16 pair without its other half: JSON can carry it (`"\ud800"`), UTF-8 and jsonb cannot. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const hasUnstorable = (s: string) => s.includes('\u0000') || s.search(LONE_SURROGATE) >= 0;

/**
 * 400 when `value` nests deeper than MAX_JSON_DEPTH, or a string anywhere in it (keys included)
 * holds a NUL character or a lone surrogate, naming the first such field. A value that did not come
 * through parseJsonText (tRPC parses its own input) is bounded here, before zod walks it; the walk
 * keeps its own stack, so it cannot overflow the call stack whatever the depth.
 */
export function assertStorableText(value: unknown, where: string): void {
  const refuse = (up: Place | undefined, key: Key, message: string) =>
    badRequest(`Invalid ${where}: NUL characters and lone surrogates are not allowed`, [{ field: pathOf(up, key) || '(root)', message }]);
  // Depth first in document order (children are pushed last to first); an object or array at depth d
  // is level d + 1. A value's path is only spelled out for the one refused, from its container's place.
  const pending: [value: unknown, up: Place | undefined, key: Key, depth: number][] = [[value, undefined, undefined, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [v, up, key, depth] = next;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) throw refuse(up, key, 'must not contain NUL characters');
      if (v.search(LONE_SURROGATE) >= 0) throw refuse(up, key, 'must be well-formed Unicode (a lone surrogate)');
    } else if (typeof v === 'object' && v !== null) {
      if (depth >= MAX_JSON_DEPTH) throw tooDeep(`Invalid ${where}`);
      const place: Place = { up, key };
      if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--) pending.push([v[i], place, i, depth + 1]);
      } else {
        const entries = Object.entries(v);
        if (entries.some(([k]) => hasUnstorable(k))) throw refuse(up, key, 'keys must not contain NUL characters or lone surrogates');
        for (let i = entries.length - 1; i >= 0; i--) pending.push([entries[i][1], place, entries[i][0], depth + 1]);
      }
    }
  }
}

type Key = string | number | undefined;
/** Where a container stands: its own container's place and its key there (none for the root). */
interface Place {
  up: Place | undefined;
  key: Key;
}

/** `lineItems.1.vat`: the keys from the root down to `key`; empty for the root itself. */
function pathOf(up: Place | undefined, key: Key): string {
  const keys: (string | number)[] = key === undefined ? [] : [key];
  for (let p = up; p && p.key !== undefined; p = p.up) keys.push(p.key);
  return keys.reverse().join('.');
}
