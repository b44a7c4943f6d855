import type { Context } from 'koa';
import { badRequest } from '../../shared/errors';
import { assertStorableText, hasBody, JSON_BODY_LIMIT_BYTES, parseJsonBody, readBodyText } from './json-body';

/**
 * Reads the parameters of an endpoint that takes a form (`application/x-www-form-urlencoded`, as
 * RFC 6749 has it) or the same parameters as a JSON object: each as sent, a repeated one as the list
 * of its values. JSON goes through the gateway's one JSON parse; form keys are taken literally
 * (`a[b]=1` is the key `a[b]`, never a nested object). 400 for a body of another type, JSON that is
 * not an object, a malformed percent-escape, and what parseJsonBody refuses; 413 past the limit.
 * No body at all is no parameters.
 */
export async function readFormBody(ctx: Context, limitBytes = JSON_BODY_LIMIT_BYTES): Promise<Record<string, unknown>> {
  if (!hasBody(ctx)) return {};
  const type = ctx.request.is('application/x-www-form-urlencoded', 'application/json', '+json');
  if (!type) throw badRequest('Send the parameters as `application/x-www-form-urlencoded` or as a JSON object');
  const text = await readBodyText(ctx, limitBytes);
  if (type === 'application/x-www-form-urlencoded') {
    const params = formParams(text);
    assertStorableText(params, 'form parameters');
    return params;
  }
  const value = parseJsonBody(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw badRequest('The JSON body must be an object of parameters', [{ field: '(root)', message: 'expected a JSON object' }]);
  return value as Record<string, unknown>;
}

function formParams(text: string): Record<string, string | string[]> {
  const values = new Map<string, string[]>();
  for (const pair of text.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const key = decodeFormPart(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decodeFormPart(pair.slice(eq + 1));
    const sent = values.get(key);
    if (sent) sent.push(value);
    else values.set(key, [value]);
  }
  return Object.fromEntries([...values].map(([key, sent]) => [key, sent.length === 1 ? sent[0] : sent]));
}

/** `+` is a space; a percent-escape that is not UTF-8 is refused rather than read as U+FFFD. */
function decodeFormPart(part: string): string {
  try {
    return decodeURIComponent(part.replaceAll('+', ' '));
  } catch {
    throw badRequest('Invalid form body: a malformed percent-escape', [
      { field: '(root)', message: 'not valid application/x-www-form-urlencoded' },
    ]);
  }
}
