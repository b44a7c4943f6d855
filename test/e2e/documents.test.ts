import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Knex } from 'knex';
import { PROJECT_ROOT } from '../../shared/paths';
import { listDocuments } from '../../shared/domain/documents/service';
import { listDocumentsQuery } from '../../shared/domain/documents/schema';
import { withinTeam } from '../../shared/db/team-wall';
import { startDocumentSweep } from '../../api/outbox/document-sweep';
import { documentsLeftPending } from '../../shared/domain/documents/upload';
import { documentProcessingId, type DocumentProcessingWorkflow } from '../../shared/temporal/document-processing/contract';
import { receiptIngestionId, stageQuery, type ReceiptIngestionWorkflow } from '../../shared/temporal/receipt-ingestion/contract';
import { notificationsOf } from '../../shared/domain/notifications/service';
import { sendJson } from '../support/api';
import { eventually } from '../support/eventually';
import { planOf, withoutSequentialScans } from '../support/query-plan';
import { pdfReceipt } from '../fixtures/receipts';
import { createTeamAndOwner, insertApiKey } from '../support/fixtures';
import { withStack } from '../support/stack';
import { trpcAs, trpcError } from '../support/trpc';

/**
 * Documents over REST and tRPC with a real multipart client (undici's FormData), a real worker
 * processing what is uploaded, and the gateway's default limits (DOCUMENT_MAX_BYTES 25 MB).
 */
const MAX_BYTES = 25 * 1024 * 1024;
const stack = withStack('documents', () => ({ RECEIPT_DECISION_TIMEOUT: '30s' }));

type Doc = {
  id: string;
  name: string;
  mimeType: string;
  size: number;
  kind: string | null;
  processingStatus: string;
  duplicate?: boolean;
  tags: { id: string; name: string }[];
  inboxItemId: string | null;
  createdAt: string;
};

const form = (...files: [name: string, bytes: Buffer | string][]) => {
  const f = new FormData();
  for (const [name, bytes] of files) f.append('file', new Blob([bytes]), name);
  return f;
};
const upload = (body: FormData, token = stack.acme.sessionToken, query = '') =>
  stack.api.fetch(`/documents${query}`, { method: 'POST', token, body });
const json = (method: string, p: string, body?: unknown, token = stack.acme.sessionToken) => sendJson(stack.api, method, p, token, body);
const storedFiles = async () => {
  const dir = path.resolve(PROJECT_ROOT, stack.env.STORAGE_DIR, stack.acme.team.id);
  return readdir(dir).catch(() => [] as string[]);
};
const processed = (id: string) => stack.worker.client.workflow.getHandle<DocumentProcessingWorkflow>(documentProcessingId(id)).result();

describe('documents', () => {
  it('stores an upload once by content, processes it, and serves it back byte for byte', async () => {
    const text = 'Mutual non-disclosure agreement between the parties, hereinafter the Discloser. Effective date 2026-05-01.\n';
    const res = await upload(form(['NDA – Müller.txt', text]));
    expect(res.status).toBe(201);
    const [doc] = ((await res.json()) as { data: Doc[] }).data;
    expect(doc).toMatchObject({ name: 'NDA – Müller.txt', mimeType: 'text/plain', size: Buffer.byteLength(text), duplicate: false });

    const progress = await processed(doc.id);
    expect(progress).toMatchObject({ stage: 'completed', kind: 'contract', receiptWorkflowId: null });
    const got = (await (await json('GET', `/documents/${doc.id}`)).json()) as { data: Doc };
    expect(got.data).toMatchObject({ processingStatus: 'completed', kind: 'contract' });

    const again = await upload(form(['copy.txt', text]));
    expect(((await again.json()) as { data: Doc[] }).data[0]).toMatchObject({ id: doc.id, duplicate: true, name: 'NDA – Müller.txt' });
    expect(
      await stack.tdb.db('documents').where({ teamId: stack.acme.team.id, sha256: (got.data as unknown as { sha256: string }).sha256 }),
    ).toHaveLength(1);

    const file = await json('GET', `/documents/${doc.id}/file`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(file.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    // RFC 6266: an ASCII fallback (no raw Latin-1 letter, whose charset clients guess) and the UTF-8 name.
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="NDA _ Muller.txt"; filename*=UTF-8''NDA%20%E2%80%93%20M%C3%BCller.txt`,
    );
    expect(await file.text()).toBe(text);
  });

  it('refuses a 30 MB file with 413 and stores nothing of the request', async () => {
    const before = await storedFiles();
    const rows = await stack.tdb.db('documents').where({ teamId: stack.acme.team.id }).count<{ count: string }[]>();
    const res = await upload(
      form(['small.txt', 'fine\n'], ['big.pdf', Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(30 * 1024 * 1024)])]),
    );
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: 'Payload Too Large', description: `big.pdf is larger than ${MAX_BYTES} bytes` });
    expect(await storedFiles()).toEqual(before);
    expect(await stack.tdb.db('documents').where({ teamId: stack.acme.team.id }).count()).toEqual(rows);
  });

  it('detects the type from the content: an executable named .pdf is 415, and nothing is stored', async () => {
    const exe = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00', 'latin1'), Buffer.alloc(200)]);
    const before = await storedFiles();
    const res = await upload(form(['ok.csv', 'date,amount\n2026-01-01,3\n'], ['invoice.pdf', exe]));
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ error: 'Unsupported Media Type', description: expect.stringContaining('invoice.pdf') });
    expect(await storedFiles()).toEqual(before);
    // JSON where a form belongs is 415 as well.
    expect((await json('POST', '/documents', { file: 'x' })).status).toBe(415);
  });

  it('a PDF receipt uploaded here lands in the inbox matched to its transaction, as an emailed one does', async () => {
    const [tx] = await stack.tdb
      .db('transactions')
      .insert({ teamId: stack.acme.team.id, date: '2026-05-03', name: 'FIGMA', amount: -45, currency: 'EUR' })
      .returning('*');
    const pdf = await pdfReceipt({ merchant: 'Figma', date: '2026-05-03', items: [['Professional', 45]], vatRate: 19, currency: 'EUR' });
    const res = await upload(form(['figma.pdf', pdf]));
    const [doc] = ((await res.json()) as { data: Doc[] }).data;
    expect(doc.mimeType).toBe('application/pdf');
    const progress = await processed(doc.id);
    expect(progress).toMatchObject({
      stage: 'completed',
      kind: 'receipt',
      receiptWorkflowId: receiptIngestionId(stack.acme.team.id, `document:${doc.id}`),
    });
    const receipt = stack.worker.client.workflow.getHandle(progress.receiptWorkflowId!);
    await eventually(async () => (await receipt.query(stageQuery)).stage === 'awaiting_decision', 20_000, 'the receipt awaits a decision');
    const item = await stack.tdb.db('inbox_items').where({ teamId: stack.acme.team.id, documentId: doc.id }).first();
    expect(item).toMatchObject({ source: 'upload', amount: 45, currency: 'EUR' });
    const suggestion = await stack.tdb.db('match_suggestions').where({ inboxItemId: item.id }).first();
    expect(suggestion).toMatchObject({ transactionId: tx.id, status: 'pending' });
    const got = (await (await json('GET', `/documents/${doc.id}`)).json()) as { data: Doc };
    expect(got.data).toMatchObject({ kind: 'receipt', inboxItemId: item.id });
  });

  it('lists with search, filters and keyset pages, renames, retags and deletes', async () => {
    const tag = ((await (await json('POST', '/tags', { name: 'Legal' })).json()) as { data: { id: string } }).data.id;
    const uploaded: Doc[] = [];
    for (const n of [1, 2, 3]) {
      const res = await upload(form([`lease-${n}.txt`, `Lease contract number ${n} for the office, the parties agree.\n`]), undefined, '');
      uploaded.push(((await res.json()) as { data: Doc[] }).data[0]);
    }
    await Promise.all(uploaded.map((d) => processed(d.id)));
    const tagged = await json('PATCH', `/documents/${uploaded[0].id}`, { name: 'Office lease.txt', tags: [tag] });
    expect(((await tagged.json()) as { data: Doc }).data).toMatchObject({ name: 'Office lease.txt', tags: [{ id: tag, name: 'Legal' }] });

    const list = async (query: string) =>
      (await (await json('GET', `/documents?${query}`)).json()) as { data: Doc[]; meta: { cursor: string | null; hasNextPage: boolean } };
    expect((await list(`tags=${tag}`)).data.map((d) => d.id)).toEqual([uploaded[0].id]);
    expect((await list('q=legal')).data.map((d) => d.id)).toEqual([uploaded[0].id]); // by tag name
    expect((await list('q=lease')).data.map((d) => d.id).sort()).toEqual(uploaded.map((d) => d.id).sort()); // by text
    expect((await list('kinds=contract&mimeTypes=text/plain')).data.length).toBeGreaterThanOrEqual(3);
    expect((await list('statuses=failed')).data).toEqual([]);
    expect((await list('from=2999-01-01')).data).toEqual([]);
    // `to` takes the whole of its day (UTC): the day of the upload includes it, the day before does not.
    const day = uploaded[0].createdAt.slice(0, 10);
    const dayBefore = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    expect((await list(`to=${day}&q=lease`)).data.map((d) => d.id).sort()).toEqual(uploaded.map((d) => d.id).sort());
    expect((await list(`to=${dayBefore}`)).data).toEqual([]);
    expect((await list(`from=${day}&to=${day}&q=lease`)).data).toHaveLength(3);

    // Pages of one: a document added between pages is not seen twice, and none is skipped.
    const first = await list('q=lease&pageSize=1');
    expect(first.meta.hasNextPage).toBe(true);
    await upload(form(['lease-4.txt', 'Lease contract number 4, added between pages.\n']));
    const seen = [...first.data.map((d) => d.id)];
    let cursor = first.meta.cursor;
    while (cursor) {
      const next = await list(`q=lease&pageSize=1&cursor=${cursor}`);
      seen.push(...next.data.map((d) => d.id));
      cursor = next.meta.cursor;
    }
    expect(seen.slice().sort()).toEqual(uploaded.map((d) => d.id).sort());

    expect((await json('PATCH', `/documents/${uploaded[1].id}`, { tags: ['00000000-0000-4000-8000-000000000000'] })).status).toBe(400);
    expect((await json('PATCH', `/documents/${uploaded[1].id}`, {})).status).toBe(400);
    expect((await json('GET', '/documents?kinds=poster')).status).toBe(400);

    const deleted = await json('DELETE', `/documents/${uploaded[2].id}`);
    expect(deleted.status).toBe(204);
    expect((await json('GET', `/documents/${uploaded[2].id}`)).status).toBe(404);
    expect((await json('GET', `/documents/${uploaded[2].id}/file`)).status).toBe(404);
  });

  it('reads `q` outside the team wall and through the index of the words column (migration 0062)', async () => {
    const db = stack.tdb.db;
    const teamId = stack.acme.team.id;
    const queries: { sql: string; bindings: readonly unknown[]; connection: unknown }[] = [];
    const listen = (q: { sql: string; bindings?: readonly unknown[]; __knexUid: unknown }) =>
      queries.push({ sql: q.sql, bindings: q.bindings ?? [], connection: q.__knexUid });
    db.on('query', listen);
    try {
      await withinTeam(teamId, async () => {
        await db('documents').where({ teamId }).first(); // the request's connection, switched into the wall
        await listDocuments(db, teamId, listDocumentsQuery.parse({ q: 'lease' }));
      });
    } finally {
      db.removeListener('query', listen);
    }
    const listed = queries.find((q) => q.sql.includes('websearch_to_tsquery'))!;
    const lastSwitch = queries.filter((q) => q.connection === listed.connection && q.sql.includes("set_config('role'")).at(-1);
    expect(lastSwitch?.bindings[0]).toBe('none');

    // Among a few thousand documents, where the team's own index no longer looks cheaper than the words index.
    const plan = await withoutSequentialScans(db, async (trx) => {
      await trx.raw(
        `insert into documents (team_id, name, storage_key, mime_type, size, sha256, content)
         select ?, 'filler-' || g || '.txt', 'filler/' || g, 'text/plain', 1, md5(g::text), 'an ordinary note, number ' || g
           from generate_series(1, 5000) g`,
        [teamId],
      );
      await trx.raw('analyze documents');
      return planOf(trx, listed);
    });
    expect(plan).toContain('documents_search_idx');
  });

  it("another team's document is 404 everywhere; without the scope it is 403; tRPC serves the same service", async () => {
    const mine = ((await (await upload(form(['mine.txt', 'just a note\n']))).json()) as { data: Doc[] }).data[0];
    const other = await createTeamAndOwner(stack.tdb.db, 'Other');
    for (const [method, p] of [
      ['GET', `/documents/${mine.id}`],
      ['GET', `/documents/${mine.id}/file`],
      ['PATCH', `/documents/${mine.id}`],
      ['DELETE', `/documents/${mine.id}`],
    ] as const)
      expect((await json(method, p, method === 'PATCH' ? { name: 'x.txt' } : undefined, other.sessionToken)).status).toBe(404);
    expect(((await (await json('GET', '/documents', undefined, other.sessionToken)).json()) as { data: Doc[] }).data).toEqual([]);

    const readOnly = await insertApiKey(stack.tdb.db, { teamId: stack.acme.team.id, userId: stack.acme.user.id }, ['documents.read']);
    expect((await upload(form(['a.txt', 'a\n']), readOnly)).status).toBe(403);
    expect((await json('GET', `/documents/${mine.id}`, undefined, readOnly)).status).toBe(200);

    const trpc = trpcAs(stack.api, stack.acme.sessionToken);
    expect((await trpc.documents.getById.query({ id: mine.id })).name).toBe('mine.txt');
    const renamed = await trpc.documents.update.mutate({ id: mine.id, data: { name: 'renamed.txt' } });
    expect(renamed.name).toBe('renamed.txt');
    expect((await trpc.documents.get.query({ q: 'renamed' })).data.map((d) => d.id)).toContain(mine.id);
    await expect(trpcAs(stack.api, other.sessionToken).documents.getById.query({ id: mine.id })).rejects.toMatchObject({
      data: { httpStatus: 404 },
    });
    await expect(trpcAs(stack.api, other.sessionToken).documents.delete.mutate({ id: mine.id })).rejects.toMatchObject({
      data: { httpStatus: 404 },
    });
    await trpc.documents.delete.mutate({ id: mine.id });
    await expect(trpc.documents.getById.query({ id: mine.id })).rejects.toMatchObject({ data: { httpStatus: 404 } });
  });

  it('deleting the document behind an inbox item keeps the item; its file answers 404 saying it is gone', async () => {
    const pdf = await pdfReceipt({ merchant: 'Lonely Kiosk', date: '2024-01-09', items: [['Gum', 2.5]], vatRate: 19, currency: 'EUR' });
    const [doc] = ((await (await upload(form(['kiosk.pdf', pdf]))).json()) as { data: Doc[] }).data;
    const progress = await processed(doc.id);
    expect(progress.kind).toBe('receipt');
    const receipt = stack.worker.client.workflow.getHandle<ReceiptIngestionWorkflow>(progress.receiptWorkflowId!);
    expect((await receipt.result()).stage).toBe('no_match');
    const item = await stack.tdb.db('inbox_items').where({ teamId: stack.acme.team.id, documentId: doc.id }).first();
    expect((await json('GET', `/inbox/${item.id}/file`)).status).toBe(200);

    expect((await json('DELETE', `/documents/${doc.id}`)).status).toBe(204);
    const gone = await json('GET', `/inbox/${item.id}/file`);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({
      error: 'Not Found',
      description: `The file of inbox item ${item.id} is gone: its document was deleted`,
    });
    const kept = await json('GET', `/inbox/${item.id}`);
    expect(kept.status).toBe(200);
    expect((await kept.json()).data).toMatchObject({ id: item.id, displayName: 'Lonely Kiosk', amount: 2.5 });
  });

  it('an upload that cannot be read ends failed, with one document_unreadable notice however often it comes', async () => {
    const broken = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF cut off by the scanner');
    const [doc] = ((await (await upload(form(['broken-scan.pdf', broken]))).json()) as { data: Doc[] }).data;
    expect(await processed(doc.id)).toMatchObject({ stage: 'failed', kind: null, receiptWorkflowId: null });
    const got = ((await (await json('GET', `/documents/${doc.id}`)).json()) as { data: Doc }).data;
    expect(got).toMatchObject({ processingStatus: 'failed', processingError: expect.stringContaining('PDF') });
    // The same bytes again are the same failed document, not read (or reported) again.
    const [again] = ((await (await upload(form(['broken-again.pdf', broken]))).json()) as { data: Doc[] }).data;
    expect(again).toMatchObject({ id: doc.id, duplicate: true, processingStatus: 'failed' });
    const notices = (await notificationsOf(stack.tdb.db, stack.acme.team.id, 'document_unreadable')).filter(
      (n) => n.metadata.documentId === doc.id,
    );
    expect(notices).toEqual([expect.objectContaining({ metadata: expect.objectContaining({ name: 'broken-scan.pdf' }) })]);
  });

  it('a document an upload stored but never started (the API died, Temporal was away) is processed by the sweep', async () => {
    const db = stack.tdb.db;
    const teamId = stack.acme.team.id;
    const stored = async (name: string, text: string, age: string) => {
      const sha256 = createHash('sha256').update(text).digest('hex');
      const storageKey = `${teamId}/${sha256}.txt`;
      await stack.api.deps.storage.put(storageKey, Buffer.from(text));
      const [doc] = await db('documents')
        .insert({
          teamId,
          name,
          storageKey,
          mimeType: 'text/plain',
          size: Buffer.byteLength(text),
          sha256,
          processingStatus: 'pending',
          createdAt: db.raw('now() - ?::interval', [age]),
        })
        .returning<{ id: string }[]>('id');
      return doc.id;
    };
    const stranded = await stored('stranded.txt', 'Service agreement between the parties, left behind by a crashed upload.\n', '5 minutes');
    const onItsWay = await stored('on-its-way.txt', 'An upload that is still starting its processing.\n', '0 seconds');
    const sweep = startDocumentSweep(stack.api.deps, { intervalMs: 3_600_000, graceMs: 60_000 });
    try {
      expect(await sweep.runOnce()).toBeGreaterThanOrEqual(1);
      await sweep.runOnce(); // a second start (another process, the next pass) finds the first run
    } finally {
      await sweep.stop();
    }
    expect(await processed(stranded)).toMatchObject({ stage: 'completed', kind: 'contract' });
    expect(await db('documents').where({ id: stranded }).first()).toMatchObject({ processingStatus: 'completed' });
    const runs = [];
    for await (const w of stack.worker.client.workflow.list({ query: `WorkflowId = '${documentProcessingId(stranded)}'` })) runs.push(w);
    expect(runs).toHaveLength(1);
    // Within the grace period the upload itself is still expected to start it.
    await expect(stack.worker.client.workflow.getHandle(documentProcessingId(onItsWay)).describe()).rejects.toThrow('not found');
    await db('documents').where({ id: onItsWay }).delete();

    // Each pass of every API process reads the partial index of pending documents (migration 0079), not the table.
    const seen: { sql: string; bindings: readonly Knex.RawBinding[] }[] = [];
    const listen = (q: { sql: string; bindings?: readonly Knex.RawBinding[] }) => seen.push({ sql: q.sql, bindings: q.bindings ?? [] });
    db.on('query', listen);
    await documentsLeftPending(db, { graceMs: 60_000, limit: 100 });
    db.off('query', listen);
    const plan = await withoutSequentialScans(db, (trx) => planOf(trx, seen[0]));
    expect(plan).toContain('documents_pending_idx');
  });

  it('answers 400 for bad input and 403 without the scope over tRPC, changing nothing', async () => {
    const trpc = trpcAs(stack.api, stack.acme.sessionToken);
    const [mine] = ((await (await upload(form(['scoped.txt', 'a note about scopes\n']))).json()) as { data: Doc[] }).data;
    expect(await trpcError(trpc.documents.getById.query({ id: 'not-a-uuid' }))).toMatchObject({
      httpStatus: 400,
      details: [expect.objectContaining({ field: 'id' })],
    });
    expect(await trpcError(trpc.documents.get.query({ from: '2026-02-30' }))).toMatchObject({
      httpStatus: 400,
      details: [expect.objectContaining({ field: 'from' })],
    });
    expect(await trpcError(trpc.documents.update.mutate({ id: mine.id, data: {} }))).toMatchObject({ httpStatus: 400 });
    expect(await trpcError(trpc.documents.update.mutate({ id: mine.id, data: { name: '   ' } }))).toMatchObject({
      httpStatus: 400,
      details: [expect.objectContaining({ field: 'data.name' })],
    });

    const owner = { teamId: stack.acme.team.id, userId: stack.acme.user.id };
    const reader = trpcAs(stack.api, await insertApiKey(stack.tdb.db, owner, ['documents.read']));
    expect((await reader.documents.getById.query({ id: mine.id })).id).toBe(mine.id);
    for (const call of [
      reader.documents.update.mutate({ id: mine.id, data: { name: 'read-only.txt' } }),
      reader.documents.delete.mutate({ id: mine.id }),
      reader.documents.uploadUrl.mutate(),
    ])
      expect(await trpcError(call)).toMatchObject({ httpStatus: 403, error: 'Forbidden' });
    const stranger = trpcAs(stack.api, await insertApiKey(stack.tdb.db, owner, ['tags.read']));
    for (const call of [stranger.documents.get.query({}), stranger.documents.getById.query({ id: mine.id })])
      expect(await trpcError(call)).toMatchObject({ httpStatus: 403, error: 'Forbidden' });
    expect(await stack.tdb.db('documents').where({ id: mine.id }).first()).toMatchObject({ name: 'scoped.txt', deletedAt: null });
  });

  it("the team's own sales invoice is kept as an invoice but not matched against its spending; a supplier's invoice is", async () => {
    const invoiceFrom = async (token: string, customerName: string) => {
      const customer = ((await (await json('POST', '/customers', { name: customerName }, token)).json()) as { data: { id: string } }).data;
      const lineItems = [{ name: 'Consulting', quantity: 2, price: 400, vatRate: 19 }];
      const created = await json(
        'POST',
        '/invoices',
        { customerId: customer.id, currency: 'EUR', issueDate: '2026-06-01', lineItems },
        token,
      );
      const { id } = ((await created.json()) as { data: { id: string } }).data;
      // Issued, so its PDF carries its number.
      const issued = await json('POST', `/invoices/${id}/finalize`, {}, token);
      const invoice = ((await issued.json()) as { data: { id: string; invoiceNumber: string } }).data;
      const pdf = Buffer.from(await (await stack.api.fetch(`/invoices/${invoice.id}/pdf`, { token })).arrayBuffer());
      return { invoiceNumber: invoice.invoiceNumber, pdf };
    };
    const uploaded = async (name: string, bytes: Buffer | string) => {
      const [doc] = ((await (await upload(form([name, bytes]))).json()) as { data: Doc[] }).data;
      return { doc, progress: await processed(doc.id) };
    };
    const supplier = await createTeamAndOwner(stack.tdb.db, 'Harbour Supplies');
    const ours = await invoiceFrom(stack.acme.sessionToken, 'Nordwind Müller GmbH');
    // The supplier numbers its invoices as Acme does, and bills Acme by name.
    const theirs = await invoiceFrom(supplier.sessionToken, 'Acme');
    expect(theirs.invoiceNumber).toBe(ours.invoiceNumber);

    // Recognised by its number together with its customer.
    const own = await uploaded('our-invoice.pdf', ours.pdf);
    expect(own.progress).toMatchObject({ stage: 'completed', kind: 'invoice', receiptWorkflowId: null });
    expect(await stack.tdb.db('inbox_items').where({ documentId: own.doc.id })).toEqual([]);
    // Recognised by the team's own bank account, written elsewhere under a number the app never gave.
    await json('PATCH', '/teams/current', { invoicePaymentDetails: 'IBAN DE89 3704 0044 0532 0130 00, BIC COBADEFFXXX' });
    const elsewhere = await uploaded(
      'invoice-2025-117.txt',
      'Acme\nInvoice number 2025-117\nBill to: Quay Logistics Ltd\nDue date 2025-12-01\nPay to IBAN DE89370400440532013000\n',
    );
    expect(elsewhere.progress).toMatchObject({ kind: 'invoice', receiptWorkflowId: null });

    const bought = await uploaded('supplier-invoice.pdf', theirs.pdf);
    expect(bought.progress).toMatchObject({
      kind: 'invoice',
      receiptWorkflowId: receiptIngestionId(stack.acme.team.id, `document:${bought.doc.id}`),
    });
  });

  it('tRPC hands out a short-lived signed URL that uploads without a bearer, for that team only', async () => {
    const trpc = trpcAs(stack.api, stack.acme.sessionToken);
    const signed = await trpc.documents.uploadUrl.mutate();
    expect(signed).toMatchObject({ method: 'POST', maxBytes: MAX_BYTES });
    const res = await stack.api.fetch(signed.url, { method: 'POST', body: form(['via-url.txt', 'uploaded through a signed URL\n']) });
    expect(res.status).toBe(201);
    const [doc] = ((await res.json()) as { data: Doc[] }).data;
    expect(await stack.tdb.db('documents').where({ id: doc.id }).first()).toMatchObject({
      teamId: stack.acme.team.id,
      createdBy: stack.acme.user.id,
    });
    // A character inside the signature: the last one of a base64url signature carries padding bits, and
    // changing only those leaves the signature as it was.
    const at = signed.url.length - 5;
    const tampered = `${signed.url.slice(0, at)}${signed.url[at] === 'A' ? 'B' : 'A'}${signed.url.slice(at + 1)}`;
    expect((await stack.api.fetch(tampered, { method: 'POST', body: form(['x.txt', 'x\n']) })).status).toBe(401);
    // The URL only uploads: it is no credential for anything else.
    expect((await stack.api.fetch(signed.url.replace('/documents?', '/documents/' + doc.id + '?'), {})).status).toBe(401);
  });
});
