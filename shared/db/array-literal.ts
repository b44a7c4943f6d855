/**
 * A PostgreSQL array literal of text elements (`{"a","b \"c\""}`), for a parameter cast to an array
 * type (`$1::date[]`, `$1::text[]`). node-postgres writes one from a JS array too, but only when the
 * statement is sent; a caller that writes it ahead (the next batch, while one is in the database)
 * keeps that work off the database's wait. Every element is quoted, so `NULL`, commas, braces and
 * spaces stay text; there is no null element (the callers carry null as an empty string).
 */
export function textArrayLiteral(values: readonly string[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    out += `${i ? ',' : ''}"${NEEDS_ESCAPE.test(v) ? v.replace(ESCAPED, '\\$&') : v}"`;
  }
  return `${out}}`;
}

const NEEDS_ESCAPE = /["\\]/;
const ESCAPED = /["\\]/g;
