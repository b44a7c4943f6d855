import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { parse } from 'csv-parse/sync';
import { notificationsOf } from '../../shared/domain/notifications/service';
import { exportTransactionsProgress } from '../../shared/temporal/export-transactions/contract';
import { startSmtpSink, type SmtpSink } from '../fakes/smtp-sink';
import { sendJson } from '../support/api';
import { eventuallyValue } from '../support/eventually';
import { createTeamAndOwner, insertApiKey, insertTransactions } from '../support/fixtures';
import { withStack } from '../support/stack';
import { trpcAs, trpcError } from '../support/trpc';
import type { UntypedJson } from '../support/untyped-json';

let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink();
});
afterAll(() => smtp?.close());

const stack = withStack('exports', () => ({ SMTP_URL: smtp.url, PUBLIC_URL: 'https://finops.example' }));
type Owner = Awaited<ReturnType<typeof createTeamAndOwner>>;
let other: Owner;
const OTHER_MARKER = 'OTHER-PRIVATE';
const RECEIPT_PDF = Buffer.from('%PDF-1.4 receipt one');
const RECEIPT_PNG = Buffer.from('\x89PNG receipt two');

const send = (method: string, path: string, token: string, body?: unknown) => sendJson(stack.api, method, path, token, body);

async function seedTransaction(teamId: string, row: Record<string, unknown>): Promise<string> {
  const [t] = await stack.tdb
    .db('transactions')
    .insert({ teamId, currency: 'EUR', manual: true, ...row })
    .returning<{ id: string }[]>('id');
  return t.id;
}

async function attach(teamId: string, transactionId: string, name: string, bytes: Buffer | null, mimeType: string): Promise<string> {
  const storageKey = `${teamId}/${name}-${transactionId}`;
  // null: an attachment whose file was deleted from storage since.
  if (bytes) await stack.api.deps.storage.put(storageKey, bytes);
  const [a] = await stack.tdb
    .db('transaction_attachments')
    .insert({ teamId, transactionId, name, mimeType, size: bytes?.length ?? 1, storageKey })
    .returning<{ id: string }[]>('id');
  return a.id;
}

/** Polls the export until it has finished, and returns it. */
async function finished(id: string, token: string): Promise<UntypedJson> {
  return eventuallyValue(
    async () => {
      const body = await (await send('GET', `/transactions/exports/${id}`, token)).json();
      return body.data.status === 'completed' || body.data.status === 'failed' ? body.data : undefined;
    },
    60_000,
    'the export to finish',
  );
}

async function downloadZip(documentId: string, token: string): Promise<JSZip> {
  const res = await stack.api.fetch(`/documents/${documentId}/file`, { token });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/zip');
  return JSZip.loadAsync(Buffer.from(await res.arrayBuffer()));
}

const csvRecords = async (zip: JSZip) =>
  parse<Record<string, string>>(await zip.file('transactions.csv')!.async('nodebuffer'), { bom: true, columns: true });

const ids: Record<string, string> = {};
beforeAll(async () => {
  const acme = stack.acme.team.id;
  other = await createTeamAndOwner(stack.tdb.db, 'Other');
  await stack.tdb.db('transaction_categories').insert([
    { teamId: acme, slug: 'office', name: 'Office supplies' },
    { teamId: acme, slug: 'travel', name: 'Travel' },
    { teamId: other.team.id, slug: 'office', name: 'Office (Other)' },
  ]);
  const [tag] = await stack.tdb.db('tags').insert({ teamId: acme, name: 'Q1' }).returning<{ id: string }[]>('id');
  ids.paper = await seedTransaction(acme, {
    date: '2026-03-10',
    name: 'Paper & Co',
    amount: -42.5,
    categorySlug: 'office',
    taxAmount: 6.79,
    taxRate: 19,
  });
  await stack.tdb.db('transaction_tags').insert({ teamId: acme, transactionId: ids.paper, tagId: tag.id });
  ids.ink = await seedTransaction(acme, { date: '2026-03-05', name: 'Printer "Ink", Ltd', amount: -120.99, categorySlug: 'office' });
  ids.refund = await seedTransaction(acme, { date: '2026-03-01', name: '=HYPERLINK("x")', amount: 1000, categorySlug: 'office' });
  // Not selected: another category, outside the dates, excluded.
  await seedTransaction(acme, { date: '2026-03-20', name: 'Train', amount: -3000, currency: 'JPY', categorySlug: 'travel' });
  await seedTransaction(acme, { date: '2026-02-27', name: 'February paper', amount: -10, categorySlug: 'office' });
  await seedTransaction(acme, { date: '2026-03-15', name: 'Hidden', amount: -5, categorySlug: 'office', status: 'excluded' });
  ids.paperReceipt = await attach(acme, ids.paper, 'receipt one.pdf', RECEIPT_PDF, 'application/pdf');
  ids.inkReceipt = await attach(acme, ids.ink, 'ink.png', RECEIPT_PNG, 'image/png');
  await attach(acme, ids.refund, 'gone.pdf', null, 'application/pdf');
  // The other team's row matches the same filter in its own books.
  ids.otherTx = await seedTransaction(other.team.id, { date: '2026-03-12', name: OTHER_MARKER, amount: -77, categorySlug: 'office' });
  await attach(other.team.id, ids.otherTx, 'other.pdf', Buffer.from(OTHER_MARKER), 'application/pdf');
});

describe('transaction exports', () => {
  let exported: UntypedJson;

  it('writes exactly the filtered rows to CSV and XLSX, zips the receipts, notifies and mails the accountant once', async () => {
    const res = await send('POST', '/transactions/export', stack.acme.sessionToken, {
      filter: { from: '2026-03-01', to: '2026-03-31', categories: ['office'] },
      email: 'accountant@example.com',
    });
    expect(res.status).toBe(202);
    const started = (await res.json()).data;
    expect(started).toMatchObject({
      status: 'pending',
      formats: ['csv', 'xlsx', 'receipts'],
      email: 'accountant@example.com',
      documentId: null,
    });
    expect(started.workflowId).toBe(`export:${started.id}`);

    exported = await finished(started.id, stack.acme.sessionToken);
    expect(exported).toMatchObject({ status: 'completed', rowsWritten: 3, receiptsWritten: 2, receiptsMissing: 1, error: null });
    expect(exported.downloadUrl).toBe(`https://finops.example/documents/${exported.documentId}/file`);

    const zip = await downloadZip(exported.documentId, stack.acme.sessionToken);
    const names = Object.keys(zip.files).sort();
    const paperReceipt = `receipts/2026-03-10_${ids.paperReceipt.slice(0, 8)}_receipt_one.pdf`;
    const inkReceipt = `receipts/2026-03-05_${ids.inkReceipt.slice(0, 8)}_ink.png`;
    expect(names).toEqual([inkReceipt, paperReceipt, 'transactions.csv', 'transactions.xlsx'].sort());
    expect(await zip.file(paperReceipt)!.async('nodebuffer')).toEqual(RECEIPT_PDF);
    expect(await zip.file(inkReceipt)!.async('nodebuffer')).toEqual(RECEIPT_PNG);

    // CSV: newest first, amounts and dates as booked, categories by name, the receipts by their place in the ZIP.
    const csv = await csvRecords(zip);
    expect(csv.map((r) => r['Transaction id'])).toEqual([ids.paper, ids.ink, ids.refund]);
    expect(csv[0]).toMatchObject({
      Date: '2026-03-10',
      Name: 'Paper & Co',
      Amount: '-42.5',
      Currency: 'EUR',
      Category: 'Office supplies',
      'Category slug': 'office',
      Tags: 'Q1',
      'Tax amount': '6.79',
      'Tax rate (%)': '19',
      Receipts: paperReceipt,
    });
    expect(csv[1]).toMatchObject({ Date: '2026-03-05', Name: 'Printer "Ink", Ltd', Amount: '-120.99', Receipts: inkReceipt });
    // A name that looks like a formula stays text when a spreadsheet opens the CSV.
    expect(csv[2]).toMatchObject({
      Date: '2026-03-01',
      Name: `'=HYPERLINK("x")`,
      Amount: '1000',
      Receipts: 'gone.pdf (file no longer stored)',
    });

    // XLSX: the same rows, dates as dates and amounts as numbers.
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await zip.file('transactions.xlsx')!.async('uint8array')).buffer as ArrayBuffer);
    const sheet = book.getWorksheet('Transactions')!;
    expect(sheet.rowCount).toBe(4);
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const rows = [2, 3, 4].map((n) => Object.fromEntries(header.map((h, i) => [String(h), sheet.getRow(n).getCell(i + 1).value])));
    expect(rows.map((r) => r['Transaction id'])).toEqual([ids.paper, ids.ink, ids.refund]);
    expect(rows[0]).toMatchObject({
      Date: new Date('2026-03-10T00:00:00Z'),
      Name: 'Paper & Co',
      Amount: -42.5,
      Category: 'Office supplies',
    });
    expect(rows[1]).toMatchObject({ Date: new Date('2026-03-05T00:00:00Z'), Name: 'Printer "Ink", Ltd', Amount: -120.99 });
    expect(rows[2]).toMatchObject({ Date: new Date('2026-03-01T00:00:00Z'), Name: '=HYPERLINK("x")', Amount: 1000 });
    // Euros show their cents.
    const amountColumn = header.indexOf('Amount') + 1;
    expect(sheet.getRow(2).getCell(amountColumn).numFmt).toBe('#,##0.00');
    expect(sheet.getRow(2).getCell(header.indexOf('Tax amount') + 1).numFmt).toBe('#,##0.00');

    // Nothing of the other team, though its row matches the same filter.
    const everything = await Promise.all(Object.values(zip.files).map((f) => f.async('nodebuffer')));
    expect(everything.some((b) => b.includes(OTHER_MARKER))).toBe(false);

    // The document is in the library like any other.
    const doc = (await (await send('GET', `/documents/${exported.documentId}`, stack.acme.sessionToken)).json()).data;
    expect(doc).toMatchObject({ name: expect.stringMatching(/^transactions-export-\d{4}-\d{2}-\d{2}\.zip$/), mimeType: 'application/zip' });

    const notices = await notificationsOf(stack.tdb.db, stack.acme.team.id, 'export_ready');
    expect(notices).toEqual([
      expect.objectContaining({
        userId: stack.acme.user.id,
        metadata: { exportId: started.id, documentId: exported.documentId, rows: 3, receipts: 2 },
      }),
    ]);
    const mail = await smtp.waitFor((m) => m.to.includes('accountant@example.com'));
    expect(mail.subject).toContain('Acme');
    expect(mail.text).toContain(`https://finops.example/documents/${exported.documentId}/file`);
    expect(smtp.messages.filter((m) => m.to.includes('accountant@example.com'))).toHaveLength(1);

    const handle = stack.worker.client.workflow.getHandle(started.workflowId);
    await handle.result();
    expect(await handle.query(exportTransactionsProgress)).toMatchObject({
      stage: 'completed',
      result: { documentId: exported.documentId, rowsWritten: 3 },
      email: 'sent',
    });
    const after = (await (await send('GET', `/transactions/exports/${started.id}`, stack.acme.sessionToken)).json()).data;
    expect(after).toMatchObject({ notifiedAt: expect.any(String), emailedAt: expect.any(String) });
  });

  it('another team sees neither the export nor its file, and its own export holds only its rows', async () => {
    expect((await send('GET', `/transactions/exports/${exported.id}`, other.sessionToken)).status).toBe(404);
    expect((await stack.api.fetch(`/documents/${exported.documentId}/file`, { token: other.sessionToken })).status).toBe(404);

    const res = await send('POST', '/transactions/export', other.sessionToken, {});
    expect(res.status).toBe(202);
    const done = await finished((await res.json()).data.id, other.sessionToken);
    expect(done).toMatchObject({ status: 'completed', rowsWritten: 1, receiptsWritten: 1 });
    const zip = await downloadZip(done.documentId, other.sessionToken);
    expect((await csvRecords(zip)).map((r) => r.Name)).toEqual([OTHER_MARKER]);

    // Each team lists its own exports only, newest first.
    const listed = async (token: string, query = '') =>
      (await (await send('GET', `/transactions/exports${query}`, token)).json()).data as UntypedJson[];
    expect((await listed(other.sessionToken)).map((e) => e.id)).toEqual([done.id]);
    const acmeIds = (await listed(stack.acme.sessionToken)).map((e) => e.id);
    expect(acmeIds).toContain(exported.id);
    expect(acmeIds).not.toContain(done.id);
    expect((await listed(stack.acme.sessionToken, '?status=failed')).map((e) => e.id)).not.toContain(exported.id);
    expect((await send('GET', '/transactions/exports?status=lost', stack.acme.sessionToken)).status).toBe(400);
  });

  it('pages through thousands of rows in keyset batches, each row once, newest first', async () => {
    const big = await createTeamAndOwner(stack.tdb.db, 'Big');
    const inserted = await insertTransactions(stack.tdb.db, big.team.id, 2_345);
    const res = await send('POST', '/transactions/export', big.sessionToken, { formats: ['csv'] });
    const done = await finished((await res.json()).data.id, big.sessionToken);
    expect(done).toMatchObject({ status: 'completed', rowsWritten: 2_345, formats: ['csv'] });
    const zip = await downloadZip(done.documentId, big.sessionToken);
    expect(Object.keys(zip.files)).toEqual(['transactions.csv']);
    const csv = await csvRecords(zip);
    expect(csv).toHaveLength(2_345);
    expect(new Set(csv.map((r) => r['Transaction id'])).size).toBe(2_345);
    const dates = csv.map((r) => r.Date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(csv.map((r) => Number(r.Amount)).sort((a, b) => a - b)).toEqual(inserted.map((r) => r.amount).sort((a, b) => a - b));
  });

  it('over tRPC: transactions.export with chosen formats, followed with transactions.getExport', async () => {
    const trpc = trpcAs(stack.api, stack.acme.sessionToken);
    const started = await trpc.transactionExports.create.mutate({ filter: { categories: ['travel'] }, formats: ['xlsx'] });
    expect(started.status).toBe('pending');
    const done = await eventuallyValue(
      async () => {
        const e = await trpc.transactionExports.getById.query({ id: started.id });
        return e.status === 'completed' ? e : undefined;
      },
      60_000,
      'the export to complete',
    );
    expect(done).toMatchObject({ rowsWritten: 1, receiptsWritten: 0 });
    const zip = await downloadZip(done.documentId!, stack.acme.sessionToken);
    expect(Object.keys(zip.files)).toEqual(['transactions.xlsx']);
    // Yen have no cents: the amount shows as ¥ are written, not as 3,000.00.
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await zip.file('transactions.xlsx')!.async('uint8array')).buffer as ArrayBuffer);
    const sheet = book.getWorksheet('Transactions')!;
    const amountColumn = (sheet.getRow(1).values as unknown[]).indexOf('Amount');
    const { value, numFmt } = sheet.getRow(2).getCell(amountColumn);
    expect({ value, numFmt }).toEqual({ value: -3000, numFmt: '#,##0' });
    expect((await trpcError(trpc.transactionExports.getById.query({ id: '00000000-0000-4000-8000-000000000000' }))).httpStatus).toBe(404);
    const first = await trpc.transactionExports.get.query({ pageSize: 1 });
    expect(first.data.map((e) => e.id)).toEqual([started.id]);
    expect(first.meta.hasNextPage).toBe(true);
    const second = await trpc.transactionExports.get.query({ pageSize: 1, cursor: first.meta.cursor! });
    expect(second.data).toHaveLength(1);
    expect(second.data[0].createdAt <= first.data[0].createdAt).toBe(true);
    expect(await trpcError(trpc.transactionExports.create.mutate({ filter: { from: '2026-04-01', to: '2026-03-01' } }))).toMatchObject({
      httpStatus: 400,
      details: [expect.objectContaining({ field: 'filter.from' })],
    });
  });

  it('refuses bad filters with 400 and details, and starts nothing', async () => {
    const before = await stack.tdb.db('exports').count<{ n: number }[]>('* as n');
    const bad: [unknown, string][] = [
      [{ filter: { from: '2026-04-01', to: '2026-03-01' } }, 'filter.from'],
      [{ filter: { statuses: ['lost'] } }, 'filter.statuses.0'],
      [{ filter: { amountMin: 10, amountMax: 1 } }, 'filter.amountMin'],
      [{ filter: { from: '2026-02-30' } }, 'filter.from'],
      [{ filter: { unknown: true } }, 'filter.unknown'],
      [{ formats: [] }, 'formats'],
      [{ formats: ['csv', 'csv'] }, 'formats'],
      [{ formats: ['pdf'] }, 'formats.0'],
      [{ email: 'not-an-address' }, 'email'],
    ];
    for (const [body, field] of bad) {
      const res = await send('POST', '/transactions/export', stack.acme.sessionToken, body);
      expect(res.status).toBe(400);
      const json = await res.json();
      expect(json.error).toBe('Bad Request');
      expect(json.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    }
    expect(await stack.tdb.db('exports').count<{ n: number }[]>('* as n')).toEqual(before);
  });

  it('needs transactions.read (403 without it), and answers 404 for an unknown export', async () => {
    const docsOnly = await insertApiKey(stack.tdb.db, { teamId: stack.acme.team.id, userId: stack.acme.user.id }, ['documents.read']);
    expect((await send('POST', '/transactions/export', docsOnly, {})).status).toBe(403);
    expect((await send('GET', `/transactions/exports/${exported.id}`, docsOnly)).status).toBe(403);
    const reader = await insertApiKey(stack.tdb.db, { teamId: stack.acme.team.id, userId: stack.acme.user.id }, ['transactions.read']);
    expect((await send('GET', `/transactions/exports/${exported.id}`, reader)).status).toBe(200);
    expect((await send('GET', '/transactions/exports/00000000-0000-4000-8000-000000000000', reader)).status).toBe(404);
  });
});
