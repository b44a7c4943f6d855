import { DATE_FORMATS, type DateFormat, type DecimalSeparator } from './schema';

/** Amounts are exact: ten-thousandths of the unit (numeric(19,4)) as a bigint, never a float. */
const SCALE = 10_000n;
/** numeric(19,4) holds 15 digits before the point. */
const LIMIT = 10n ** 15n * SCALE;

const PATTERNS: Record<DateFormat, { re: RegExp; order: ('y' | 'm' | 'd')[] }> = {
  'YYYY-MM-DD': { re: /^(\d{4})-(\d{1,2})-(\d{1,2})$/, order: ['y', 'm', 'd'] },
  'YYYY/MM/DD': { re: /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/, order: ['y', 'm', 'd'] },
  YYYYMMDD: { re: /^(\d{4})(\d{2})(\d{2})$/, order: ['y', 'm', 'd'] },
  'DD.MM.YYYY': { re: /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/, order: ['d', 'm', 'y'] },
  'DD/MM/YYYY': { re: /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/, order: ['d', 'm', 'y'] },
  'DD-MM-YYYY': { re: /^(\d{1,2})-(\d{1,2})-(\d{4})$/, order: ['d', 'm', 'y'] },
  'MM/DD/YYYY': { re: /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/, order: ['m', 'd', 'y'] },
  'MM-DD-YYYY': { re: /^(\d{1,2})-(\d{1,2})-(\d{4})$/, order: ['m', 'd', 'y'] },
  'DD.MM.YY': { re: /^(\d{1,2})\.(\d{1,2})\.(\d{2})$/, order: ['d', 'm', 'y'] },
  'DD/MM/YY': { re: /^(\d{1,2})\/(\d{1,2})\/(\d{2})$/, order: ['d', 'm', 'y'] },
  'MM/DD/YY': { re: /^(\d{1,2})\/(\d{1,2})\/(\d{2})$/, order: ['m', 'd', 'y'] },
};

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** The date as YYYY-MM-DD, or null when the text is not a real date in that format. */
export function parseDate(text: string, format: DateFormat): string | null {
  const { re, order } = PATTERNS[format];
  const m = re.exec(text.trim());
  if (!m) return null;
  const parts = { y: 0, m: 0, d: 0 };
  order.forEach((k, i) => (parts[k] = Number(m[i + 1])));
  // Two-digit years are this century's: statements are not from the 1900s.
  if (parts.y < 100) parts.y += 2000;
  if (parts.y < 1000 || parts.m < 1 || parts.m > 12 || parts.d < 1) return null;
  const daysInMonth = new Date(Date.UTC(parts.y, parts.m, 0)).getUTCDate();
  if (parts.d > daysInMonth) return null;
  return `${pad(parts.y, 4)}-${pad(parts.m, 2)}-${pad(parts.d, 2)}`;
}

/** The formats every one of the samples is a valid date in, in DATE_FORMATS order. */
export const dateFormatsFitting = (samples: readonly string[]): DateFormat[] =>
  DATE_FORMATS.filter((f) => samples.length > 0 && samples.every((s) => parseDate(s, f) !== null));

/** Digits, grouped by threes with the other separator or not, then the decimals. */
const NUMBER_SHAPES: Record<DecimalSeparator, RegExp> = {
  '.': /^\d{1,3}(,\d{3})+(\.\d*)?$|^\d+(\.\d*)?$|^\.\d+$/,
  ',': /^\d{1,3}(\.\d{3})+(,\d*)?$|^\d+(,\d*)?$|^,\d+$/,
};

/**
 * An amount as written by a bank: `1.234,56`, `-1,234.56`, `1 234,56`, `(12.00)`, `12.50-`, `€ 3,00`.
 * Grouping marks (the other separator, spaces, apostrophes) are dropped; parentheses and a trailing
 * minus are negative. Null when it is not a number or has more than four decimals.
 */
export function parseAmount(text: string, decimal: DecimalSeparator): bigint | null {
  let s = text.trim().replace(/[\s\u00a0\u202f']/g, '');
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1);
  }
  s = s.replace(/^[^\d+\-.,]+|[^\d+\-.,]+$/g, ''); // a currency sign or code around the number
  if (s.endsWith('-')) {
    negative = !negative;
    s = s.slice(0, -1);
  }
  if (s.startsWith('-')) {
    negative = !negative;
    s = s.slice(1);
  } else if (s.startsWith('+')) s = s.slice(1);
  const group = decimal === ',' ? '.' : ',';
  if (!NUMBER_SHAPES[decimal].test(s)) return null;
  const [whole, fraction = ''] = s.split(group).join('').split(decimal);
  if (fraction.length > 4) return null;
  const value = BigInt(whole || '0') * SCALE + BigInt(fraction.padEnd(4, '0'));
  if (value >= LIMIT) return null;
  return negative ? -value : value;
}

/** A scaled amount as a decimal string without trailing zeros: `-1234.5`, `0`. */
export function formatAmount(value: bigint): string {
  const abs = value < 0n ? -value : value;
  const fraction = (abs % SCALE).toString().padStart(4, '0').replace(/0+$/, '');
  const text = `${abs / SCALE}${fraction ? `.${fraction}` : ''}`;
  return value < 0n ? `-${text}` : text;
}

/** Which separator the samples use for decimals: a comma followed by one or two digits at the end says comma. */
export function decimalSeparatorOf(samples: readonly string[]): DecimalSeparator | null {
  const values = samples.map((s) => s.trim()).filter(Boolean);
  if (!values.length) return null;
  const comma = values.filter((v) => /,\d{1,2}\)?-?$/.test(v)).length;
  const point = values.filter((v) => /\.\d{1,2}\)?-?$/.test(v)).length;
  if (comma > point) return ',';
  if (point > 0) return '.';
  return values.every((v) => parseAmount(v, '.') !== null) ? '.' : values.every((v) => parseAmount(v, ',') !== null) ? ',' : null;
}
