import { normalizeVatId, vatIdInput, vatIdProblem } from '../../shared/domain/common/vat-id';
import { paymentMeansOf, unitCodeOf, vatCategoryOf } from '../../shared/domain/e-invoices/document';

describe('VAT identifiers', () => {
  it('takes each member state’s form (and GB, XI, CH, NO), and refuses near misses', () => {
    const good = [
      'ATU12345678', 'BE0123456789', 'BG123456789', 'BG1234567890', 'CY12345678L', 'CZ12345678', 'CZ1234567890', 'DE123456789',
      'DK12345678', 'EE123456789', 'EL123456789', 'ESA1234567Z', 'ES12345678Z', 'FI12345678', 'FRAB123456789', 'FR12345678901',
      'HR12345678901', 'HU12345678', 'IE1234567T', 'IE1234567TW', 'IE1A23456T', 'IT12345678901', 'LT123456789', 'LT123456789012',
      'LU12345678', 'LV12345678901', 'MT12345678', 'NL123456789B01', 'PL1234567890', 'PT123456789', 'RO12', 'RO1234567890',
      'SE123456789001', 'SI12345678', 'SK1234567890', 'XI123456789', 'GB123456789', 'GBGD123', 'CHE123456789', 'CHE123456789MWST',
      'NO123456789MVA', 'AU12345678901',
    ]; // prettier-ignore
    for (const id of good) expect([id, vatIdProblem(id)]).toEqual([id, null]);
    const bad = [
      'DE12345678', 'DE1234567890', 'ATU1234567', 'AT12345678', 'BE2123456789', 'CY123456789', 'GR123456789', 'ES123456789',
      'FRI0123456789', 'FRO0123456789', 'IE12345678', 'NL123456789B1', 'NL123456789C01', 'RO0123', 'SE1234567890', 'SE123456789002',
      'PL123456789', 'XI12345678', '123456789', 'D', 'DE', 'XX1',
    ]; // prettier-ignore
    for (const id of bad) expect([id, vatIdProblem(id)]).toEqual([id, expect.any(String)]);
  });

  it('is stored as written, without the spaces, dots and dashes people type', () => {
    expect(normalizeVatId(' de 123.456-789 ')).toBe('DE123456789');
    expect(vatIdInput.parse('nl 1234.56789.b01')).toBe('NL123456789B01');
    expect(vatIdInput.safeParse('DE 1234').success).toBe(false);
  });
});

describe('what the e-invoice derives', () => {
  const de = { countryCode: 'DE' };
  it('a VAT category from the rate and the parties', () => {
    expect(vatCategoryOf(19, de, { countryCode: 'FR', vatId: 'FR12345678901' })).toBe('S');
    expect(vatCategoryOf(0, de, { countryCode: 'FR', vatId: 'FR12345678901' })).toBe('AE');
    // Without the buyer's VAT id there is no reverse charge.
    expect(vatCategoryOf(0, de, { countryCode: 'FR', vatId: null })).toBe('Z');
    expect(vatCategoryOf(0, de, { countryCode: 'DE', vatId: 'DE123456789' })).toBe('Z');
    expect(vatCategoryOf(0, de, { countryCode: 'US', vatId: null })).toBe('G');
    expect(vatCategoryOf(0, de, { countryCode: 'GR', vatId: 'EL123456789' })).toBe('AE');
  });

  it('a SEPA transfer when the payment details hold a valid IBAN, else the text as it is', () => {
    expect(paymentMeansOf('Commerzbank\nIBAN DE89 3704 0044 0532 0130 00, BIC COBADEFFXXX')).toEqual({
      code: '58',
      iban: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
      note: null,
    });
    // A check digit off: not taken as an account.
    expect(paymentMeansOf('IBAN DE88 3704 0044 0532 0130 00')).toMatchObject({ code: '1', iban: null });
    expect(paymentMeansOf('Pay by card at example.com/pay')).toEqual({
      code: '1',
      iban: null,
      bic: null,
      note: 'Pay by card at example.com/pay',
    });
    expect(paymentMeansOf(null)).toBeNull();
  });

  it('UN/ECE unit codes for the units people type', () => {
    expect(['hours', 'Std.', 'day', 'pcs', 'kg', 'm²', 'licence', null].map(unitCodeOf)).toEqual([
      'HUR',
      'HUR',
      'DAY',
      'H87',
      'KGM',
      'MTK',
      'C62',
      'C62',
    ]);
  });
});
