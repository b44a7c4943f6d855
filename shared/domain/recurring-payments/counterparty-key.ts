/**
 * One key per counterparty, whatever the bank adds to its name: `NETFLIX.COM 866-579-7172`,
 * `Netflix.com` and `PAYPAL *NETFLIX` are all `netflix com`. Tokens with a digit are references
 * (card numbers, invoice ids, dates) and go; so do legal forms and the words payment processors put
 * before the merchant. Empty when nothing of a name is left.
 */
export function counterpartyKey(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    // A processor's prefix ends in `*` (`sq *`, `paypal *`): the merchant is what follows it.
    .replace(/^[^*]{1,12}\*\s*/, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w && !/\d/.test(w) && !NOISE.has(w));
  return words.slice(0, 4).join(' ');
}

const NOISE = new Set([
  'gmbh',
  'ag',
  'kg',
  'ug',
  'ltd',
  'limited',
  'inc',
  'llc',
  'plc',
  'bv',
  'nv',
  'sa',
  'sarl',
  'sas',
  'srl',
  'spa',
  'oy',
  'ab',
  'as',
  'co',
  'corp',
  'the',
  'payment',
  'purchase',
  'card',
  'pos',
  'sepa',
  'direct',
  'debit',
  'lastschrift',
  'dd',
  'ref',
  'www',
]);
