import { receiptIngestionId, type ReceiptIngestionWorkflow } from '../../shared/temporal/receipt-ingestion/contract';
import { syncConnectionId } from '../../shared/temporal/sync-connection/contract';
import { startBankAFake, type BankAFake } from '../fakes/bank-a';
import { sendJson, statusAndBody } from '../support/api';
import { withStack } from '../support/stack';
import { facturXPdf, SUPPLIER, supplierCii, supplierUbl } from '../support/supplier-e-invoice';

// A real worker runs the bank sync and the receipt ingestion; the bank is bank-a's fake, the mail Postmark's inbound JSON.
let bankA: BankAFake;
beforeAll(async () => {
  bankA = await startBankAFake();
});
afterAll(async () => {
  await bankA?.close();
});
const AUTH = `Basic ${Buffer.from('inbox:mail-secret').toString('base64')}`;
const stack = withStack('e-invoices-in', () => ({
  BANK_A_API_URL: bankA.url,
  INBOX_WEBHOOK_USERNAME: 'inbox',
  INBOX_WEBHOOK_PASSWORD: 'mail-secret',
  INBOX_DOMAIN: 'in.example.com',
  RECEIPT_DECISION_TIMEOUT: '2s',
}));

const json = (method: string, path: string, body?: unknown) =>
  sendJson(stack.api, method, path, stack.acme.sessionToken, body).then(statusAndBody);

const mail = (messageId: string, file: { name: string; bytes: Buffer; type: string }) =>
  stack.api.fetch('/webhook/inbox', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: AUTH },
    body: JSON.stringify({
      MessageID: messageId,
      OriginalRecipient: `${stack.acme.team.inboxId}@in.example.com`,
      FromFull: { Email: 'rechnung@lieferwerk.example', Name: SUPPLIER.name },
      Subject: 'Rechnung',
      Attachments: [{ Name: file.name, Content: file.bytes.toString('base64'), ContentType: file.type, ContentLength: file.bytes.length }],
    }),
  });

const ingestion = (reference: string) =>
  stack.worker.client.workflow.getHandle<ReceiptIngestionWorkflow>(receiptIngestionId(stack.acme.team.id, reference)).result();

const today = new Date().toISOString().slice(0, 10);
/** The bank payment the first test's Factur-X is matched to. */
let paidFacturX: string;

/** A bank-a connection whose next sync books the given payments out (bank-a's sign: positive is money out). */
async function bankWith(payments: { amount: number; name: string }[]) {
  const item = bankA.addItem({ currency: 'EUR' });
  const connection = (await json('POST', '/bank-connections', { provider: 'bank-a', publicToken: item.publicToken })).body.data;
  const sync = () => stack.worker.client.workflow.getHandle(syncConnectionId(connection.id)).result();
  await sync();
  const book = async (list: { amount: number; name: string }[]) => {
    const txs = bankA.addTransactions(item.itemId, list.length, Math.floor(Math.random() * 1e6));
    txs.forEach((tx, i) => bankA.modify(item.itemId, { ...tx, ...list[i], date: today, merchant_name: null }));
    const signed = await bankA.signUpdatesAvailable(item.itemId);
    await stack.api.fetch('/webhook/bank-a', { method: 'POST', headers: signed.headers, body: signed.raw });
    await sync();
    return Promise.all(
      txs.map((tx) => stack.tdb.db('transactions').where({ teamId: stack.acme.team.id, providerTransactionId: tx.transaction_id }).first()),
    );
  };
  return { book, booked: await book(payments) };
}

describe('e-invoices in', () => {
  it('a Factur-X by the inbox email → an inbox item with exact totals → matched exactly to the bank-a payment quoting its reference', async () => {
    expect((await json('PATCH', '/teams/current', { autoMatch: true })).status).toBe(200);
    // Two payments of the very amount: only the one quoting the invoice's reference is its payment.
    const { booked } = await bankWith([
      { amount: 1275.43, name: 'SEPA UEBERWEISUNG LIEFERWERK SCHMIDT LS-2026-0417' },
      { amount: 1275.43, name: 'SEPA UEBERWEISUNG OFFICE FURNITURE' },
    ]);
    const [paid, other] = booked;
    expect(paid).toMatchObject({ amount: -1275.43, currency: 'EUR' });
    paidFacturX = paid.id;

    const pdf = await facturXPdf(supplierCii());
    expect((await mail('msg-fx', { name: 'LS-2026-0417.pdf', bytes: pdf, type: 'application/pdf' })).status).toBe(200);
    const result = await ingestion('msg-fx:LS-2026-0417.pdf');
    expect(result).toMatchObject({ stage: 'auto_matched', transactionId: paid.id });

    const row = await stack.tdb.db('inbox_items').where({ reference: 'msg-fx:LS-2026-0417.pdf' }).first();
    const { status, body } = await json('GET', `/inbox/${row.id}`);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      status: 'done',
      transactionId: paid.id,
      extractionMethod: 'e_invoice',
      eInvoiceFormat: 'facturx',
      displayName: SUPPLIER.name,
      amount: 1275.43,
      taxAmount: 201.13,
      currency: 'EUR',
      date: '2026-11-03',
      failureReason: null,
      paymentDue: null, // paid: nothing left to suggest
      eInvoice: {
        number: 'LS-2026-0417',
        supplier: { name: SUPPLIER.name, vatId: SUPPLIER.vatId },
        totals: { lines: 107430, net: 107430, tax: 20113, gross: 127543, payable: 127543 },
        vatBreakdown: [
          { rate: 7, base: 2490, vat: 174 },
          { rate: 19, base: 104940, vat: 19939 },
        ],
        payment: { iban: SUPPLIER.iban, reference: 'LS-2026-0417' },
      },
    });
    expect(body.data.eInvoice.lines).toHaveLength(3);
    const suggestions = await stack.tdb.db('match_suggestions').where({ inboxItemId: row.id });
    expect(suggestions).toEqual([
      expect.objectContaining({ transactionId: paid.id, matchType: 'auto_matched', status: 'confirmed', confidence: 1 }),
    ]);
    expect(suggestions.some((s: { transactionId: string }) => s.transactionId === other.id)).toBe(false);
  });

  it('an unpaid XRechnung is a payment to make, until the payment by IBAN arrives and is suggested with full confidence', async () => {
    expect((await json('PATCH', '/teams/current', { autoMatch: false })).status).toBe(200);
    const { book } = await bankWith([]);
    const xml = supplierUbl({ number: 'LS-2026-0502', lines: [{ name: 'Maintenance', quantity: 1, price: 300, vatRate: 19 }] });
    await mail('msg-xr', { name: 'LS-2026-0502.xml', bytes: Buffer.from(xml), type: 'application/xml' });
    expect(await ingestion('msg-xr:LS-2026-0502.xml')).toMatchObject({ stage: 'no_match' });
    const row = await stack.tdb.db('inbox_items').where({ reference: 'msg-xr:LS-2026-0502.xml' }).first();
    expect((await json('GET', `/inbox/${row.id}`)).body.data).toMatchObject({
      status: 'no_match',
      eInvoiceFormat: 'xrechnung',
      amount: 357,
      paymentDue: { amount: 35700, currency: 'EUR', iban: SUPPLIER.iban, reference: 'LS-2026-0502', dueDate: '2026-11-17' },
    });

    // The transfer names no invoice, only the supplier's IBAN, as some banks print it.
    const [payment] = await book([{ amount: 357, name: `SEPA DE75 5121 0800 1245 1261 99 LIEFERWERK` }]);
    const item = (await json('GET', `/inbox/${row.id}`)).body.data;
    expect(item).toMatchObject({ status: 'suggested_match', suggestion: { transactionId: payment.id, confidence: 1, status: 'pending' } });
    expect(item.paymentDue).toMatchObject({ amount: 35700 }); // suggested, not yet confirmed
  });

  it('a forged Factur-X (its total is not the sum of its lines) becomes a failed item naming the disagreement, and nothing is matched', async () => {
    const { booked } = await bankWith([{ amount: 1375.43, name: 'SEPA LIEFERWERK SCHMIDT LS-2026-0666' }]);
    const forged = supplierCii({ number: 'LS-2026-0666' })
      .replace(
        '<ram:SpecifiedTradeSettlementHeaderMonetarySummation><ram:LineTotalAmount>1074.30</ram:LineTotalAmount><ram:TaxBasisTotalAmount>1074.30</ram:TaxBasisTotalAmount><ram:TaxTotalAmount currencyID="EUR">201.13</ram:TaxTotalAmount><ram:GrandTotalAmount>1275.43</ram:GrandTotalAmount><ram:DuePayableAmount>1275.43',
        '<ram:SpecifiedTradeSettlementHeaderMonetarySummation><ram:LineTotalAmount>1174.30</ram:LineTotalAmount><ram:TaxBasisTotalAmount>1174.30</ram:TaxBasisTotalAmount><ram:TaxTotalAmount currencyID="EUR">201.13</ram:TaxTotalAmount><ram:GrandTotalAmount>1375.43</ram:GrandTotalAmount><ram:DuePayableAmount>1375.43',
      )
      .replace('<ram:BasisAmount>1049.40</ram:BasisAmount>', '<ram:BasisAmount>1149.40</ram:BasisAmount>');
    await mail('msg-forged', { name: 'forged.pdf', bytes: await facturXPdf(forged), type: 'application/pdf' });
    expect(await ingestion('msg-forged:forged.pdf')).toMatchObject({ stage: 'no_match' });
    const row = await stack.tdb.db('inbox_items').where({ reference: 'msg-forged:forged.pdf' }).first();
    expect((await json('GET', `/inbox/${row.id}`)).body.data).toMatchObject({
      status: 'failed',
      eInvoiceFormat: 'facturx',
      eInvoice: null,
      amount: null,
      paymentDue: null,
      documentStatus: 'failed',
      failureReason: 'E-invoice refused: the totals disagree: the sum of line nets 1074.30 is not the net total 1174.30 (BR-CO-10)',
    });
    expect(await stack.tdb.db('match_suggestions').where({ inboxItemId: row.id })).toEqual([]);
    expect((await json('GET', '/inbox?statuses=failed')).body.data.map((i: { id: string }) => i.id)).toEqual([row.id]);
    expect(booked[0].id).toBeTruthy();
  });

  it('an XML bomb or external entity by email is a failed item, never a crash', async () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE Invoice [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>&xxe;</ID></Invoice>`;
    await mail('msg-xxe', { name: 'invoice.xml', bytes: Buffer.from(xxe), type: 'text/xml' });
    expect(await ingestion('msg-xxe:invoice.xml')).toMatchObject({ stage: 'no_match' });
    const row = await stack.tdb.db('inbox_items').where({ reference: 'msg-xxe:invoice.xml' }).first();
    expect(row).toMatchObject({ status: 'failed', amount: null, failureReason: expect.stringMatching(/^E-invoice refused: .*DOCTYPE/) });
  });
});

describe('the VAT report', () => {
  it('takes input VAT from the received e-invoices at their exact breakdown, and a matched payment once, through its e-invoice', async () => {
    const teamId = stack.acme.team.id;
    await stack.tdb.db('teams').where({ id: teamId }).update({ baseCurrency: 'EUR' });
    // The matched payment, categorised at 19 %: on its own it would count 203.64 of VAT estimated from its gross.
    await stack.tdb
      .db('transaction_categories')
      .insert({ teamId, slug: 'hardware-rental', name: 'Hardware rental', taxRate: 19, taxType: 'vat' });
    await stack.tdb.db('transactions').where({ teamId, id: paidFacturX }).update({ categorySlug: 'hardware-rental', date: '2026-11-20' });
    // A supplier billing in dollars, with no stored rate for its date: listed, not counted.
    const dollars = supplierUbl({ number: 'LS-US-7', issueDate: '2026-11-05', currency: 'USD' });
    await mail('msg-usd', { name: 'LS-US-7.xml', bytes: Buffer.from(dollars), type: 'application/xml' });
    await ingestion('msg-usd:LS-US-7.xml');
    const usd = await stack.tdb.db('inbox_items').where({ reference: 'msg-usd:LS-US-7.xml' }).first();
    expect(usd).toMatchObject({ extractionMethod: 'e_invoice', currency: 'USD' });

    const { status, body } = await json('GET', '/reports/vat?from=2026-11-01&to=2026-11-30');
    expect(status).toBe(200);
    // LS-2026-0417 (7 %: 24.90 + 1.74; 19 %: 1049.40 + 199.39, its payment matched) and LS-2026-0502 (19 %: 300 + 57, unpaid); the forged one is not there.
    expect(body.data.input).toEqual({
      rates: [
        { rate: 19, net: 1349.4, vat: 256.39, documents: 2 },
        { rate: 7, net: 24.9, vat: 1.74, documents: 1 },
      ],
      net: 1374.3,
      vat: 258.13,
    });
    const unattributed = body.data.unattributed.items.map((i: { type: string; id: string; reason: string }) => [i.type, i.id, i.reason]);
    expect(unattributed).toContainEqual(['e_invoice', usd.id, 'no_exchange_rate']);
    expect(unattributed.some(([, id]: string[]) => id === paidFacturX)).toBe(false);
    expect(body.data.unattributed.items.find((i: { id: string }) => i.id === usd.id)).toMatchObject({ amount: -1275.43, currency: 'USD' });

    expect(body.data.countedTwice).toEqual({ count: 0, items: [] });

    // Unmatched, the payment counts by its category's rate beside the e-invoice: the match is what keeps the pair at once.
    const facturX = await stack.tdb.db('inbox_items').where({ teamId, reference: 'msg-fx:LS-2026-0417.pdf' }).first();
    // As an item arrives before its payment: pending, matched to nothing.
    await stack.tdb.db('inbox_items').where({ teamId, id: facturX.id }).update({ transactionId: null, status: 'pending' });
    const unmatched = (await json('GET', '/reports/vat?from=2026-11-01&to=2026-11-30')).body.data;
    expect(unmatched.input.rates[0]).toEqual({ rate: 19, net: 2421.19, vat: 460.03, documents: 3 });
    // …and the report names the pair, so the user can match it rather than file the VAT twice.
    expect(unmatched.countedTwice).toEqual({
      count: 1,
      items: [
        {
          inboxItemId: facturX.id,
          invoiceDate: facturX.eInvoice.issueDate,
          transactionId: paidFacturX,
          transactionDate: '2026-11-20',
          amount: -1275.43, // 24.90 + 1.74 + 1049.40 + 199.39
          currency: 'EUR',
        },
      ],
    });
    // The same pair seen from the next quarter, where only the payment falls: still named.
    await stack.tdb.db('transactions').where({ teamId, id: paidFacturX }).update({ date: '2026-12-03' });
    const next = (await json('GET', '/reports/vat?from=2026-12-01&to=2026-12-31')).body.data.countedTwice;
    expect(next.items.map((i: { transactionId: string }) => i.transactionId)).toEqual([paidFacturX]);

    expect((await json('POST', `/inbox/${facturX.id}/match`, { transactionId: paidFacturX })).status).toBe(200);
    expect((await json('GET', '/reports/vat?from=2026-12-01&to=2026-12-31')).body.data.countedTwice).toEqual({ count: 0, items: [] });
  });
});
