const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `Content-Disposition: attachment` for a download named `name`, as RFC 6266 asks: `filename` in plain
 * ASCII that every client reads alike, and, when that is not the name itself, `filename*` with the
 * whole name in UTF-8 (RFC 8187), which clients prefer. koa's attachment() sends Latin-1 letters raw
 * in `filename`, where clients read them in different charsets, and keeps quotes, backslashes and
 * percent signs that clients unescape or decode differently.
 */
export function attachmentDisposition(name: string): string {
  // Control characters cannot be in a header, nor are they any use in a file name; half a surrogate
  // pair has no UTF-8 at all.
  const whole =
    name
      .replace(LONE_SURROGATE, '\uFFFD')
      .normalize('NFC')
      .replace(/\p{Cc}/gu, '_') || 'download';
  const fallback = asciiFallback(whole);
  if (fallback === whole) return `attachment; filename="${whole}"`;
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeExtValue(whole)}`;
}

/**
 * The name in printable ASCII: accents dropped (Müller → Muller), anything else without an ASCII form
 * an underscore, and so is each of `"` `\` (escapes not every client undoes), `%` (which some decode),
 * `;` (where naive parsers split) and `/`.
 */
function asciiFallback(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]|["\\%;/]/gu, '_');
}

/** Percent-encoding of UTF-8 leaving only RFC 8187's attr-chars as they are. */
function encodeExtValue(name: string): string {
  return encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
