import type { DocumentKind } from './kinds';

/**
 * Words that say what a document is, in the languages our teams write in. Each kind scores by how
 * many of its signs the text (and the file name) shows; a tie or nothing at all is `other`.
 * Deliberately plain rules: they run on every upload, offline, and a user can see why.
 */
const SIGNS: Record<Exclude<DocumentKind, 'other'>, RegExp[]> = {
  invoice: [
    /\binvoice\b/i,
    /\b(rechnung|facture|factura|fattura|faktura|factuur)\b/i,
    /\binvoice\s*(no\.?|number|#|date)/i,
    /\bbill(ed)?\s+to\b/i,
    /\b(due date|payment terms|payable within|iban)\b/i,
  ],
  receipt: [
    /\breceipt\b/i,
    /\b(quittung|kassenbon|beleg|reçu|ticket de caisse|recibo|scontrino|kvitto)\b/i,
    /\b(thank you for (your )?(purchase|shopping|visit)|change due|cashier|card payment|amount paid|total paid)\b/i,
    /\b(visa|mastercard|amex|contactless)\b/i,
  ],
  contract: [
    /\b(agreement|contract|vertrag|contrat|contrato)\b/i,
    /\b(hereinafter|the parties|whereas|in witness whereof|termination)\b/i,
    /\b(signature|signed by|effective date)\b/i,
  ],
};

export function classifyDocument(text: string, fileName: string): DocumentKind {
  const haystack = `${fileName.replace(/[_.-]+/g, ' ')}\n${text}`;
  const scores = Object.entries(SIGNS).map(([kind, signs]) => ({
    kind: kind as DocumentKind,
    score: signs.filter((sign) => sign.test(haystack)).length,
  }));
  scores.sort((a, b) => b.score - a.score);
  const [best, next] = scores;
  return best.score > 0 && best.score > next.score ? best.kind : 'other';
}
