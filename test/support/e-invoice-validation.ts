import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { validateXML } from 'xmllint-wasm';

/**
 * The official artefacts of ../shared/standards (its README): the UBL 2.1 and CII D16B schemas, run by
 * xmllint (wasm), and the EN 16931 Schematron rules as XSLT, run by Saxon-JS once compiled to SEF.
 * Compiling one takes about a minute, so the SEF is kept in node_modules/.cache under the hash of its
 * XSLT and made again only when the rules change.
 */
const ROOT = resolve(__dirname, '../..');
// Beside the repository, as the team's handbook is; STANDARDS_DIR for a checkout that sits elsewhere.
const STANDARDS = process.env.STANDARDS_DIR ? resolve(process.env.STANDARDS_DIR) : resolve(ROOT, '../shared/standards');
if (!existsSync(STANDARDS))
  throw new Error(
    `the e-invoice standards are not at ${STANDARDS}: put the handbook's shared/ beside the repository, or set STANDARDS_DIR`,
  );
const CACHE = join(ROOT, 'node_modules/.cache/e-invoice');

export type Syntax = 'ubl-invoice' | 'ubl-credit-note' | 'cii';

function xsdFiles(dir: string): { fileName: string; contents: string }[] {
  const out: { fileName: string; contents: string }[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.xsd')) out.push({ fileName: relative(STANDARDS, path), contents: readFileSync(path, 'utf8') });
    }
  };
  walk(dir);
  return out;
}

const MAIN: Record<Syntax, { dir: string; main: string }> = {
  'ubl-invoice': { dir: 'ubl-2.1/xsd', main: 'ubl-2.1/xsd/maindoc/UBL-Invoice-2.1.xsd' },
  'ubl-credit-note': { dir: 'ubl-2.1/xsd', main: 'ubl-2.1/xsd/maindoc/UBL-CreditNote-2.1.xsd' },
  cii: { dir: 'cii-d16b', main: 'cii-d16b/CII/uncefact/data/standard/CrossIndustryInvoice_100pD16B.xsd' },
};

const schemaCache = new Map<string, { fileName: string; contents: string }[]>();

/** The schema's complaints about the document; [] when it is valid. */
export async function xsdErrors(xml: string, syntax: Syntax): Promise<string[]> {
  const { dir, main } = MAIN[syntax];
  const files = schemaCache.get(dir) ?? xsdFiles(join(STANDARDS, dir));
  schemaCache.set(dir, files);
  const schema = files.find((f) => f.fileName === main)!;
  const result = await validateXML({
    xml: [{ fileName: 'document.xml', contents: xml }],
    schema: [schema],
    preload: files.filter((f) => f !== schema),
    maxMemoryPages: 4096,
  });
  return result.valid ? [] : result.errors.map((e) => e.rawMessage);
}

const sefs = new Map<string, Promise<unknown>>();

async function sefOf(xslt: string): Promise<unknown> {
  const source = join(STANDARDS, 'en16931', xslt);
  const hash = createHash('sha256').update(readFileSync(source)).digest('hex').slice(0, 16);
  const target = join(CACHE, `${xslt.replace(/\.xslt$/, '')}-${hash}.sef.json`);
  if (!existsSync(target)) {
    mkdirSync(CACHE, { recursive: true });
    const partial = `${target}.${process.pid}.tmp`;
    await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'node_modules/xslt3/xslt3.js'), `-xsl:${source}`, `-export:${partial}`, '-nogo', '-relocate:on'],
      {
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    renameSync(partial, target);
  }
  return JSON.parse(readFileSync(target, 'utf8'));
}

const sefFor = (xslt: string) => {
  const sef = sefs.get(xslt) ?? sefOf(xslt);
  sefs.set(xslt, sef);
  return sef;
};

/**
 * Compiles (or reads from the cache) both rule sets at once, for a suite's beforeAll: in a fresh
 * checkout that is a minute or two, which would otherwise fall in the first test's time.
 */
export async function warmSchematron(): Promise<void> {
  await Promise.all([sefFor('EN16931-UBL-validation.xslt'), sefFor('EN16931-CII-validation.xslt')]);
}

export interface SchematronFinding {
  id: string;
  flag: string;
  text: string;
}

/** The EN 16931 rules the document breaks: every failed assert of the SVRL report with its flag. */
export async function schematronFindings(xml: string, syntax: Syntax): Promise<SchematronFinding[]> {
  const xslt = syntax === 'cii' ? 'EN16931-CII-validation.xslt' : 'EN16931-UBL-validation.xslt';
  const sef = sefFor(xslt);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const SaxonJS = require('saxon-js') as {
    transform: (o: object, mode: 'sync') => { principalResult: string };
  };
  const { principalResult } = SaxonJS.transform({ stylesheetInternal: await sef, sourceText: xml, destination: 'serialized' }, 'sync');
  const findings: SchematronFinding[] = [];
  for (const m of principalResult.matchAll(/<svrl:failed-assert\b([^>]*)>([\s\S]*?)<\/svrl:failed-assert>/g)) {
    const attr = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(m[1])?.[1] ?? '';
    const text = /<svrl:text>([\s\S]*?)<\/svrl:text>/.exec(m[2])?.[1]?.trim() ?? '';
    findings.push({ id: attr('id'), flag: attr('flag'), text });
  }
  return findings;
}

/** The fatal findings only: what makes the document invalid under EN 16931. */
export const fatalFindings = async (xml: string, syntax: Syntax) =>
  (await schematronFindings(xml, syntax)).filter((f) => f.flag === 'fatal');
