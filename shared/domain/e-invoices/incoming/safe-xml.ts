import { XMLParser } from 'fast-xml-parser';

/** Why a received file is not taken as an e-invoice: said to the person who reads the inbox item. */
export class RefusedEInvoiceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedEInvoice';
  }
}

/** A parsed element: its children by local name, attributes as `@_name`, its text as `#text`. */
export type XmlNode = { [name: string]: XmlValue | undefined };
export type XmlValue = string | XmlNode | XmlValue[];

// No invoice schema declares a DTD, so any declaration is refused before the parser sees it: that is
// what shuts out external entities (XXE) and entity expansion (billion laughs), whatever a parser
// version would do with them.
const DECLARATION = /<!\s*(DOCTYPE|ENTITY|ELEMENT|ATTLIST|NOTATION)/i;

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The five predefined entities and character references, the only ones XML without a DTD can hold. */
function decodeReferences(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return PREDEFINED[ref];
  });
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  // Amounts stay the text they were written as: read to minor units exactly, never through a float.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  tagValueProcessor: (_name, value) => decodeReferences(value),
  attributeValueProcessor: (_name, value) => decodeReferences(value),
});

/** The XML as a tree of local names; a DTD, or text that is not XML, is refused. */
export function parseXml(xml: string): XmlNode {
  const head = xml.replace(/^\uFEFF/, '');
  if (DECLARATION.test(head))
    throw new RefusedEInvoiceError('the XML declares a DTD or entities (DOCTYPE/ENTITY), which no e-invoice does');
  if (!head.trimStart().startsWith('<')) throw new RefusedEInvoiceError('the file is not XML');
  let tree: unknown;
  try {
    tree = parser.parse(head);
  } catch (err) {
    throw new RefusedEInvoiceError(`the XML is malformed: ${(err as Error).message.slice(0, 200)}`);
  }
  if (!tree || typeof tree !== 'object') throw new RefusedEInvoiceError('the file is not XML');
  return tree as XmlNode;
}

/** The children of `node` named `name`, as a list (an element may appear once or many times). */
export function all(node: XmlValue | undefined, name: string): XmlValue[] {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return [];
  const v = node[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** The first element at the path of local names, or undefined. */
export function at(node: XmlValue | undefined, ...path: string[]): XmlValue | undefined {
  let cur: XmlValue | undefined = node;
  for (const name of path) cur = all(cur, name)[0];
  return cur;
}

/** An element's text ('' for an element without text); undefined when absent. */
export function text(node: XmlValue | undefined): string | undefined {
  if (node === undefined) return undefined;
  if (typeof node === 'string') return node;
  if (Array.isArray(node)) return text(node[0]);
  const t = node['#text'];
  return typeof t === 'string' ? t : '';
}

/** The text at the path, trimmed; null when absent or empty. */
export function textAt(node: XmlValue | undefined, ...path: string[]): string | null {
  return text(at(node, ...path))?.trim() || null;
}

export function attr(node: XmlValue | undefined, name: string): string | null {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return null;
  const v = node[`@_${name}`];
  return typeof v === 'string' ? v : null;
}
