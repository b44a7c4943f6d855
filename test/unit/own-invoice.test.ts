import { ibansIn } from '../../shared/domain/documents/own-invoice';

describe('the IBANs in a text', () => {
  it('finds them however they are spaced, by their country, length and check digits', () => {
    // No comma before the BIC: the IBAN's length, not the spacing, says where it ends.
    expect([...ibansIn('Commerzbank Berlin\nIBAN DE89 3704 0044 0532 0130 00 BIC COBADEFFXXX')]).toEqual(['DE89370400440532013000']);
    expect([...ibansIn('GB29 NWBK 6016 1331 9268 19; fr14-2004-1010-0505-0001-3m02-606')]).toEqual([
      'GB29NWBK60161331926819',
      'FR1420041010050500013M02606',
    ]);
    // One digit off fails the check; a code of an unknown country is none.
    expect([...ibansIn('DE89 3704 0044 0532 0130 01, ZZ12 3456 7890 1234')]).toEqual([]);
  });
});
