// Characters XML 1.0 cannot carry at all (C0 controls other than tab, newline and return; lone surrogates; U+FFFE/FFFF).
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- these are the characters it removes
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text or an attribute value, escaped; characters XML cannot hold are dropped rather than break the document. */
export const esc = (text: string) =>
  text.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

type Content = string | number | null | undefined | false | Content[];

const flat = (c: Content): string =>
  Array.isArray(c) ? c.map(flat).join('') : c === null || c === undefined || c === false ? '' : String(c);

/**
 * One element. Text content is given escaped by `t()`; nested elements as the strings `el` returned.
 * An element whose content is empty (an optional datum the invoice has not) is left out.
 */
export function el(name: string, content: Content, attrs: Record<string, string | null | undefined> = {}): string {
  const inner = flat(content);
  if (inner === '') return '';
  const a = Object.entries(attrs)
    .filter((e): e is [string, string] => e[1] !== null && e[1] !== undefined)
    .map(([k, v]) => ` ${k}="${esc(v)}"`)
    .join('');
  return `<${name}${a}>${inner}</${name}>`;
}

/** Text for `el`, escaped; null and empty stay empty, so the element is left out. */
export const t = (text: string | number | null | undefined): string => (text === null || text === undefined ? '' : esc(String(text)));
