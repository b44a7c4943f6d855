/**
 * DATEV's EXTF format, Buchungsstapel (format category 21, version 13 of EXTF 700): line 1 is the
 * header (who made it, for which consultant and client, the fiscal year and the period), line 2 the
 * column names, then one booking per line. Fields are separated by semicolons, text is quoted with
 * double quotes (a quote inside doubled), amounts are unsigned with a decimal comma and their sign
 * in the Soll/Haben-Kennzeichen, lines end in CR LF, and the file is Windows-1252, the encoding the
 * DATEV import reads without being told.
 */

export interface ExtfHeader {
  /** When the file was made. */
  createdAt: Date;
  /** Beraternummer and Mandantennummer. */
  consultantNumber: number;
  clientNumber: number;
  /** First day of the fiscal year the bookings are in, YYYY-MM-DD. */
  fiscalYearStart: string;
  /** Sachkontenlänge. */
  accountLength: number;
  /** The bookings' first and last day, YYYY-MM-DD, within one fiscal year. */
  from: string;
  to: string;
  /** Shown in DATEV as the batch's name (at most 30 characters). */
  label: string;
  /** The batch's currency (WKZ). */
  currency: string;
  /** Who exported it (at most 25 characters). */
  exportedBy: string;
}

export interface ExtfBooking {
  /** Positive, in `currency`'s units. */
  amount: number;
  /** S: `account` is debited (money into a bank account); H: credited. */
  side: 'S' | 'H';
  currency: string;
  /** The rate into the batch's currency and the converted amount, for a booking in another currency. */
  rate: number | null;
  baseAmount: number | null;
  baseCurrency: string | null;
  account: string;
  contraAccount: string;
  /** BU-Schlüssel: the tax key, empty for none. */
  taxKey: string | null;
  /** YYYY-MM-DD; the file carries day and month (TTMM), the year is the header's. */
  date: string;
  /** Belegfeld 1: the document's reference (at most 36 characters). */
  reference: string | null;
  /** Buchungstext (at most 60 characters). */
  text: string;
}

export const EXTF_COLUMNS = [
  'Umsatz (ohne Soll/Haben-Kz)',
  'Soll/Haben-Kennzeichen',
  'WKZ Umsatz',
  'Kurs',
  'Basis-Umsatz',
  'WKZ Basis-Umsatz',
  'Konto',
  'Gegenkonto (ohne BU-Schlüssel)',
  'BU-Schlüssel',
  'Belegdatum',
  'Belegfeld 1',
  'Belegfeld 2',
  'Skonto',
  'Buchungstext',
] as const;

const compactDate = (isoDate: string) => isoDate.replaceAll('-', '');
const text = (v: string | null | undefined, max: number) =>
  `"${(v ?? '')
    .replace(/[\r\n;]+/g, ' ')
    .slice(0, max)
    .replaceAll('"', '""')}"`;

/** 1234.5 → 1234,50: the amount's digits with a decimal comma, no thousands separator. */
export const extfAmount = (n: number, digits = 2) => Math.abs(n).toFixed(digits).replace('.', ',');

function timestamp(d: Date): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}${p(d.getUTCMilliseconds(), 3)}`;
}

/** Line 1 and line 2: the header and the column names. */
export function extfHead(h: ExtfHeader): string {
  const header = [
    text('EXTF', 4),
    '700', // format version
    '21', // category: Buchungsstapel
    text('Buchungsstapel', 14),
    '13', // the category's format version
    timestamp(h.createdAt),
    '', // imported (DATEV fills it)
    text('FO', 2), // origin
    text(h.exportedBy, 25),
    text('', 25), // imported by
    String(h.consultantNumber),
    String(h.clientNumber),
    compactDate(h.fiscalYearStart),
    String(h.accountLength),
    compactDate(h.from),
    compactDate(h.to),
    text(h.label, 30),
    text('', 2), // dictation initials
    '1', // booking type: financial accounting
    '0', // accounting purpose: independent of it
    '0', // not locked (Festschreibung): the accountant reviews the batch first
    text(h.currency, 3),
    '',
    text('', 0),
    '',
    '',
    text('03', 2), // chart of accounts SKR03
    '',
    '',
    text('', 0),
    text('', 0),
  ];
  return `${header.join(';')}\r\n${EXTF_COLUMNS.map((c) => text(c, 60)).join(';')}\r\n`;
}

export function extfLine(b: ExtfBooking, digits = 2): string {
  const [, month, day] = b.date.split('-');
  const fields = [
    extfAmount(b.amount, digits),
    text(b.side, 1),
    text(b.currency, 3),
    b.rate === null ? '' : b.rate.toFixed(6).replace('.', ','),
    b.baseAmount === null ? '' : extfAmount(b.baseAmount, 2),
    text(b.baseAmount === null ? '' : b.baseCurrency, 3),
    b.account,
    b.contraAccount,
    text(b.taxKey ?? '', 4),
    `${day}${month}`,
    text(b.reference ?? '', 36),
    text('', 12),
    '',
    text(b.text, 60),
  ];
  return `${fields.join(';')}\r\n`;
}

// Windows-1252's characters in 0x80–0x9F; the rest of 0x00–0xFF is Latin-1.
const CP1252_HIGH: Record<string, number> = {
  '€': 0x80,
  '‚': 0x82,
  ƒ: 0x83,
  '„': 0x84,
  '…': 0x85,
  '†': 0x86,
  '‡': 0x87,
  ˆ: 0x88,
  '‰': 0x89,
  Š: 0x8a,
  '‹': 0x8b,
  Œ: 0x8c,
  Ž: 0x8e,
  '‘': 0x91,
  '’': 0x92,
  '“': 0x93,
  '”': 0x94,
  '•': 0x95,
  '–': 0x96,
  '—': 0x97,
  '˜': 0x98,
  '™': 0x99,
  š: 0x9a,
  '›': 0x9b,
  œ: 0x9c,
  ž: 0x9e,
  Ÿ: 0x9f,
};

/** The text in Windows-1252; a character it cannot hold becomes `?` (DATEV's import takes nothing else). */
export function toWindows1252(s: string): Buffer {
  const out = Buffer.alloc(s.length * 2);
  let n = 0;
  for (const ch of s.normalize('NFC')) {
    const code = ch.codePointAt(0) ?? 0x3f;
    out[n++] = code < 0x80 || (code >= 0xa0 && code <= 0xff) ? code : (CP1252_HIGH[ch] ?? 0x3f);
  }
  return out.subarray(0, n);
}

/** The reverse, for reading a file back (tests, and anyone checking what was sent). */
export function fromWindows1252(b: Buffer): string {
  const high = new Map(Object.entries(CP1252_HIGH).map(([ch, code]) => [code, ch]));
  let s = '';
  for (const byte of b) s += high.get(byte) ?? String.fromCharCode(byte);
  return s;
}
