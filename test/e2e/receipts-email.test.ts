import { pdfReceipt, photoReceipt } from '../fixtures/receipts';
import { withStack } from '../support/stack';
import { upsertRates } from '../../shared/domain/exchange-rates/service';
import { notificationsOf } from '../../shared/domain/notifications/service';
import { receiptIngestionId, type ReceiptIngestionWorkflow } from '../../shared/temporal/receipt-ingestion/contract';

const AUTH = `Basic ${Buffer.from('inbox:mail-secret').toString('base64')}`;
const stack = withStack('email', () => ({
  INBOX_WEBHOOK_USERNAME: 'inbox',
  INBOX_WEBHOOK_PASSWORD: 'mail-secret',
  INBOX_DOMAIN: 'in.example.com',
  RECEIPT_DECISION_TIMEOUT: '2s',
}));

const inbound = (overrides: Record<string, unknown>, auth = AUTH) =>
  stack.api.fetch('/webhook/inbox', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: auth },
    body: JSON.stringify({
      MessageID: 'msg-1',
      OriginalRecipient: `${stack.acme.team.inboxId}@in.example.com`,
      FromFull: { Email: 'vendor@example.org', Name: 'Vendor' },
      Subject: 'Your receipt',
      Attachments: [],
      ...overrides,
    }),
  });

describe('receipts by email (Postmark inbound)', () => {
  it('turns each supported attachment into a matched inbox item', async () => {
    const [tx] = await stack.tdb
      .db('transactions')
      .insert({ teamId: stack.acme.team.id, date: '2026-04-20', name: 'GITHUB', amount: -21, currency: 'EUR' })
      .returning('*');
    const pdf = await pdfReceipt({ merchant: 'GitHub', date: '2026-04-20', items: [['Team plan', 21]], vatRate: 19, currency: 'EUR' });
    const res = await inbound({
      MessageID: 'msg-github',
      Attachments: [
        { Name: 'receipt.pdf', Content: pdf.toString('base64'), ContentType: 'application/pdf', ContentLength: pdf.length },
        { Name: 'notes.txt', Content: Buffer.from('hi').toString('base64'), ContentType: 'text/plain', ContentLength: 2 },
      ],
    });
    expect(res.status).toBe(200);
    const result = await stack.worker.client.workflow
      .getHandle<ReceiptIngestionWorkflow>(receiptIngestionId(stack.acme.team.id, 'msg-github:receipt.pdf'))
      .result();
    expect(result.stage).toBe('expired'); // no chat to answer in: the suggestion waits in the inbox until the timeout
    const item = await stack.tdb.db('inbox_items').where({ teamId: stack.acme.team.id, reference: 'msg-github:receipt.pdf' }).first();
    expect(item).toMatchObject({ source: 'email', sender: 'vendor@example.org', amount: 21 });
    expect(await stack.tdb.db('match_suggestions').where({ inboxItemId: item.id }).first()).toMatchObject({ transactionId: tx.id });
    expect(await stack.tdb.db('inbox_items').where({ reference: 'msg-github:notes.txt' })).toHaveLength(0);
    // A new receipt with a suggestion waits for a decision: the team hears of it on arrival, not only after a sync.
    expect(await notificationsOf(stack.tdb.db, stack.acme.team.id, 'inbox_needs_review')).toEqual([
      expect.objectContaining({ metadata: { inboxItemId: item.id, transactionId: tx.id } }),
    ]);
  });

  it('with auto-match turned on for the team, a near-certain photo receipt is linked without asking', async () => {
    const patch = (body: unknown) =>
      stack.api.fetch('/teams/current', {
        method: 'PATCH',
        token: stack.acme.sessionToken,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const bad = await patch({ autoMatch: true, baseCurrency: 'euro' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).details).toEqual([expect.objectContaining({ field: 'baseCurrency' })]);
    expect((await stack.tdb.db('teams').where({ id: stack.acme.team.id }).first()).autoMatch).toBe(false); // nothing changed
    const ok = await patch({ autoMatch: true, baseCurrency: 'EUR' });
    expect((await ok.json()).data).toMatchObject({
      id: stack.acme.team.id,
      autoMatch: true,
      baseCurrency: 'EUR',
      inboxId: stack.acme.team.inboxId,
    });

    const [tx] = await stack.tdb
      .db('transactions')
      .insert({ teamId: stack.acme.team.id, date: '2026-05-02', name: 'SUNRISE BAKERY', amount: -8.7, currency: 'EUR' })
      .returning('*');
    const jpeg = await photoReceipt(
      {
        merchant: 'Sunrise Bakery',
        date: '2026-05-02',
        items: [
          ['Bread', 4.2],
          ['Croissants', 4.5],
        ],
        vatRate: 7,
        currency: 'EUR',
      },
      'image/jpeg',
    );
    await inbound({
      MessageID: 'msg-bakery',
      Attachments: [{ Name: 'IMG_0042.jpg', Content: jpeg.toString('base64'), ContentType: 'image/jpeg', ContentLength: jpeg.length }],
    });
    const result = await stack.worker.client.workflow
      .getHandle<ReceiptIngestionWorkflow>(receiptIngestionId(stack.acme.team.id, 'msg-bakery:IMG_0042.jpg'))
      .result();
    expect(result).toMatchObject({ stage: 'auto_matched', transactionId: tx.id });
    const item = await stack.tdb.db('inbox_items').where({ reference: 'msg-bakery:IMG_0042.jpg' }).first();
    expect(item).toMatchObject({ status: 'done', transactionId: tx.id, amount: 8.7, displayName: 'Sunrise Bakery' });
    expect(await stack.tdb.db('match_suggestions').where({ inboxItemId: item.id }).first()).toMatchObject({
      status: 'confirmed',
      matchType: 'auto_matched',
      decidedVia: 'auto',
    });
    expect(await stack.tdb.db('transaction_attachments').where({ transactionId: tx.id }).first()).toMatchObject({
      mimeType: 'image/jpeg',
      size: jpeg.length,
    });
    expect(await notificationsOf(stack.tdb.db, stack.acme.team.id, 'receipt_matched')).toEqual([
      expect.objectContaining({ metadata: { inboxItemId: item.id, transactionId: tx.id } }),
    ]);
  });

  it('a receipt in dollars is suggested for the euro card payment by its converted amount (never auto-linked)', async () => {
    await upsertRates(stack.tdb.db, [{ date: '2026-03-13', currency: 'USD', rate: 1.09 }], 'test');
    // 54.50 USD at 1.09 is 50.00 EUR; the card was charged 50.90 EUR with the scheme's fee.
    const [tx] = await stack.tdb
      .db('transactions')
      .insert({ teamId: stack.acme.team.id, date: '2026-03-16', name: 'FIGMA SAN FRANCISCO', amount: -50.9, currency: 'EUR' })
      .returning('*');
    const pdf = await pdfReceipt({
      merchant: 'Figma',
      date: '2026-03-15',
      items: [['Professional plan', 54.5]],
      vatRate: 0,
      currency: 'USD',
    });
    await inbound({
      MessageID: 'msg-figma',
      Attachments: [{ Name: 'figma.pdf', Content: pdf.toString('base64'), ContentType: 'application/pdf', ContentLength: pdf.length }],
    });
    const result = await stack.worker.client.workflow
      .getHandle<ReceiptIngestionWorkflow>(receiptIngestionId(stack.acme.team.id, 'msg-figma:figma.pdf'))
      .result();
    expect(result).toMatchObject({ stage: 'expired', transactionId: tx.id }); // auto-match is on for the team, yet a converted match asks
    const item = await stack.tdb.db('inbox_items').where({ reference: 'msg-figma:figma.pdf' }).first();
    expect(item).toMatchObject({ amount: 54.5, currency: 'USD' });
    expect(await stack.tdb.db('match_suggestions').where({ inboxItemId: item.id }).first()).toMatchObject({
      transactionId: tx.id,
      matchType: 'suggested',
      currencyScore: 0.6,
    });
  });

  it('keeps a PDF it cannot read: listed for manual entry, its document marked failed', async () => {
    const broken = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF truncated by the mail client');
    await inbound({
      MessageID: 'msg-broken',
      Attachments: [{ Name: 'scan.pdf', Content: broken.toString('base64'), ContentType: 'application/pdf', ContentLength: broken.length }],
    });
    const result = await stack.worker.client.workflow
      .getHandle<ReceiptIngestionWorkflow>(receiptIngestionId(stack.acme.team.id, 'msg-broken:scan.pdf'))
      .result();
    expect(result.stage).toBe('no_match');
    const item = await stack.tdb.db('inbox_items').where({ reference: 'msg-broken:scan.pdf' }).first();
    expect(item).toMatchObject({ status: 'no_match', amount: null, extractionMethod: null });
    expect(await stack.tdb.db('documents').where({ id: item.documentId }).first()).toMatchObject({
      processingStatus: 'failed',
      size: broken.length,
    });
    const listed = (await (await stack.api.fetch(`/inbox/${item.id}`, { token: stack.acme.sessionToken })).json()).data;
    expect(listed).toMatchObject({ status: 'no_match', documentStatus: 'failed', extractionMethod: null });
  });

  it('answers 404 for an unknown inbox, 401 for wrong credentials, and drops our own mail', async () => {
    const unknown = await inbound({ OriginalRecipient: 'nobody123@in.example.com' });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toBe('Not Found');
    expect((await inbound({}, `Basic ${Buffer.from('inbox:wrong').toString('base64')}`)).status).toBe(401);
    const pdf = await pdfReceipt({ merchant: 'Loop', date: '2026-01-01', items: [['x', 1]], vatRate: 19, currency: 'EUR' });
    const loop = await inbound({
      MessageID: 'msg-loop',
      FromFull: { Email: 'no-reply@finops.local' },
      Attachments: [{ Name: 'a.pdf', Content: pdf.toString('base64'), ContentType: 'application/pdf' }],
    });
    expect(loop.status).toBe(200);
    expect(await stack.tdb.db('inbox_items').where({ reference: 'msg-loop:a.pdf' })).toHaveLength(0);
  });
});
