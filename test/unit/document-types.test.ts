import JSZip from 'jszip';
import { PNG } from 'pngjs';
import { detectDocumentType, SNIFF_BYTES } from '../../shared/domain/documents/file-types';

/** Only the head the upload path reads is given, as there. */
const detect = (bytes: Buffer, name: string) => detectDocumentType(bytes.subarray(0, SNIFF_BYTES), name);

async function officeFile(contentType: string, main: string): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/${main}" ContentType="${contentType}"/></Types>`,
  );
  zip.file('_rels/.rels', '<?xml version="1.0"?><Relationships/>');
  zip.file(main, '<?xml version="1.0"?><document/>');
  return zip.generateAsync({ type: 'nodebuffer' });
}

describe('detectDocumentType (file-type, loaded as ESM)', () => {
  it('names the kept types from their bytes, whatever the file is called', async () => {
    const png = new PNG({ width: 2, height: 2 });
    expect(await detect(PNG.sync.write(png), 'photo.txt')).toBe('image/png');
    expect(await detect(Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n', 'latin1'), 'scan')).toBe('application/pdf');
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0'), Buffer.alloc(64)]);
    expect(await detect(jpeg, 'x.pdf')).toBe('image/jpeg');
    const docx = await officeFile('application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml', 'word/document.xml');
    expect(await detect(docx, 'letter.bin')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  });

  it('tells text, CSV and XML apart only where content cannot', async () => {
    expect(await detect(Buffer.from('date,amount\n2026-01-01,12.50\n'), 'bank.csv')).toBe('text/csv');
    expect(await detect(Buffer.from('date,amount\n2026-01-01,12.50\n'), 'bank.txt')).toBe('text/plain');
    expect(await detect(Buffer.from('<?xml version="1.0"?><Invoice/>'), 'invoice.dat')).toBe('application/xml');
  });

  it('refuses executables and what it does not keep, however they are named', async () => {
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01]), Buffer.alloc(120)]);
    expect(await detect(elf, 'invoice.pdf')).toBeNull();
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)]);
    expect(await detect(exe, 'receipt.pdf')).toBeNull();
    expect(await detect(Buffer.from([0x00, 0x01, 0x02, 0x03, 0xff]), 'data.txt')).toBeNull();
  });
});
