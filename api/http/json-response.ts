import type { Context } from 'koa';

/** What koa sets for a JSON body (`ctx.type = 'json'`). */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Sets `value` as the response body, serialised as koa would serialise it, but as bytes: given the
 * value itself, koa measures the serialised text once more for Content-Length and Node joins it to
 * the header text before encoding the whole, two more passes over every byte of a page of rows. As
 * bytes it is measured by its length and written as it is, after the header.
 */
export function setJsonBody(ctx: Context, value: unknown): void {
  const text = JSON.stringify(value) as string | undefined;
  // What has no JSON text (undefined) is left to koa, which answers it as it always has.
  if (text === undefined) {
    ctx.body = value;
    return;
  }
  if (!ctx.res.hasHeader('Content-Type')) ctx.set('Content-Type', JSON_CONTENT_TYPE);
  ctx.body = Buffer.from(text);
}
