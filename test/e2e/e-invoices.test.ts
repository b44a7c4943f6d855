import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPdf, pdfEmbeddedFiles, pdfText } from '../../shared/domain/receipts/pdf-text';
import { fatalFindings, warmSchematron, xsdErrors, type Syntax } from '../support/e-invoice-validation';
import { withTwoTeams } from '../support/two-teams';

const { ctx, send } = withTwoTeams();

/** The document is valid: the UBL or CII schema, and no fatal EN 16931 rule broken. */
async function expectValid(xml: string, syntax: Syntax) {
  expect(await xsdErrors(xml, syntax)).toEqual([]);
  expect(await fatalFindings(xml, syntax)).toEqual([]);
}

const download = async (path: string, token = ctx.acme.sessionToken) => {
  const res = await ctx.api.fetch(path, { token });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
};

async function post(path: string, body: unknown, token = ctx.acme.sessionToken) {
  const res = await send('POST', path, token, body);
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

let customerId: string;

// The EN 16931 rules compiled to SEF once per checkout (cached), before any test's clock starts.
beforeAll(() => warmSchematron(), 600_000);

beforeAll(async () => {
  const res = await send('PATCH', '/teams/current', ctx.acme.sessionToken, {
    name: 'Acme Studio GmbH',
    email: 'billing@acme.example',
    countryCode: 'DE',
    addressLine1: 'Torstraße 1',
    city: 'Berlin',
    zip: '10119',
    vatNumber: 'de 123.456.789',
    phone: '+49 30 1234567',
    invoicePaymentDetails: 'Commerzbank Berlin\nIBAN DE89 3704 0044 0532 0130 00, BIC COBADEFFXXX',
  });
  expect(res.status).toBe(200);
  // Stored as the structure is written: upper case, without the dots and spaces.
  expect((await res.json()).data.vatNumber).toBe('DE123456789');
  customerId = (
    await post('/customers', {
      name: 'Nordwind Müller & Söhne GmbH',
      email: 'ap@nordwind.example',
      addressLine1: 'Hauptstraße 5',
      city: 'Hamburg',
      zip: '20095',
      countryCode: 'DE',
      vatNumber: 'DE987654321',
      buyerReference: '04011000-12345-34',
    })
  ).id;
});

async function issuedInvoice(overrides: Record<string, unknown> = {}) {
  const draft = await post('/invoices', {
    customerId,
    currency: 'EUR',
    issueDate: '2026-11-02',
    dueDate: '2026-11-16',
    note: 'Thank you for your business.',
    lineItems: [
      { name: 'Consulting', quantity: 10, unit: 'hours', price: 150, vatRate: 19 },
      { name: 'Handbook', quantity: 3, price: 24.99, vatRate: 7 },
      { name: 'Train ticket', quantity: 1, price: 89.9, vatRate: 0 },
      { name: 'Goodwill', quantity: 1, price: -12.5, vatRate: 19 },
    ],
    ...overrides,
  });
  return post(`/invoices/${draft.id}/finalize`, {});
}

describe('GET /invoices/:id/e-invoice', () => {
  it('serves an issued invoice as Peppol UBL, XRechnung and CII, each valid against the schema and the EN 16931 rules, with the PDF’s figures', async () => {
    const invoice = await issuedInvoice();
    // Lines 1500 + 74.97 + 89.90 − 12.50, VAT 285 + 5.25 − 2.38 (each line's VAT rounded as printed).
    expect(invoice.amount).toBe(1940.24);
    for (const [format, syntax] of [
      ['ubl', 'ubl-invoice'],
      ['xrechnung', 'ubl-invoice'],
      ['cii', 'cii'],
    ] as const) {
      const { res, bytes } = await download(`/invoices/${invoice.id}/e-invoice?format=${format}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/xml');
      expect(res.headers.get('content-disposition')).toContain(`${invoice.invoiceNumber}.${format}.xml`);
      const xml = bytes.toString('utf8');
      await expectValid(xml, syntax);
      expect(xml).toContain(invoice.invoiceNumber);
      expect(xml).toContain('Nordwind Müller &amp; Söhne GmbH');
      expect(xml).toContain('DE123456789');
      expect(xml).toContain('DE89370400440532013000');
      // The amount due, and VAT per category and rate, to the cent.
      if (syntax === 'cii') {
        expect(xml).toContain('<ram:TypeCode>380</ram:TypeCode>');
        expect(xml).toContain(`<ram:DuePayableAmount>${invoice.amount.toFixed(2)}</ram:DuePayableAmount>`);
        expect(xml).toContain(`<ram:TaxTotalAmount currencyID="EUR">${invoice.vat.toFixed(2)}</ram:TaxTotalAmount>`);
        expect(xml).toMatch(
          /<ram:CalculatedAmount>282.62<\/ram:CalculatedAmount><ram:TypeCode>VAT<\/ram:TypeCode><ram:BasisAmount>1487.50<\/ram:BasisAmount><ram:CategoryCode>S<\/ram:CategoryCode><ram:RateApplicablePercent>19</,
        );
        expect(xml).toMatch(/<ram:BasisAmount>89.90<\/ram:BasisAmount><ram:CategoryCode>Z<\/ram:CategoryCode>/);
      } else {
        expect(xml).toContain(`<cbc:PayableAmount currencyID="EUR">${invoice.amount.toFixed(2)}</cbc:PayableAmount>`);
        expect(xml).toContain(
          '<cbc:TaxableAmount currencyID="EUR">74.97</cbc:TaxableAmount><cbc:TaxAmount currencyID="EUR">5.25</cbc:TaxAmount><cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>7</cbc:Percent>',
        );
        // A negative price is a negative quantity: EN 16931 has no negative unit price.
        expect(xml).toContain(
          '<cbc:InvoicedQuantity unitCode="C62">-1</cbc:InvoicedQuantity><cbc:LineExtensionAmount currencyID="EUR">-12.50</cbc:LineExtensionAmount>',
        );
        expect(xml).toContain('<cbc:InvoicedQuantity unitCode="HUR">10</cbc:InvoicedQuantity>');
      }
      if (format === 'xrechnung') {
        expect(xml).toContain('urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0');
        expect(xml).toContain('<cbc:BuyerReference>04011000-12345-34</cbc:BuyerReference>');
      }
      if (format === 'ubl') expect(xml).toContain('urn:fdc:peppol.eu:2017:poacc:billing:3.0');
    }
  }, 180_000);

  it('serves Factur-X: the invoice PDF as PDF/A-3 with the valid CII embedded as factur-x.xml', async () => {
    const invoice = await issuedInvoice();
    const { res, bytes } = await download(`/invoices/${invoice.id}/e-invoice?format=facturx`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toContain(`${invoice.invoiceNumber}.pdf`);

    // pdf.js reads the Factur-X back as a viewer or an accounting program would: its attachment and its XMP.
    const attachments = await pdfEmbeddedFiles(bytes);
    expect([...attachments.keys()]).toEqual(['factur-x.xml']);
    const xml = attachments.get('factur-x.xml')!.toString('utf8');
    await expectValid(xml, 'cii');
    expect(xml).toContain(`<ram:GrandTotalAmount>${invoice.amount.toFixed(2)}</ram:GrandTotalAmount>`);
    // The same figures as the plain XML download.
    const cii = (await download(`/invoices/${invoice.id}/e-invoice?format=cii`)).bytes.toString('utf8');
    expect(xml).toBe(cii);

    const pdf = await openPdf(bytes);
    const { metadata } = (await pdf.getMetadata()) as { metadata: { getRaw(): string } };
    const xmp = metadata.getRaw();
    expect(xmp).toMatch(/<pdfaid:part>3<\/pdfaid:part>/);
    expect(xmp).toMatch(/<pdfaid:conformance>B<\/pdfaid:conformance>/);
    expect(xmp).toContain('<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>');
    expect(xmp).toContain('<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>');
    expect(xmp).toContain('<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>');
    // The file spec is tied to the document (catalog /AF) as the invoice in another form; sRGB output intent.
    const raw = bytes.toString('latin1');
    expect(raw).toMatch(/\/AFRelationship \/Alternative/);
    expect(raw).toMatch(/\/AF \[\d+ 0 R\]/);
    expect(raw).toMatch(/\/Subtype \/text#2Fxml/);
    expect(raw).toContain('/S /GTS_PDFA1');
    expect(raw.startsWith('%PDF-1.7')).toBe(true);

    // The PDF people read says who issues it as the XML does.
    const text = (await pdfText(bytes)).replace(/\s+/g, ' ');
    for (const shown of ['Acme Studio GmbH', 'Torstraße 1', '10119 Berlin', 'VAT DE123456789', '1.940,24 €']) expect(text).toContain(shown);

    // Page 1 is the invoice people read: rendered by poppler as any viewer would.
    const dir = mkdtempSync(join(tmpdir(), 'facturx-'));
    execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', '-', join(dir, 'page')], { input: bytes });
    const png = readFileSync(join(dir, 'page-1.png'));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    if (process.env.E_INVOICE_PAGE_OUT) execFileSync('cp', [join(dir, 'page-1.png'), process.env.E_INVOICE_PAGE_OUT]);
  }, 120_000);

  it('serves a credit note as UBL CreditNote and CII 381, referring to its invoice, valid likewise', async () => {
    const invoice = await issuedInvoice();
    const note = await post(`/invoices/${invoice.id}/credit-notes`, {
      lineItems: [{ line: 0, quantity: 2 }, { line: 1 }],
      reason: 'Two hours were not worked',
    });
    expect(note.amount).toBe(437.22);
    for (const [format, syntax] of [
      ['ubl', 'ubl-credit-note'],
      ['xrechnung', 'ubl-credit-note'],
      ['cii', 'cii'],
    ] as const) {
      const { res, bytes } = await download(`/invoices/credit-notes/${note.id}/e-invoice?format=${format}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toContain(`${note.creditNoteNumber}.${format}.xml`);
      const xml = bytes.toString('utf8');
      await expectValid(xml, syntax);
      if (syntax === 'cii') {
        expect(xml).toContain('<ram:TypeCode>381</ram:TypeCode>');
        expect(xml).toContain(`<ram:InvoiceReferencedDocument><ram:IssuerAssignedID>${invoice.invoiceNumber}</ram:IssuerAssignedID>`);
        expect(xml).toContain(`<ram:GrandTotalAmount>${note.amount.toFixed(2)}</ram:GrandTotalAmount>`);
      } else {
        expect(xml).toMatch(/^<\?xml[^>]*>\n<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"/);
        expect(xml).toContain('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>');
        expect(xml).toContain(`<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>${invoice.invoiceNumber}</cbc:ID>`);
        expect(xml).toContain('<cbc:CreditedQuantity unitCode="HUR">2</cbc:CreditedQuantity>');
        expect(xml).toContain(`<cbc:PayableAmount currencyID="EUR">${note.amount.toFixed(2)}</cbc:PayableAmount>`);
      }
    }
    const { res, bytes } = await download(`/invoices/credit-notes/${note.id}/e-invoice?format=facturx`);
    expect(res.status).toBe(200);
    const xml = (await pdfEmbeddedFiles(bytes)).get('factur-x.xml')!.toString('utf8');
    await expectValid(xml, 'cii');
    expect(xml).toContain('<ram:TypeCode>381</ram:TypeCode>');
  }, 180_000);

  it('writes reverse charge (AE) to a buyer in another member state, export (G) outside the EU, and a discount on 0 % as an allowance', async () => {
    const fr = await post('/customers', {
      name: 'Atelier Lumière SARL',
      email: 'compta@lumiere.example',
      countryCode: 'FR',
      vatNumber: 'FR 12 345678901',
    });
    const us = await post('/customers', { name: 'Prairie Tools Inc.', email: 'ap@prairie.example', countryCode: 'US' });
    const cases: [string, string, string][] = [
      [fr.id, 'AE', 'VATEX-EU-AE'],
      [us.id, 'G', 'VATEX-EU-G'],
    ];
    for (const [id, category, code] of cases) {
      const invoice = await issuedInvoice({
        customerId: id,
        discount: 50,
        lineItems: [
          { name: 'Design sprint', quantity: 5, unit: 'days', price: 900 },
          { name: 'Workshop', quantity: 1, price: 1200, vatRate: 0 },
        ],
      });
      expect(invoice.amount).toBe(5650);
      const ubl = (await download(`/invoices/${invoice.id}/e-invoice?format=ubl`)).bytes.toString('utf8');
      await expectValid(ubl, 'ubl-invoice');
      expect(ubl).toContain(
        `<cbc:ID>${category}</cbc:ID><cbc:Percent>0</cbc:Percent><cbc:TaxExemptionReasonCode>${code}</cbc:TaxExemptionReasonCode>`,
      );
      expect(ubl).toContain('<cbc:AllowanceTotalAmount currencyID="EUR">50.00</cbc:AllowanceTotalAmount>');
      expect(ubl).toContain('<cbc:PayableAmount currencyID="EUR">5650.00</cbc:PayableAmount>');
      const cii = (await download(`/invoices/${invoice.id}/e-invoice?format=cii`)).bytes.toString('utf8');
      await expectValid(cii, 'cii');
      expect(cii).toContain(`<ram:CategoryCode>${category}</ram:CategoryCode>`);
    }
  }, 180_000);

  it('answers 409 for a draft and for what EN 16931 needs and the data lacks, naming the field; 400 for an unknown format', async () => {
    const draft = await post('/invoices', { customerId, currency: 'EUR', lineItems: [{ name: 'Draft work', price: 10, vatRate: 19 }] });
    for (const format of ['ubl', 'facturx']) {
      const res = await send('GET', `/invoices/${draft.id}/e-invoice?format=${format}`, ctx.acme.sessionToken);
      expect(res.status).toBe(409);
      expect((await res.json()).description).toMatch(/draft: only an issued invoice has an e-invoice/);
    }
    const bad = await send('GET', `/invoices/${draft.id}/e-invoice?format=pdf`, ctx.acme.sessionToken);
    expect(bad.status).toBe(400);
    expect((await bad.json()).details[0].field).toBe('format');

    // No Leitweg-ID: XRechnung is refused, Peppol UBL and CII are made.
    const plain = await post('/customers', { name: 'Kiosk am Eck', email: 'kiosk@example.de', countryCode: 'DE' });
    const invoice = await issuedInvoice({ customerId: plain.id });
    const xr = await send('GET', `/invoices/${invoice.id}/e-invoice?format=xrechnung`, ctx.acme.sessionToken);
    expect(xr.status).toBe(409);
    const body = await xr.json();
    expect(body.details.map((d: { field: string }) => d.field)).toEqual(['customer.buyerReference', 'customer.city', 'customer.zip']);
    expect((await send('GET', `/invoices/${invoice.id}/e-invoice?format=cii`, ctx.acme.sessionToken)).status).toBe(200);

    // A discount off the total after VAT cannot be said in EN 16931.
    const discounted = await issuedInvoice({ discount: 10 });
    const d = await send('GET', `/invoices/${discounted.id}/e-invoice?format=cii`, ctx.acme.sessionToken);
    expect(d.status).toBe(409);
    expect((await d.json()).details[0].field).toBe('invoice.discount');

    // Another team's invoice and credit note are not there.
    const note = await post(`/invoices/${invoice.id}/credit-notes`, {});
    for (const path of [`/invoices/${invoice.id}/e-invoice?format=cii`, `/invoices/credit-notes/${note.id}/e-invoice?format=ubl`]) {
      expect((await send('GET', path, ctx.other.sessionToken)).status).toBe(404);
    }
  }, 120_000);

  it('needs a VAT id or tax number of the team', async () => {
    const invoice = await issuedInvoice();
    await ctx.tdb.db('teams').where({ id: ctx.acme.team.id }).update({ vat_number: null, tax_number: null, registration_number: null });
    try {
      const res = await send('GET', `/invoices/${invoice.id}/e-invoice?format=ubl`, ctx.acme.sessionToken);
      expect(res.status).toBe(409);
      expect((await res.json()).details).toEqual([expect.objectContaining({ field: 'team.vatNumber' })]);
      // A German Steuernummer is the tax registration standard-rated lines need (BT-32); without a VAT
      // id the seller is then identified by its commercial register number (BT-30).
      expect((await send('PATCH', '/teams/current', ctx.acme.sessionToken, { taxNumber: '30/123/45678' })).status).toBe(200);
      const unnamed = await send('GET', `/invoices/${invoice.id}/e-invoice?format=ubl`, ctx.acme.sessionToken);
      expect(unnamed.status).toBe(409);
      expect((await unnamed.json()).details).toEqual([expect.objectContaining({ field: 'team.registrationNumber' })]);
      expect((await send('PATCH', '/teams/current', ctx.acme.sessionToken, { registrationNumber: 'HRB 12345 B' })).status).toBe(200);
      const xml = (await download(`/invoices/${invoice.id}/e-invoice?format=ubl`)).bytes.toString('utf8');
      await expectValid(xml, 'ubl-invoice');
      expect(xml).toContain('<cac:PartyTaxScheme><cbc:CompanyID>30/123/45678</cbc:CompanyID><cac:TaxScheme><cbc:ID>FC</cbc:ID>');
      expect(xml).toContain('<cbc:CompanyID>HRB 12345 B</cbc:CompanyID>');
      const cii = (await download(`/invoices/${invoice.id}/e-invoice?format=cii`)).bytes.toString('utf8');
      await expectValid(cii, 'cii');
    } finally {
      await ctx.tdb
        .db('teams')
        .where({ id: ctx.acme.team.id })
        .update({ vat_number: 'DE123456789', tax_number: null, registration_number: null });
    }
  }, 120_000);
});

describe('the public link (/i/:token) offers the e-invoice the customer chose', () => {
  it('links it on the page and serves it; without a chosen format neither', async () => {
    const chose = await post('/customers', {
      name: 'Behörde Nord',
      email: 'rechnung@behoerde.example',
      countryCode: 'DE',
      city: 'Kiel',
      zip: '24103',
      buyerReference: '991-01234-56',
      eInvoiceFormat: 'xrechnung',
    });
    for (const [customer, offered] of [
      [chose.id, true],
      [customerId, false],
    ] as const) {
      const invoice = await issuedInvoice({ customerId: customer });
      const { url } = await post(`/invoices/${invoice.id}/public-link`, {});
      const path = new URL(url, 'http://x').pathname;
      const page = await (await ctx.api.fetch(path)).text();
      const file = await ctx.api.fetch(`${path}/e-invoice`);
      if (!offered) {
        expect(page).not.toContain('e-invoice');
        expect(file.status).toBe(404);
        continue;
      }
      expect(page).toContain(`<a class="button" href="${path}/e-invoice">Download e-invoice (XRechnung)</a>`);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-disposition')).toContain(`${invoice.invoiceNumber}.xrechnung.xml`);
      const xml = await file.text();
      await expectValid(xml, 'ubl-invoice');
      expect(xml).toContain('<cbc:BuyerReference>991-01234-56</cbc:BuyerReference>');
    }
  }, 120_000);
});

describe('VAT identifiers where they are entered', () => {
  it('refuses one of the wrong form with 400 and writes nothing; takes a right one in its written form', async () => {
    const before = await ctx.tdb.db('customers').where({ team_id: ctx.acme.team.id }).count<{ count: string }[]>('* as count');
    for (const vatNumber of ['DE12345678', 'ATU1234567', 'GR123456789', 'NL123456789B1', '123456789', 'FRI0123456789']) {
      const res = await send('POST', '/customers', ctx.acme.sessionToken, { name: 'Wrong VAT', vatNumber });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.details[0]).toMatchObject({ field: 'vatNumber', message: expect.stringMatching(/invalid VAT identifier/) });
    }
    const after = await ctx.tdb.db('customers').where({ team_id: ctx.acme.team.id }).count<{ count: string }[]>('* as count');
    expect(after).toEqual(before);

    const team = await send('PATCH', '/teams/current', ctx.acme.sessionToken, { vatNumber: 'DE1234' });
    expect(team.status).toBe(400);
    expect((await ctx.tdb.db('teams').where({ id: ctx.acme.team.id }).first()).vatNumber).toBe('DE123456789');

    for (const [typed, stored] of [
      ['EL 123456789', 'EL123456789'],
      ['nl123456789b01', 'NL123456789B01'],
      ['ATU-12345678', 'ATU12345678'],
      ['CHE-123.456.789 MWST', 'CHE123456789MWST'],
    ]) {
      const res = await send('POST', '/customers', ctx.acme.sessionToken, { name: `VAT ${typed}`, vatNumber: typed });
      expect(res.status).toBe(201);
      expect((await res.json()).data.vatNumber).toBe(stored);
    }
  });
});
