import { roundMoney } from '../currencies/money';

/** Stands in for a word OCR was unsure of: no field is ever read from it. */
export const UNSURE = '\u2047';

/** What a receipt says, as far as we can tell; a field we are not sure of stays null. */
export interface ReceiptFields {
  amount: number | null;
  currency: string | null;
  date: string | null;
  merchant: string | null;
  taxAmount: number | null;
  taxRate: number | null;
}

const CURRENCY_SIGNS: Array<[RegExp, string]> = [
  [/€|\bEUR\b/i, 'EUR'],
  [/£|\bGBP\b/i, 'GBP'],
  [/\bCHF\b/i, 'CHF'],
  [/\bSEK\b/i, 'SEK'],
  [/\$|\bUSD\b/i, 'USD'],
];

/** 1.234,56 / 1,234.56 / 1234.56 / 12,50 → number, to the four decimals money is stored with. */
export function parseMoney(s: string): number | null {
  const m = s.replace(/\s/g, '').match(/-?\d[\d.,]*/);
  if (!m) return null;
  let v = m[0];
  const lastComma = v.lastIndexOf(',');
  const lastDot = v.lastIndexOf('.');
  if (lastComma > lastDot) v = v.replace(/\./g, '').replace(',', '.');
  else v = v.replace(/,/g, '');
  const n = Number(v);
  return Number.isFinite(n) ? Math.round(n * 10_000) / 10_000 : null;
}

function parseDate(text: string): string | null {
  const iso = text.match(/\b(20\d{2})-(\d{2})-(\d{2})\b/);
  if (iso) return `${iso[1]}-${iso[2]}-${iso[3]}`;
  const eu = text.match(/\b(\d{1,2})[./](\d{1,2})[./](20\d{2})\b/);
  if (eu) {
    const [d, m] = [Number(eu[1]), Number(eu[2])];
    if (m >= 1 && m <= 12 && d >= 1 && d <= 31) return `${eu[3]}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  }
  return null;
}

const TOTAL_LABEL = /\b(grand\s+total|total\s+due|amount\s+due|total|summe|gesamt|betrag)\b/i;
const TOTAL = /\b(grand\s+total|total\s+due|amount\s+due|total|summe|gesamt|betrag)\b[^\d\n-]*(-?[\d.,\s]*\d)/i;
const TAX = /\b(vat|tax|mwst|ust)\b\s*(\d{1,2}(?:[.,]\d{1,2})?)\s*%[^\d\n-]*(-?[\d.,]*\d)?/i;
const DATE_LABEL = /\b(date|datum)\b/i;

/**
 * Reads the fields from a receipt's text (PDF text or OCR output). Each field comes from the one
 * line that should hold it; when OCR was unsure of that line, the field stays empty rather than
 * being taken from some later line that merely parses.
 */
export function extractFromText(text: string): ReceiptFields {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const sure = (line: string | undefined) => (line !== undefined && !line.includes(UNSURE) ? line : undefined);

  const totalLine = sure(lines.find((l) => TOTAL_LABEL.test(l) && !/sub\s*total/i.test(l)));
  const totalMatch = totalLine ? TOTAL.exec(totalLine) : null;
  const currency = CURRENCY_SIGNS.find(([re]) => re.test(totalLine ?? '') || re.test(text))?.[1] ?? null;
  // Amounts in the currency's minor unit (cents when none was found).
  const money = (s: string) => {
    const n = parseMoney(s);
    return n === null ? null : roundMoney(n, currency);
  };
  const amount = totalMatch ? money(totalMatch[2]) : null;
  const taxMatch = lines.map((l) => TAX.exec(l)).find(Boolean);
  const taxRate = taxMatch ? parseMoney(taxMatch[2]) : null;
  const taxAmount = taxMatch?.[3] ? money(taxMatch[3]) : null;
  const dateLine = lines.find((l) => DATE_LABEL.test(l));
  const date =
    dateLine !== undefined
      ? parseDate(sure(dateLine) ?? '')
      : parseDate(text.includes(UNSURE) ? lines.filter((l) => !l.includes(UNSURE)).join('\n') : text);
  // The merchant is the first line that is not a number, a date or a receipt label.
  const merchantLine = sure(
    lines.find(
      (l) =>
        (/[a-z]{3}/i.test(l) || l.includes(UNSURE)) && !/receipt|invoice|quittung|rechnung|date|datum/i.test(l) && !TOTAL_LABEL.test(l),
    ),
  );
  return { amount, currency, date, merchant: merchantLine ? merchantLine.slice(0, 200) : null, taxAmount, taxRate };
}
