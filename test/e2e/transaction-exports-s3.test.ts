import JSZip from 'jszip';
import { startS3Fake } from '../fakes/s3';
import { eventuallyValue } from '../support/eventually';
import { withStack } from '../support/stack';
import type { UntypedJson } from '../support/untyped-json';

let s3: Awaited<ReturnType<typeof startS3Fake>>;
beforeAll(async () => {
  s3 = await startS3Fake();
});
afterAll(() => s3?.close());
const stack = withStack('exports-s3', () => ({ ...s3.env }));

describe('transaction exports with documents in an S3-compatible store', () => {
  it('streams the receipts out of the bucket into the ZIP and keeps the ZIP in the bucket', async () => {
    const teamId = stack.acme.team.id;
    const [tx] = await stack.tdb
      .db('transactions')
      .insert({ teamId, date: '2026-05-02', name: 'Hetzner', amount: -40, currency: 'EUR' })
      .returning<{ id: string }[]>('id');
    const receipt = Buffer.from('%PDF-1.4 hetzner invoice');
    await stack.api.deps.storage.put(`${teamId}/hetzner.pdf`, receipt);
    const [attachment] = await stack.tdb
      .db('transaction_attachments')
      .insert({
        teamId,
        transactionId: tx.id,
        name: 'invoice.pdf',
        mimeType: 'application/pdf',
        size: receipt.length,
        storageKey: `${teamId}/hetzner.pdf`,
      })
      .returning<{ id: string }[]>('id');

    const res = await stack.api.fetch('/transactions/export', {
      method: 'POST',
      token: stack.acme.sessionToken,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ formats: ['receipts'] }),
    });
    expect(res.status).toBe(202);
    const { id } = (await res.json()).data;
    const done: UntypedJson = await eventuallyValue(
      async () => {
        const e = (await (await stack.api.fetch(`/transactions/exports/${id}`, { token: stack.acme.sessionToken })).json()).data;
        return e.status === 'completed' ? e : undefined;
      },
      60_000,
      'the export to complete',
    );
    expect(done).toMatchObject({ rowsWritten: 1, receiptsWritten: 1 });
    const doc = await stack.tdb.db('documents').where({ id: done.documentId }).first();
    const zipBytes = s3.objects.get(doc.storageKey);
    expect(zipBytes).toBeDefined();
    const zip = await JSZip.loadAsync(zipBytes!);
    const inZip = `receipts/2026-05-02_${attachment.id.slice(0, 8)}_invoice.pdf`;
    expect(Object.keys(zip.files)).toEqual([inZip]);
    expect(await zip.file(inZip)!.async('nodebuffer')).toEqual(receipt);
  });
});
