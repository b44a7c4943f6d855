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

interface Frame {
  name: string;
  /** Where the name is in its start tag, prefix included, and how long: what its end tag almost always repeats. */
  nameAt: number;
  nameLength: number;
  /** Made for an element with attributes or children only: most are text alone. */
  node: XmlNode | null;
  text: string;
}

/** Whether `xml` has a quote between `from` and `to`. */
function quoted(xml: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    const c = xml.charCodeAt(k);
    if (c === 34 /* " */ || c === 39 /* ' */) return true;
  }
  return false;
}

/** Where the start tag at `lt` ends: its `>`, past any `>` inside a quoted attribute value; -1 if none. */
function tagEnd(xml: string, lt: number): number {
  let end = xml.indexOf('>', lt);
  if (end === -1 || !quoted(xml, lt, end)) return end;
  for (;;) {
    if (end === -1) return -1;
    const tag = xml.slice(lt, end);
    if (!tag.includes('"') && !tag.includes("'")) return end;
    const open = tag.replace(/"[^"]*"|'[^']*'/g, '');
    if (!open.includes('"') && !open.includes("'")) return end;
    end = xml.indexOf('>', end + 1);
  }
}
const ATTRIBUTE = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** What `\s` matches, without a regular expression for the common ASCII case. */
const isSpace = (c: number) => (c <= 32 ? c === 32 || (c >= 9 && c <= 13) : c >= 128 && /\s/.test(String.fromCharCode(c)));

/** Whether `xml` holds only XML white space between `from` and `to`. */
function blank(xml: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    const c = xml.charCodeAt(k);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return false;
  }
  return true;
}

/** Where the end tag at `lt` ends when it closes `top` by the same raw name (the usual case); -1 otherwise. */
function sameEndTag(xml: string, lt: number, top: Frame): number {
  const length = top.nameLength;
  const end = lt + 2 + length;
  if (!length || xml.charCodeAt(end) !== 62 /* > */) return -1;
  // Compared where the start tag wrote it, in the one string: quicker than startsWith with a slice of it.
  for (let k = 0; k < length; k++) if (xml.charCodeAt(lt + 2 + k) !== xml.charCodeAt(top.nameAt + k)) return -1;
  return end;
}
/** Names without their namespace prefix: the syntaxes are told apart by their root's local name. */
const local = (name: string) => name.slice(name.indexOf(':') + 1);

const malformed = (what: string, at: number) => new RefusedEInvoiceError(`the XML is malformed: ${what} at character ${at}`);

function attach(parent: Frame, child: Frame) {
  const text = child.text.trim();
  let value: XmlValue;
  if (!child.node) value = text;
  else {
    value = child.node;
    if (text) child.node['#text'] = text;
  }
  // A repeated element becomes a list (an element's own value is never one).
  const node = (parent.node ??= {});
  const prior = node[child.name];
  if (prior === undefined) node[child.name] = value;
  else if (Array.isArray(prior)) prior.push(value);
  else node[child.name] = [prior, value];
}

/** The frame for an element at `depth`: the reader keeps one per depth and reuses it for the next sibling. */
function frameAt(frames: Frame[], depth: number, name: string, nameAt: number, nameLength: number): Frame {
  const frame = frames.at(depth);
  if (!frame) return (frames[depth] = { name, nameAt, nameLength, node: null, text: '' });
  frame.name = name;
  frame.nameAt = nameAt;
  frame.nameLength = nameLength;
  frame.node = null;
  frame.text = '';
  return frame;
}

/** Whether a start tag's name holds a character no name may: `<>"'=`. */
function brokenName(xml: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    const c = xml.charCodeAt(k);
    if (c === 60 || c === 62 || c === 34 || c === 39 || c === 61) return true;
  }
  return false;
}

/**
 * A non-validating reader of the XML that invoices are: elements, attributes, text and CDATA, the
 * five predefined entities and character references. It has no DTD support at all, so nothing can
 * be expanded or fetched; comments and processing instructions are skipped. Far quicker than a
 * general parser on a large invoice, because it does only this.
 */
function readTree(xml: string): XmlNode {
  const root: Frame = { name: '', nameAt: 0, nameLength: 0, node: {}, text: '' };
  // The open elements are frames[1..depth]; an element's frame is free again once it is attached.
  const frames: Frame[] = [root];
  let depth = 0;
  let top = root;
  let i = 0;
  const n = xml.length;
  while (i < n) {
    const lt = xml.indexOf('<', i);
    if (lt === -1) {
      top.text += decodeReferences(xml.slice(i));
      break;
    }
    // White space before an element's first text is trimmed away in the end: it is not even copied.
    if (lt > i && depth > 0 && (top.text || !blank(xml, i, lt))) top.text += decodeReferences(xml.slice(i, lt));
    const c = xml.charCodeAt(lt + 1);
    if (c === 63 /* ? */) {
      const end = xml.indexOf('?>', lt + 2);
      if (end === -1) throw malformed('an unterminated processing instruction', lt);
      i = end + 2;
    } else if (c === 33 /* ! */) {
      if (xml.startsWith('<!--', lt)) {
        const end = xml.indexOf('-->', lt + 4);
        if (end === -1) throw malformed('an unterminated comment', lt);
        i = end + 3;
      } else if (xml.startsWith('<![CDATA[', lt)) {
        const end = xml.indexOf(']]>', lt + 9);
        if (end === -1) throw malformed('an unterminated CDATA section', lt);
        top.text += xml.slice(lt + 9, end);
        i = end + 3;
      } else throw new RefusedEInvoiceError('the XML declares a DTD or entities (DOCTYPE/ENTITY), which no e-invoice does');
    } else if (c === 47 /* / */) {
      let end = sameEndTag(xml, lt, top);
      if (end === -1) {
        end = xml.indexOf('>', lt);
        if (end === -1) throw malformed('an unterminated end tag', lt);
        const name = local(xml.slice(lt + 2, end).trim());
        if (depth === 0 || name !== top.name) throw malformed(`</${name}> does not close <${top.name || 'nothing'}>`, lt);
      }
      const parent = frames[--depth];
      attach(parent, top);
      top = parent;
      i = end + 1;
    } else {
      const end = tagEnd(xml, lt);
      if (end === -1) throw malformed('an unterminated start tag', lt);
      const selfClosing = xml.charCodeAt(end - 1) === 47; /* / */
      const innerEnd = selfClosing ? end - 1 : end;
      let nameEnd = lt + 1;
      let localAt = nameEnd;
      for (let c = xml.charCodeAt(nameEnd); nameEnd < innerEnd && !isSpace(c); c = xml.charCodeAt(++nameEnd))
        if (c === 58 /* : */ && localAt === lt + 1) localAt = nameEnd + 1;
      if (nameEnd === lt + 1 || brokenName(xml, lt + 1, nameEnd)) throw malformed('a broken start tag', lt);
      const frame = frameAt(frames, depth + 1, xml.slice(localAt, nameEnd), lt + 1, nameEnd - lt - 1);
      if (nameEnd < innerEnd) {
        const attributes = xml.slice(nameEnd, innerEnd);
        ATTRIBUTE.lastIndex = 0;
        for (let a = ATTRIBUTE.exec(attributes); a; a = ATTRIBUTE.exec(attributes)) {
          if (a[1] === 'xmlns' || a[1].startsWith('xmlns:')) continue;
          (frame.node ??= {})[`@_${local(a[1])}`] = decodeReferences(a.at(2) ?? a.at(3) ?? '');
        }
      }
      i = end + 1;
      if (selfClosing) attach(top, frame);
      else {
        depth++;
        top = frame;
      }
    }
  }
  if (depth > 0) throw malformed(`<${top.name}> is never closed`, n);
  return root.node ?? {};
}

/** The XML as a tree of local names; a DTD, or text that is not XML, is refused. */
export function parseXml(xml: string): XmlNode {
  const head = xml.replace(/^\uFEFF/, '');
  if (DECLARATION.test(head))
    throw new RefusedEInvoiceError('the XML declares a DTD or entities (DOCTYPE/ENTITY), which no e-invoice does');
  if (!head.trimStart().startsWith('<')) throw new RefusedEInvoiceError('the file is not XML');
  const tree = readTree(head);
  if (!Object.keys(tree).length) throw new RefusedEInvoiceError('the file is not XML');
  return tree;
}

/** The children of `node` named `name`, as a list (an element may appear once or many times). */
export function all(node: XmlValue | undefined, name: string): XmlValue[] {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return [];
  const v = node[name];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** The first child of `node` named `name`, as `all(node, name)[0]` without making the list. */
function first(node: XmlValue | undefined, name: string): XmlValue | undefined {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return undefined;
  const v = node[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The first element at the path of local names, or undefined. */
export function at(node: XmlValue | undefined, ...path: string[]): XmlValue | undefined {
  let cur: XmlValue | undefined = node;
  for (const name of path) cur = first(cur, name);
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
