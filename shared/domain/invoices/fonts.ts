import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { create, type Font } from 'fontkit';

/**
 * Unicode fonts for the documents we render. PDF's built-in Helvetica knows only Western European
 * letters, and customers are named in every script: DejaVu Sans covers Latin, Greek and Cyrillic,
 * Noto Sans CJK covers Chinese, Japanese and Korean, with Latin and Cyrillic (but not, for one, Greek
 * with accents). Each string is written in the first family that has a glyph for all of it, else in
 * the one that lacks fewest: one string that mixes Chinese with accented Greek loses the accented letters.
 */
interface Face {
  file: string;
  /** The face inside a font collection (.ttc). */
  postscriptName?: string;
}

interface FamilySource {
  name: string;
  /** Debian's packages: fonts-dejavu-core, fonts-noto-cjk. */
  debianDir: string;
  /** Each face's files in order of preference: Debian's collection, or the single faces Noto also ships. */
  regular: Face[];
  bold: Face[];
}

const FAMILIES: FamilySource[] = [
  {
    name: 'DejaVu Sans',
    debianDir: '/usr/share/fonts/truetype/dejavu',
    regular: [{ file: 'DejaVuSans.ttf' }],
    bold: [{ file: 'DejaVuSans-Bold.ttf' }],
  },
  {
    name: 'Noto Sans CJK',
    debianDir: '/usr/share/fonts/opentype/noto',
    regular: [{ file: 'NotoSansCJK-Regular.ttc', postscriptName: 'NotoSansCJKsc-Regular' }, { file: 'NotoSansCJKsc-Regular.otf' }],
    bold: [{ file: 'NotoSansCJK-Bold.ttc', postscriptName: 'NotoSansCJKsc-Bold' }, { file: 'NotoSansCJKsc-Bold.otf' }],
  },
];

/**
 * A face parsed once and given to every document: pdfkit takes a fontkit font as a font's source,
 * and the font keeps the tables and glyphs it has decoded, which each document would otherwise
 * decode again from the file's bytes (most of what a short invoice cost). What a document embeds,
 * its subset, is its own.
 */
type LoadedFace = () => Font;

interface Family {
  name: string;
  regular: LoadedFace;
  bold: LoadedFace;
  covers: (codePoint: number) => boolean;
}

let fontDir: { dir?: string; alone: boolean } = { alone: false };
/** Families read so far (null: not installed); a CJK family is some 40 MB, read only once a string needs it. */
const loaded = new Map<string, Family | null>();

/**
 * A directory searched before Debian's (PDF_FONT_DIR): it may hold any of the files FAMILIES names.
 * `alone`: search only it, as for an image that ships its own fonts.
 */
export function useFontDir(dir: string | undefined, opts: { alone?: boolean } = {}): void {
  const next = { dir, alone: opts.alone ?? false };
  if (next.dir === fontDir.dir && next.alone === fontDir.alone) return;
  fontDir = next;
  loaded.clear();
}

function findFace(family: FamilySource, faces: Face[]): { path: string; face: Face } | null {
  const dirs = fontDir.alone ? [fontDir.dir] : [fontDir.dir, family.debianDir];
  for (const dir of dirs.filter((d): d is string => Boolean(d)))
    for (const face of faces) {
      const file = path.join(dir, face.file);
      if (existsSync(file)) return { path: file, face };
    }
  return null;
}

function load(source: FamilySource): Family | null {
  const known = loaded.get(source.name);
  if (known !== undefined) return known;
  const regular = findFace(source, source.regular);
  const bold = findFace(source, source.bold);
  let family: Family | null = null;
  if (regular && bold) {
    const read = ({ path: file, face }: { path: string; face: Face }): LoadedFace => {
      let font: Font | undefined;
      return () => (font ??= create(readFileSync(file), face.postscriptName) as Font);
    };
    const faces = { regular: read(regular), bold: read(bold) };
    family = { name: source.name, ...faces, covers: (cp) => faces.regular().hasGlyphForCodePoint(cp) };
  }
  loaded.set(source.name, family);
  return family;
}

/** Code points a font must draw: spaces and control characters need no glyph. */
const drawn = (text: string) =>
  [...new Set(text.replace(/[\s\p{Cc}]/gu, ''))].flatMap((c) => {
    const codePoint = c.codePointAt(0);
    return codePoint === undefined ? [] : [codePoint];
  });

/** The family to write `text` in, or null when no Unicode font is installed. */
export function familyFor(text: string): Family | null {
  const codePoints = drawn(text);
  let best: { family: Family; missing: number } | null = null;
  for (const source of FAMILIES) {
    const family = load(source);
    if (!family) continue;
    const missing = codePoints.filter((cp) => !family.covers(cp)).length;
    if (missing === 0) return family;
    if (!best || missing < best.missing) best = { family, missing };
  }
  return best?.family ?? null;
}

type Style = 'regular' | 'bold';
const BUILT_IN: Record<Style, string> = { regular: 'Helvetica', bold: 'Helvetica-Bold' };

/**
 * Lets a template choose its fonts as `doc.font('regular')` and `doc.font('bold')` and write with
 * `doc.text()`: each string is then written (and measured, for `heightOfString`) in the family that
 * draws it, registered in the document the first time it is used. Without any Unicode font the
 * document uses Helvetica, as before.
 */
export function useUnicodeFonts(doc: PDFKit.PDFDocument): void {
  let style: Style = 'regular';
  const registered = new Set<string>();
  const setFont = doc.font.bind(doc);
  const chooseFor = (text: unknown) => {
    const family = familyFor(String(text));
    if (!family) return setFont(BUILT_IN[style]);
    const name = `${family.name} ${style}`;
    if (!registered.has(name)) {
      // pdfkit 0.20 opens a source with a `layout` method as a fontkit font; its types list only files and bytes.
      doc.registerFont(name, family[style]() as unknown as Buffer);
      registered.add(name);
    }
    return setFont(name);
  };
  const setAnyFont = setFont as (...args: unknown[]) => PDFKit.PDFDocument;
  doc.font = (src: PDFKit.Mixins.PDFFontSource, ...rest: unknown[]) => {
    if (src !== 'regular' && src !== 'bold') return setAnyFont(src, ...rest);
    style = src;
    return chooseFor('');
  };
  const text = doc.text.bind(doc) as (...args: unknown[]) => PDFKit.PDFDocument;
  doc.text = (str: unknown, ...rest: unknown[]) => {
    chooseFor(str);
    return text(str, ...rest);
  };
  const heightOfString = doc.heightOfString.bind(doc);
  doc.heightOfString = (str, options) => {
    chooseFor(str);
    return heightOfString(str, options);
  };
  doc.font('regular');
}
