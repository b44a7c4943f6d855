import type { ImportFormat } from '../../db/models';
import { AppError } from '../../errors';

/** Enough of a file to tell CSV, OFX and CAMT.053 apart: the header and the root element sit at the start. */
export const FORMAT_SNIFF_BYTES = 4096;

/** The statement format by the file's first bytes, whatever its name; null when it is XML of another kind. */
export function detectImportFormat(head: Buffer): ImportFormat | null {
  const start = head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (/^OFXHEADER/i.test(start) || /<OFX>/i.test(start)) return 'ofx';
  if (start.startsWith('<')) {
    if (/camt\.053|<(\w+:)?BkToCstmrStmt/.test(start)) return 'camt053';
    if (/<\?OFX|<OFX/i.test(start)) return 'ofx';
    return null;
  }
  return 'csv';
}

export const unsupportedStatement = () =>
  new AppError(415, 'Unsupported Media Type', 'Not a statement this import reads: send CSV, OFX, or CAMT.053 XML.');
