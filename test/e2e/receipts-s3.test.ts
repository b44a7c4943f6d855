import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_ROOT } from '../../shared/paths';
import { startS3Fake } from '../fakes/s3';
import { pdfReceipt } from '../fixtures/receipts';
import { startTestApi, testConfig, type TestApi } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createTeamAndOwner } from '../support/fixtures';
import { startTestWorker, uniqueTaskQueue, type TestWorker } from '../support/worker';

let tdb: TestDatabase;
let s3: Awaited<ReturnType<typeof startS3Fake>>;
let api: TestApi;
let worker: TestWorker;
let acme: Awaited<ReturnType<typeof createTeamAndOwner>>;
const STORAGE_DIR = `.data/test-storage-s3-${process.pid}`;

beforeAll(async () => {
  tdb = await createTestDatabase();
  s3 = await startS3Fake();
  const env = { ...s3.env, INBOX_WEBHOOK_USERNAME: 'inbox', INBOX_WEBHOOK_PASSWORD: 'mail-secret', INBOX_DOMAIN: 'in.example.com', TEMPORAL_TASK_QUEUE: uniqueTaskQueue('s3'), STORAGE_DIR, RECEIPT_DECISION_TIMEOUT: '2s' };
  api = await startTestApi(tdb.db, { env });
  worker = await startTestWorker(testConfig(env), tdb.db);
  acme = await createTeamAndOwner(tdb.db, 'Acme');
});
afterAll(async () => {
  await worker?.stop();
  await api?.stop();
  await s3?.close();
  await tdb?.drop();
  await rm(path.resolve(PROJECT_ROOT, STORAGE_DIR), { recursive: true, force: true });
});

describe('receipts with documents in an S3-compatible store', () => {
  it('stores an emailed PDF in the bucket and serves it back from there', async () => {
    const pdf = await pdfReceipt({ merchant: 'Hetzner', date: '2026-05-02', items: [['Server', 40]], vatRate: 19, currency: 'EUR' });
    const res = await api.fetch('/webhook/inbox', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from('inbox:mail-secret').toString('base64')}` },
      body: JSON.stringify({
        MessageID: 'msg-s3',
        OriginalRecipient: `${acme.team.inboxId}@in.example.com`,
        FromFull: { Email: 'billing@hetzner.example', Name: 'Hetzner' },
        Subject: 'Invoice',
        Attachments: [{ Name: 'invoice.pdf', Content: pdf.toString('base64'), ContentType: 'application/pdf', ContentLength: pdf.length }],
      }),
    });
    expect(res.status).toBe(200);
    const result: any = await worker.client.workflow.getHandle(`receipt:${acme.team.id}:msg-s3:invoice.pdf`).result();

    const item = await tdb.db('inbox_items').where({ teamId: acme.team.id, reference: 'msg-s3:invoice.pdf' }).first();
    expect(item.id).toBe(result.inboxItemId);
    const doc = await tdb.db('documents').where({ teamId: acme.team.id, id: item.documentId }).first();
    expect(s3.objects.get(doc.storageKey)).toEqual(pdf);
    expect(existsSync(path.resolve(PROJECT_ROOT, STORAGE_DIR))).toBe(false);

    const file = await api.fetch(`/inbox/${item.id}/file`, { token: acme.sessionToken });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(pdf);
    expect(s3.requests.at(-1)).toMatchObject({ method: 'GET', key: doc.storageKey, status: 200 });
  });

  it('answers 404 when the stored object has gone from the bucket', async () => {
    const item = await tdb.db('inbox_items').where({ teamId: acme.team.id, reference: 'msg-s3:invoice.pdf' }).first();
    const doc = await tdb.db('documents').where({ id: item.documentId }).first();
    s3.objects.delete(doc.storageKey);
    const file = await api.fetch(`/inbox/${item.id}/file`, { token: acme.sessionToken });
    expect(file.status).toBe(404);
    expect((await file.json()).description).toBe(`The file of inbox item ${item.id} is missing from storage`);
  });
});
