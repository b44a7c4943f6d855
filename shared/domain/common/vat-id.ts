import { z } from 'zod';

/**
 * The structure of each EU member state's VAT identifier (as VIES knows it: the country prefix, Greece
 * `EL`), with Northern Ireland's `XI` and the United Kingdom, Switzerland and Norway, whose ids appear
 * on the same invoices. Structure only: whether the number is registered is VIES's to say.
 */
const VAT_ID_FORMS: Record<string, { pattern: RegExp; example: string }> = {
  AT: { pattern: /^ATU\d{8}$/, example: 'ATU12345678' },
  BE: { pattern: /^BE[01]\d{9}$/, example: 'BE0123456789' },
  BG: { pattern: /^BG\d{9,10}$/, example: 'BG123456789' },
  CY: { pattern: /^CY\d{8}[A-Z]$/, example: 'CY12345678X' },
  CZ: { pattern: /^CZ\d{8,10}$/, example: 'CZ12345678' },
  DE: { pattern: /^DE\d{9}$/, example: 'DE123456789' },
  DK: { pattern: /^DK\d{8}$/, example: 'DK12345678' },
  EE: { pattern: /^EE\d{9}$/, example: 'EE123456789' },
  EL: { pattern: /^EL\d{9}$/, example: 'EL123456789' },
  // A letter first or last: a company's CIF or a person's NIF.
  ES: { pattern: /^ES([A-Z]\d{7}[A-Z0-9]|\d{8}[A-Z])$/, example: 'ESX1234567X' },
  FI: { pattern: /^FI\d{8}$/, example: 'FI12345678' },
  FR: { pattern: /^FR[A-HJ-NP-Z0-9]{2}\d{9}$/, example: 'FR12345678901' },
  HR: { pattern: /^HR\d{11}$/, example: 'HR12345678901' },
  HU: { pattern: /^HU\d{8}$/, example: 'HU12345678' },
  IE: { pattern: /^IE(\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$/, example: 'IE1234567T' },
  IT: { pattern: /^IT\d{11}$/, example: 'IT12345678901' },
  LT: { pattern: /^LT(\d{9}|\d{12})$/, example: 'LT123456789' },
  LU: { pattern: /^LU\d{8}$/, example: 'LU12345678' },
  LV: { pattern: /^LV\d{11}$/, example: 'LV12345678901' },
  MT: { pattern: /^MT\d{8}$/, example: 'MT12345678' },
  NL: { pattern: /^NL\d{9}B\d{2}$/, example: 'NL123456789B01' },
  PL: { pattern: /^PL\d{10}$/, example: 'PL1234567890' },
  PT: { pattern: /^PT\d{9}$/, example: 'PT123456789' },
  RO: { pattern: /^RO[1-9]\d{1,9}$/, example: 'RO1234567890' },
  SE: { pattern: /^SE\d{10}01$/, example: 'SE123456789001' },
  SI: { pattern: /^SI\d{8}$/, example: 'SI12345678' },
  SK: { pattern: /^SK\d{10}$/, example: 'SK1234567890' },
  XI: { pattern: /^XI(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/, example: 'XI123456789' },
  GB: { pattern: /^GB(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/, example: 'GB123456789' },
  CH: { pattern: /^CHE\d{9}(MWST|TVA|IVA)?$/, example: 'CHE123456789MWST' },
  NO: { pattern: /^NO\d{9}(MVA)?$/, example: 'NO123456789MVA' },
};

/** The member states' ISO 3166 codes, Greece as GR (its VAT prefix is EL). */
export const EU_COUNTRIES = new Set([
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IE', 'IT',
  'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK',
]); // prettier-ignore

/** The id as it is stored and printed: upper case, without the spaces, dots and dashes people type. */
export const normalizeVatId = (raw: string) => raw.replace(/[\s.\-/]/g, '').toUpperCase();

/** Why the (normalized) id is not a VAT identifier; null when its structure is right. */
export function vatIdProblem(id: string): string | null {
  if (!/^[A-Z]{2}/.test(id)) return 'starts with the two-letter country prefix (DE, FR, EL, …)';
  const prefix = id.slice(0, 2);
  if (prefix === 'GR') return "Greece's VAT prefix is EL";
  const form = VAT_ID_FORMS[prefix] as (typeof VAT_ID_FORMS)[string] | undefined;
  if (form) return form.pattern.test(id) ? null : `not a ${prefix} VAT identifier (of the form ${form.example})`;
  return /^[A-Z]{2}[A-Z0-9]{2,13}$/.test(id) ? null : 'the country prefix, then 2 to 13 letters and digits';
}

/** A VAT identifier as a client enters it: normalized, and refused (400) when its structure is wrong. */
export const vatIdInput = z
  .string()
  .trim()
  .max(50)
  .transform(normalizeVatId)
  .superRefine((id, ctx) => {
    const problem = vatIdProblem(id);
    if (problem) ctx.addIssue({ code: 'custom', message: `invalid VAT identifier: ${problem}` });
  })
  .meta({
    description:
      'With its country prefix (`DE123456789`, `ATU12345678`, Greece `EL…`); spaces, dots and dashes are dropped. The structure is checked per EU country (and GB, XI, CH, NO); a wrong one is 400.',
  });
