import { readEInvoice } from '../../shared/domain/e-invoices/incoming/read';
import { facturXPdf, SUPPLIER, supplierCii, supplierUbl } from '../support/supplier-e-invoice';
import { pdfReceipt } from '../fixtures/receipts';

const xml = (s: string) => Buffer.from(s, 'utf8');

// The default supplier invoice: 2 × 480.00 + 12 × 7.45 at 19 %, 1 × 24.90 at 7 %.
const EXPECTED = {
  typeCode: '380',
  number: 'LS-2026-0417',
  issueDate: '2026-11-03',
  dueDate: '2026-11-17',
  currency: 'EUR',
  supplier: { name: SUPPLIER.name, vatId: SUPPLIER.vatId },
  buyer: { name: 'Acme Studio GmbH', vatId: 'DE123456789' },
  totals: { lines: 107430, allowances: 0, charges: 0, net: 107430, tax: 20113, gross: 127543, prepaid: 0, rounding: 0, payable: 127543 },
  vatBreakdown: [
    { category: 'S', rate: 7, base: 2490, vat: 174 },
    { category: 'S', rate: 19, base: 104940, vat: 19939 },
  ],
  lines: [
    { id: '1', name: 'Server rack rental', quantity: '2', unitCode: 'MON', price: '480', net: 96000, category: 'S', rate: 19 },
    { id: '2', name: 'Cabling', quantity: '12', unitCode: 'C62', price: '7.45', net: 8940, category: 'S', rate: 19 },
    { id: '3', name: 'Manual', quantity: '1', unitCode: 'C62', price: '24.9', net: 2490, category: 'S', rate: 7 },
  ],
  payment: { iban: SUPPLIER.iban, bic: null, reference: 'LS-2026-0417' },
};

describe('reading a received e-invoice', () => {
  it('reads an XRechnung (UBL) to exact minor units: supplier, dates, totals, VAT by rate, lines, IBAN and reference', async () => {
    const read = await readEInvoice(xml(supplierUbl()), 'application/xml');
    expect(read).toEqual({ kind: 'read', invoice: { format: 'xrechnung', ...EXPECTED } });
  });

  it('tells Peppol UBL from XRechnung, and reads a bare CII the same', async () => {
    expect(await readEInvoice(xml(supplierUbl({}, 'ubl')), 'text/xml')).toMatchObject({
      kind: 'read',
      invoice: { format: 'ubl', totals: EXPECTED.totals },
    });
    expect(await readEInvoice(xml(supplierCii()), 'application/xml')).toEqual({ kind: 'read', invoice: { format: 'cii', ...EXPECTED } });
  });

  it('reads the CII embedded in a Factur-X PDF made by our own writer', async () => {
    const pdf = await facturXPdf(supplierCii());
    expect(await readEInvoice(pdf, 'application/pdf')).toEqual({ kind: 'read', invoice: { format: 'facturx', ...EXPECTED } });
  });

  it('a PDF without embedded XML is no e-invoice: it is read as any receipt', async () => {
    const pdf = await pdfReceipt({ merchant: 'GitHub', date: '2026-04-20', items: [['Team plan', 21]], vatRate: 19, currency: 'EUR' });
    expect(await readEInvoice(pdf, 'application/pdf')).toEqual({ kind: 'none' });
    expect(await readEInvoice(Buffer.from('%PDF-1.7 broken'), 'application/pdf')).toEqual({ kind: 'none' });
    expect(await readEInvoice(Buffer.from('jpeg'), 'image/jpeg')).toEqual({ kind: 'none' });
  });

  it('refuses external entities (XXE) before parsing, and never reads the file they point at', async () => {
    const xxe = supplierUbl()
      .replace(
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE Invoice [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
      )
      .replace('<cbc:Note>', '<cbc:Note>&xxe;');
    const read = await readEInvoice(xml(xxe), 'application/xml');
    expect(read).toEqual({ kind: 'refused', format: 'xrechnung', reason: expect.stringMatching(/DOCTYPE/) });
    expect(JSON.stringify(read)).not.toMatch(/root:/);
  });

  it('refuses a billion-laughs payload at once, without expanding it', async () => {
    const levels = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('');
    const bomb = `<?xml version="1.0"?><!DOCTYPE Invoice [<!ENTITY lol0 "lol">${levels}]><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>&lol9;</ID></Invoice>`;
    const started = performance.now();
    const read = await readEInvoice(xml(bomb), 'application/xml');
    expect(performance.now() - started).toBeLessThan(500);
    expect(read).toEqual({ kind: 'refused', format: 'ubl', reason: expect.stringMatching(/DTD or entities/) });
  });

  it('an entity declared in the internal subset without DOCTYPE text around it is refused too; predefined entities are text', async () => {
    const named = supplierUbl().replaceAll(SUPPLIER.name, 'Schmidt &amp; S&#246;hne &lt;GmbH&gt;');
    expect(await readEInvoice(xml(named), 'application/xml')).toMatchObject({
      kind: 'read',
      invoice: { supplier: { name: 'Schmidt & Söhne <GmbH>' } },
    });
    expect(await readEInvoice(xml('<?xml version="1.0"?>\n<!ENTITY a "b"><Invoice/>'), 'application/xml')).toMatchObject({
      kind: 'refused',
    });
  });

  it('a Factur-X whose totals disagree with its lines is refused, naming the disagreement', async () => {
    // The header asks 100.00 more than the lines add up to, every other sum made to agree with it.
    const forged = supplierCii()
      .replace(
        '<ram:SpecifiedTradeSettlementHeaderMonetarySummation><ram:LineTotalAmount>1074.30</ram:LineTotalAmount><ram:TaxBasisTotalAmount>1074.30</ram:TaxBasisTotalAmount><ram:TaxTotalAmount currencyID="EUR">201.13</ram:TaxTotalAmount><ram:GrandTotalAmount>1275.43</ram:GrandTotalAmount><ram:DuePayableAmount>1275.43',
        '<ram:SpecifiedTradeSettlementHeaderMonetarySummation><ram:LineTotalAmount>1174.30</ram:LineTotalAmount><ram:TaxBasisTotalAmount>1174.30</ram:TaxBasisTotalAmount><ram:TaxTotalAmount currencyID="EUR">201.13</ram:TaxTotalAmount><ram:GrandTotalAmount>1375.43</ram:GrandTotalAmount><ram:DuePayableAmount>1375.43',
      )
      .replace('<ram:BasisAmount>1049.40</ram:BasisAmount>', '<ram:BasisAmount>1149.40</ram:BasisAmount>');
    expect(forged).toContain('<ram:DuePayableAmount>1375.43');
    expect(forged).toContain('<ram:BasisAmount>1149.40');
    const read = await readEInvoice(await facturXPdf(forged), 'application/pdf');
    expect(read).toEqual({
      kind: 'refused',
      format: 'facturx',
      reason: 'the totals disagree: the sum of line nets 1074.30 is not the net total 1174.30 (BR-CO-10)',
    });
  });

  it('net + tax that is not the gross is refused, naming the sums', async () => {
    const forged = supplierCii().replace(
      /<ram:GrandTotalAmount>1275.43<\/ram:GrandTotalAmount><ram:DuePayableAmount>1275.43/,
      '<ram:GrandTotalAmount>1257.43</ram:GrandTotalAmount><ram:DuePayableAmount>1257.43',
    );
    const read = await readEInvoice(await facturXPdf(forged), 'application/pdf');
    expect(read).toMatchObject({
      kind: 'refused',
      reason: expect.stringContaining('net 1074.30 + tax 201.13 is not the gross total 1257.43'),
    });
  });

  it('malformed XML, another XML document, a missing total and an amount finer than the currency are refused with the reason', async () => {
    const cases: [string, RegExp][] = [
      ['<?xml version="1.0"?><Invoice><ID>1</ID>', /malformed|missing/],
      ['<?xml version="1.0"?><html><body/></html>', /root element is html/],
      [supplierUbl().replace(/<cbc:PayableAmount[^>]*>[^<]*<\/cbc:PayableAmount>/, ''), /amount payable \(BT-115\) is missing/],
      [supplierUbl().replace('>1275.43</cbc:PayableAmount>', '>1275.434</cbc:PayableAmount>'), /more decimals than EUR/],
      ['not xml at all', /not XML/],
    ];
    for (const [text, reason] of cases)
      expect(await readEInvoice(xml(text), 'application/xml')).toMatchObject({ kind: 'refused', reason: expect.stringMatching(reason) });
  });
});
