import { existsSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../shared/paths';
import { startS3Fake } from '../fakes/s3';
import { pdfReceipt } from '../fixtures/receipts';
import { withStack } from '../support/stack';
import { receiptIngestionId, type ReceiptIngestionWorkflow } from '../../shared/temporal/receipt-ingestion/contract';

const STORAGE_DIR = `.data/test-storage-s3-${process.pid}`;
let s3: Awaited<ReturnType<typeof startS3Fake>>;

beforeAll(async () => {
  s3 = await startS3Fake();
});
afterAll(() => s3?.close());
const stack = withStack('s3', () => ({
  ...s3.env,
  INBOX_WEBHOOK_USERNAME: 'inbox',
  INBOX_WEBHOOK_PASSWORD: 'mail-secret',
  INBOX_DOMAIN: 'in.example.com',
  STORAGE_DIR,
  RECEIPT_DECISION_TIMEOUT: '2s',
}));

describe('receipts with documents in an S3-compatible store', () => {
  it('stores an emailed PDF in the bucket and serves it back from there', async () => {
    const pdf = await pdfReceipt({ merchant: 'Hetzner', date: '2026-05-02', items: [['Server', 40]], vatRate: 19, currency: 'EUR' });
    const res = await stack.api.fetch('/webhook/inbox', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from('inbox:mail-secret').toString('base64')}` },
      body: JSON.stringify({
        MessageID: 'msg-s3',
        OriginalRecipient: `${stack.acme.team.inboxId}@in.example.com`,
        FromFull: { Email: 'billing@hetzner.example', Name: 'Hetzner' },
        Subject: 'Invoice',
        Attachments: [{ Name: 'invoice.pdf', Content: pdf.toString('base64'), ContentType: 'application/pdf', ContentLength: pdf.length }],
      }),
    });
    expect(res.status).toBe(200);
    const result = await stack.worker.client.workflow
      .getHandle<ReceiptIngestionWorkflow>(receiptIngestionId(stack.acme.team.id, 'msg-s3:invoice.pdf'))
      .result();

    const item = await stack.tdb.db('inbox_items').where({ teamId: stack.acme.team.id, reference: 'msg-s3:invoice.pdf' }).first();
    expect(item.id).toBe(result.inboxItemId);
    const doc = await stack.tdb.db('documents').where({ teamId: stack.acme.team.id, id: item.documentId }).first();
    expect(s3.objects.get(doc.storageKey)).toEqual(pdf);
    expect(existsSync(path.resolve(PROJECT_ROOT, STORAGE_DIR))).toBe(false);

    const file = await stack.api.fetch(`/inbox/${item.id}/file`, { token: stack.acme.sessionToken });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(pdf);
    expect(s3.requests.at(-1)).toMatchObject({ method: 'GET', key: doc.storageKey, status: 200 });
  });

  it('answers 404 when the stored object has gone from the bucket', async () => {
    const item = await stack.tdb.db('inbox_items').where({ teamId: stack.acme.team.id, reference: 'msg-s3:invoice.pdf' }).first();
    const doc = await stack.tdb.db('documents').where({ id: item.documentId }).first();
    s3.objects.delete(doc.storageKey);
    const file = await stack.api.fetch(`/inbox/${item.id}/file`, { token: stack.acme.sessionToken });
    expect(file.status).toBe(404);
    expect((await file.json()).description).toBe(`The file of inbox item ${item.id} is missing from storage`);
  });
});
