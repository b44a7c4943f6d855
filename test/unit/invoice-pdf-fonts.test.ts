import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { useFontDir } from '../../shared/domain/invoices/fonts';
import { renderInvoicePdf } from '../../shared/domain/invoices/pdf';
import { pdfText } from '../../shared/domain/receipts/pdf-text';
import { invoice, NON_LATIN_NAMES, parties } from '../support/non-latin-invoice';

/**
 * Customers are named in every script. The machine (CI, the production image) carries Debian's
 * fonts-dejavu-core and fonts-noto-cjk; the PDF must then draw Greek, Cyrillic and Chinese names,
 * and pdf.js must read them back as the same text.
 */
const DEJAVU = '/usr/share/fonts/truetype/dejavu';

const render = async () => {
  const bytes = await renderInvoicePdf({ invoice, ...parties });
  // Font names stay readable in the file: pdfkit writes font dictionaries uncompressed.
  const fonts = [...bytes.toString('latin1').matchAll(/\/BaseFont \/(?:[A-Z]{6}\+)?([\w-]+)/g)].map((m) => m[1]);
  return { text: (await pdfText(bytes)).replace(/\s+/g, ' '), fonts: [...new Set(fonts)] };
};

const tempDirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pdf-fonts-'));
  tempDirs.push(dir);
  return dir;
};

afterEach(() => useFontDir(undefined));
afterAll(() => tempDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('invoice PDF fonts', () => {
  it('writes Greek, Cyrillic and Chinese names that read back as written', async () => {
    const { text, fonts } = await render();
    for (const name of NON_LATIN_NAMES) expect(text).toContain(name);
    expect(text).toContain('INV-0042');
    // Each string in the family that draws it: DejaVu for Greek and Cyrillic, Noto Sans CJK for Chinese.
    expect(fonts).toEqual(expect.arrayContaining(['DejaVuSans', 'DejaVuSans-Bold', 'NotoSansCJKsc-Regular', 'NotoSansCJKsc-Bold']));
    expect(fonts).not.toContain('Helvetica');
  });

  it('takes the fonts of PDF_FONT_DIR before Debian’s', async () => {
    const dir = tempDir();
    // DejaVu Serif under DejaVu Sans's names: which one the PDF embeds shows which directory won.
    copyFileSync(path.join(DEJAVU, 'DejaVuSerif.ttf'), path.join(dir, 'DejaVuSans.ttf'));
    copyFileSync(path.join(DEJAVU, 'DejaVuSerif-Bold.ttf'), path.join(dir, 'DejaVuSans-Bold.ttf'));
    useFontDir(dir);
    const { text, fonts } = await render();
    expect(fonts).toEqual(expect.arrayContaining(['DejaVuSerif', 'DejaVuSerif-Bold']));
    expect(fonts).not.toContain('DejaVuSans');
    expect(text).toContain('Иван');
    expect(text).toContain('王小明'); // from Debian's Noto, which PDF_FONT_DIR does not hold
  });

  it('falls back to the built-in Helvetica where no Unicode font is installed', async () => {
    useFontDir(tempDir(), { alone: true });
    const { text, fonts } = await render();
    expect(fonts.sort()).toEqual(['Helvetica', 'Helvetica-Bold']);
    expect(text).toContain('INV-0042');
    expect(text).toContain('IBAN DE02 1203 0000 0000 2020 51');
  });
});
