import type { Db } from '../../db/knex';
import { Team } from '../../db/models';

/** IBAN length by country (the SWIFT IBAN registry): an IBAN's spacing varies, its length does not. */
const IBAN_LENGTHS = new Map(
  (
    'AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DK18 DO28 EE20 EG29 ES24 FI18 FO18 ' +
    'FR27 GB22 GE22 GI23 GL18 GR27 GT28 HR21 HU28 IE22 IL23 IQ23 IS26 IT27 JO30 KW30 KZ20 LB28 LC32 LI21 LT20 LU20 LV21 ' +
    'MC27 MD24 ME22 MK19 MR27 MT31 MU30 NL18 NO15 PK24 PL28 PS29 PT25 QA29 RO24 RS22 SA24 SC31 SE24 SI19 SK24 SM27 ST25 ' +
    'SV28 TL23 TN24 TR26 UA29 VA22 VG24 XK20'
  )
    .split(' ')
    .map((e) => [e.slice(0, 2), Number(e.slice(2))] as const),
);

/** ISO 13616's check: the account moved behind its country and check digits, letters as numbers, mod 97 is 1. */
function validIban(candidate: string): boolean {
  const moved = candidate.slice(4) + candidate.slice(0, 4);
  let rest = 0;
  for (const ch of moved) {
    const digits = /\d/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest === 1;
}

/** The IBANs a text holds, however they are spaced: a known country, its length, and check digits that add up. */
export function ibansIn(text: string): Set<string> {
  const compact = text.toUpperCase().replace(/[\s-]+/g, '');
  const found = new Set<string>();
  for (const start of compact.matchAll(/([A-Z]{2})\d{2}/g)) {
    const length = IBAN_LENGTHS.get(start[1]);
    const candidate = length ? compact.slice(start.index, start.index + length) : '';
    if (candidate.length === length && /^[A-Z0-9]+$/.test(candidate) && validIban(candidate)) found.add(candidate);
  }
  return found;
}

/** Words that may be an invoice number: anything with a digit in it, without the punctuation around it. */
const numberLikeWords = (text: string) =>
  [
    ...new Set(
      text
        .split(/[\s,;:()[\]"'<>]+/)
        .map((w) => w.replace(/^[.#]+|[.]+$/g, ''))
        .filter((w) => w.length >= 2 && w.length <= 64 && /\d/.test(w)),
    ),
  ].slice(0, 5000);

const folded = (s: string) => s.toLowerCase().replace(/\s+/g, ' ');

/**
 * Whether an invoice's text is one the team issued itself (its own PDF uploaded back, or a sales
 * invoice written elsewhere): income it already knows, not a supplier's bill for the receipt matching
 * to pair with money out. A supplier's invoice names the team too (it is billed to it), and may even
 * use the same numbering, so the signs are ones only the team's own invoices carry: one of the team's
 * invoice numbers together with that invoice's customer, or the team's own bank account (the payment
 * details its invoices print), where a supplier prints its own.
 */
export async function issuedByTeam(db: Db, teamId: string, text: string): Promise<boolean> {
  if (!text.trim()) return false;
  const team = await Team.query(db).findById(teamId).select('invoicePaymentDetails');
  const ownAccounts = ibansIn(team?.invoicePaymentDetails ?? '');
  if (ownAccounts.size && [...ibansIn(text)].some((iban) => ownAccounts.has(iban))) return true;

  const words = numberLikeWords(text);
  if (!words.length) return false;
  const customers = await db('invoices as i')
    .join('customers as c', (j) => j.on('c.id', 'i.customer_id').andOn('c.team_id', 'i.team_id'))
    .where('i.team_id', teamId)
    .whereIn('i.invoice_number', words)
    .pluck<string[]>('c.name');
  const haystack = folded(text);
  return customers.some((name) => haystack.includes(folded(name)));
}
