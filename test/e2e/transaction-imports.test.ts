import { importProgress, importTransactionsId, type ImportTransactionsWorkflow } from '../../shared/temporal/import-transactions/contract';
import { CAMT053_STATEMENT, GENERATED_CSV_MAPPING, generatedCsv, OFX_STATEMENT } from '../fixtures/statements';
import { createTeamAndOwner } from '../support/fixtures';
import { withStack } from '../support/stack';
import { trpcAs } from '../support/trpc';

/**
 * Statement imports end to end: multipart uploads to the real gateway, the ImportTransactions
 * workflow on a real worker, rows counted in the database. The upload limit is lowered to 8 MB so
 * that 413 costs little; a 100,000-row CSV (about 3.5 MB) fits under it.
 */
const MAX_BYTES = 8 * 1024 * 1024;
const stack = withStack('imports', () => ({ IMPORT_MAX_BYTES: String(MAX_BYTES) }));

type ImportReply = {
  id: string;
  status: string;
  format: string;
  progress: { rowsRead: number; created: number; skipped: number; matched: number };
  errors: { line: number; message: string }[];
  workflowId: string;
};

let accountId: string;
let usdAccountId: string;

const newAccount = async (teamId: string, name: string, currency = 'EUR') => {
  const [row] = await stack.tdb.db('bank_accounts').insert({ teamId, name, currency, manual: true }).returning<{ id: string }[]>('id');
  return row.id;
};

beforeAll(async () => {
  accountId = await newAccount(stack.acme.team.id, 'Business checking');
  usdAccountId = await newAccount(stack.acme.team.id, 'USD card', 'USD');
});

const form = (file: string | Buffer, fileName: string, fields: Record<string, string> = {}) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  f.append('file', new Blob([file]), fileName);
  return f;
};
const post = (path: string, body: FormData, token = stack.acme.sessionToken) => stack.api.fetch(path, { method: 'POST', token, body });
const startImport = async (file: string | Buffer, fileName: string, fields: Record<string, string>) => {
  const res = await post('/transactions/import', form(file, fileName, fields));
  expect(res.status).toBe(202);
  return (await res.json()).data as ImportReply;
};
/** Waits for the run and answers the import as GET shows it afterwards. */
const finished = async (imp: ImportReply) => {
  await stack.worker.client.workflow.getHandle<ImportTransactionsWorkflow>(importTransactionsId(imp.id)).result();
  const res = await stack.api.fetch(`/transactions/imports/${imp.id}`, { token: stack.acme.sessionToken });
  expect(res.status).toBe(200);
  return (await res.json()).data as ImportReply;
};
const transactionsOf = (bankAccountId: string) =>
  stack.tdb
    .db('transactions')
    .where({ bankAccountId })
    .orderBy([{ column: 'date' }, { column: 'name' }]);
const countOf = async (bankAccountId: string) =>
  (await stack.tdb.db('transactions').where({ bankAccountId }).count<{ n: number }[]>({ n: '*' }))[0].n;

describe('statement imports', () => {
  it('previews a European CSV (semicolons, comma decimals, DD.MM.YYYY), changing nothing', async () => {
    const csv = [
      'Buchungstag;Verwendungszweck;Betrag;Währung',
      '03.11.2026;REWE Markt Berlin;-1.234,56;EUR',
      '04.11.2026;"Gehalt; November";2.500,00;EUR',
      '15.11.2026;Miete;-950,00;EUR',
    ].join('\r\n');
    const res = await post('/transactions/import/preview', form(`\uFEFF${csv}`, 'umsaetze.csv'));
    expect(res.status).toBe(200);
    const preview = (await res.json()).data;
    expect(preview).toEqual({
      format: 'csv',
      headers: ['Buchungstag', 'Verwendungszweck', 'Betrag', 'Währung'],
      // Only what was found: nothing is null, and the formats are part of the mapping.
      mapping: {
        date: 'Buchungstag',
        description: 'Verwendungszweck',
        amount: 'Betrag',
        currency: 'Währung',
        dateFormat: 'DD.MM.YYYY',
        decimalSeparator: ',',
        delimiter: ';',
        hasHeader: true,
      },
      missing: [],
      rows: [
        ['03.11.2026', 'REWE Markt Berlin', '-1.234,56', 'EUR'],
        ['04.11.2026', 'Gehalt; November', '2.500,00', 'EUR'],
        ['15.11.2026', 'Miete', '-950,00', 'EUR'],
      ],
      sample: [
        { line: 2, date: '2026-11-03', amount: '-1234.56', currency: 'EUR', name: 'REWE Markt Berlin', reference: null },
        { line: 3, date: '2026-11-04', amount: '2500', currency: 'EUR', name: 'Gehalt; November', reference: null },
        { line: 4, date: '2026-11-15', amount: '-950', currency: 'EUR', name: 'Miete', reference: null },
      ],
    });
    expect(await stack.tdb.db('imports').where({ teamId: stack.acme.team.id })).toEqual([]);

    // The suggested mapping, sent back as it is, imports the file as the preview showed it.
    const mapping = preview.mapping;
    const done = await finished(await startImport(csv, 'umsaetze.csv', { bankAccountId: usdAccountId, mapping: JSON.stringify(mapping) }));
    expect(done).toMatchObject({ status: 'completed', progress: { rowsRead: 3, created: 3, skipped: 0 } });
    expect(
      (await transactionsOf(usdAccountId)).map((t: { date: string; amount: number; currency: string; name: string }) => [
        t.date,
        t.amount,
        t.currency,
        t.name,
      ]),
    ).toEqual([
      ['2026-11-03', -1234.56, 'EUR', 'REWE Markt Berlin'],
      ['2026-11-04', 2500, 'EUR', 'Gehalt; November'],
      ['2026-11-15', -950, 'EUR', 'Miete'],
    ]);
  });

  it('names what its mapping lacks, so the client can complete it; the completed mapping imports', async () => {
    // No header row: the date and the amount are found by their values, the text cannot be.
    const csv = ['2026-10-01,3.20,Tea,EUR', '2026-10-02,-12.00,Deposit back,EUR', '2026-10-03,11.90,Dinner,EUR'].join('\n');
    const res = await post('/transactions/import/preview', form(csv, 'headless.csv'));
    expect(res.status).toBe(200);
    const preview = (await res.json()).data;
    expect(preview).toMatchObject({
      headers: [],
      mapping: { date: 0, amount: 1, dateFormat: 'YYYY-MM-DD', decimalSeparator: '.', delimiter: ',', hasHeader: false },
      missing: [{ field: 'description', message: expect.stringContaining("the column with the transaction's text") }],
      sample: [],
    });
    expect(Object.values(preview.mapping)).not.toContain(null);

    // Sent as it is, the import refuses it for the field the preview named, and starts nothing.
    const before = await stack.tdb.db('imports').count({ n: '*' });
    const incomplete = await post(
      '/transactions/import',
      form(csv, 'headless.csv', { bankAccountId: accountId, mapping: JSON.stringify(preview.mapping) }),
    );
    expect(incomplete.status).toBe(400);
    expect((await incomplete.json()).details.map((d: { field: string }) => d.field)).toEqual(
      preview.missing.map((m: { field: string }) => `mapping.${m.field}`),
    );
    expect(await stack.tdb.db('imports').count({ n: '*' })).toEqual(before);

    // With the one thing it named, it imports.
    const account = await newAccount(stack.acme.team.id, 'Headless');
    const mapping = JSON.stringify({ ...preview.mapping, description: 2 });
    const done = await finished(await startImport(csv, 'headless.csv', { bankAccountId: account, mapping }));
    expect(done).toMatchObject({ status: 'completed', progress: { rowsRead: 3, created: 3 } });
    expect((await transactionsOf(account)).map((t: { name: string; amount: number }) => [t.name, t.amount])).toEqual([
      ['Tea', 3.2],
      ['Deposit back', -12],
      ['Dinner', 11.9],
    ]);

    // Nothing it recognises at all: every field the import needs is named.
    const blank = await post('/transactions/import/preview', form('Foo,Bar\nx,y\n', 'blank.csv'));
    expect((await blank.json()).data).toMatchObject({
      mapping: { delimiter: ',', hasHeader: true },
      missing: [{ field: 'date' }, { field: 'description' }, { field: 'amount' }, { field: 'dateFormat' }],
    });
  });

  it('imports a 100,000-row CSV once: every row created, and the same file again creates none', async () => {
    const csv = generatedCsv(100_000);
    const mapping = JSON.stringify(GENERATED_CSV_MAPPING);
    const first = await finished(await startImport(csv, 'big.csv', { bankAccountId: accountId, mapping }));
    expect(first).toMatchObject({
      status: 'completed',
      format: 'csv',
      progress: { rowsRead: 100_000, created: 100_000, skipped: 0 },
      errors: [],
    });
    expect(await countOf(accountId)).toBe(100_000);
    // Rows 0 and 73,000 are the same transaction on paper: both are kept, as two rows of one statement.
    expect(
      await stack.tdb
        .db('transactions')
        .where({ bankAccountId: accountId, date: '2025-01-01', name: 'Payee 0, Berlin', amount: -0.01 })
        .count({ n: '*' }),
    ).toEqual([{ n: 2 }]);

    const again = await startImport(csv, 'big-again.csv', { bankAccountId: accountId, mapping });
    const second = await finished(again);
    expect(second).toMatchObject({ status: 'completed', progress: { rowsRead: 100_000, created: 0, skipped: 100_000 } });
    expect(await countOf(accountId)).toBe(100_000);
    // The run's own progress query says the same.
    const handle = stack.worker.client.workflow.getHandle<ImportTransactionsWorkflow>(again.workflowId);
    expect(await handle.query(importProgress)).toEqual({ stage: 'completed', rowsRead: 100_000, created: 0, skipped: 100_000, matched: 0 });
    const described = await handle.describe();
    expect(described.typedSearchAttributes.getAll().map((p) => [p.key.name, p.value])).toEqual(
      expect.arrayContaining([
        ['ImportId', again.id],
        ['TeamId', stack.acme.team.id],
        ['Stage', 'completed'],
      ]),
    );
  }, 180_000);

  it('imports nothing from a file with a bad row, and names its line', async () => {
    const csv = [
      'Date,Description,Debit,Credit',
      '2026-10-01,Coffee,3.20,',
      '2026-10-02,Refund,,12.00',
      '2026-13-40,Broken date,5.00,',
      '2026-10-04,Lunch,11.90,',
    ].join('\n');
    const mapping = { date: 'Date', description: 'Description', debit: 'Debit', credit: 'Credit', dateFormat: 'YYYY-MM-DD' };
    const before = await stack.tdb.db('transactions').where({ teamId: stack.acme.team.id }).count({ n: '*' });
    const done = await finished(await startImport(csv, 'bad.csv', { bankAccountId: accountId, mapping: JSON.stringify(mapping) }));
    expect(done).toMatchObject({
      status: 'failed',
      progress: { rowsRead: 4, created: 0, skipped: 0 },
      errors: [{ line: 4, message: 'date "2026-13-40" is not a date in the format YYYY-MM-DD' }],
    });
    expect(await stack.tdb.db('transactions').where({ teamId: stack.acme.team.id }).count({ n: '*' })).toEqual(before);
    expect(await stack.tdb.db('transactions').where({ teamId: stack.acme.team.id, name: 'Coffee' })).toEqual([]);
  });

  it('imports an OFX statement, and again creates nothing', async () => {
    const ofxAccount = await newAccount(stack.acme.team.id, 'OFX account');
    const done = await finished(await startImport(OFX_STATEMENT, 'statement.ofx', { bankAccountId: ofxAccount }));
    expect(done).toMatchObject({ status: 'completed', format: 'ofx', progress: { rowsRead: 3, created: 3, skipped: 0 } });
    const rows = await transactionsOf(ofxAccount);
    expect(
      rows.map((t: Record<string, unknown>) => [t.date, t.amount, t.currency, t.name, t.description, t.counterpartyName, t.manual]),
    ).toEqual([
      ['2026-11-02', -42.5, 'EUR', 'Office Supplies GmbH', 'OFX-0001', 'Office Supplies GmbH', true],
      ['2026-11-03', 1500, 'EUR', 'Invoice INV-2026-0042 paid', 'OFX-0002', null, true],
      ['2026-11-04', -4.9, 'EUR', 'Account fee', 'OFX-0003', 'Account fee', true],
    ]);
    const again = await finished(await startImport(OFX_STATEMENT, 'statement.ofx', { bankAccountId: ofxAccount }));
    expect(again.progress).toEqual({ rowsRead: 3, created: 0, skipped: 3, matched: 0 });
  });

  it('imports the booked entries of a CAMT.053 statement', async () => {
    const camtAccount = await newAccount(stack.acme.team.id, 'CAMT account');
    const preview = await post('/transactions/import/preview', form(CAMT053_STATEMENT, 'camt.xml'));
    expect((await preview.json()).data).toMatchObject({
      format: 'camt053',
      mapping: null,
      missing: [],
      sample: [
        { date: '2026-11-03', amount: '-250' },
        { date: '2026-11-04', amount: '1190' },
      ],
    });
    const done = await finished(await startImport(CAMT053_STATEMENT, 'camt.xml', { bankAccountId: camtAccount }));
    expect(done).toMatchObject({ status: 'completed', format: 'camt053', progress: { rowsRead: 2, created: 2, skipped: 0 } });
    const rows = await transactionsOf(camtAccount);
    expect(rows.map((t: Record<string, unknown>) => [t.date, t.amount, t.currency, t.name, t.description, t.counterpartyName])).toEqual([
      ['2026-11-03', -250, 'EUR', 'Cloud Hosting AG', 'CAMT-REF-1', 'Cloud Hosting AG'],
      ['2026-11-04', 1190, 'EUR', 'Kunde Beispiel GmbH', 'CAMT-REF-2', 'Kunde Beispiel GmbH'],
    ]);
  });

  it("refuses another team's account (404), a CSV without a mapping (400) and a file over the limit (413), starting nothing", async () => {
    const other = await createTeamAndOwner(stack.tdb.db, 'Other');
    const theirs = await newAccount(other.team.id, 'Theirs');
    const before = await stack.tdb.db('imports').count({ n: '*' });
    const csv = generatedCsv(3);
    const mapping = JSON.stringify(GENERATED_CSV_MAPPING);

    const foreign = await post('/transactions/import', form(csv, 'x.csv', { bankAccountId: theirs, mapping }));
    expect(foreign.status).toBe(404);

    const unmapped = await post('/transactions/import', form(csv, 'x.csv', { bankAccountId: accountId }));
    expect(unmapped.status).toBe(400);
    expect((await unmapped.json()).details).toEqual([{ field: 'mapping', message: 'required for CSV' }]);

    const badMapping = await post(
      '/transactions/import',
      form(csv, 'x.csv', { bankAccountId: accountId, mapping: JSON.stringify({ date: 'Date' }) }),
    );
    expect(badMapping.status).toBe(400);
    expect((await badMapping.json()).details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'mapping.dateFormat' })]));

    const big = Buffer.alloc(MAX_BYTES + 1024, 'a');
    const tooLarge = await post('/transactions/import', form(big, 'huge.csv', { bankAccountId: accountId, mapping }));
    expect(tooLarge.status).toBe(413);
    const tooLargePreview = await post('/transactions/import/preview', form(big, 'huge.csv'));
    expect(tooLargePreview.status).toBe(413);

    const unsupported = await post(
      '/transactions/import',
      form('<?xml version="1.0"?><note>hi</note>', 'note.xml', { bankAccountId: accountId }),
    );
    expect(unsupported.status).toBe(415);

    expect(await stack.tdb.db('imports').count({ n: '*' })).toEqual(before);
    // Their team cannot see ours either.
    const mine = await stack.tdb.db('imports').where({ teamId: stack.acme.team.id }).first<{ id: string }>('id');
    expect((await stack.api.fetch(`/transactions/imports/${mine?.id}`, { token: other.sessionToken })).status).toBe(404);
  });

  it('lists and gets imports through tRPC as over REST', async () => {
    const trpc = trpcAs(stack.api, stack.acme.sessionToken);
    const page = await trpc.transactionImports.get.query({ pageSize: 2 });
    expect(page.data).toHaveLength(2);
    expect(page.meta.hasNextPage).toBe(true);
    const rest = (await (await stack.api.fetch('/transactions/imports?pageSize=2', { token: stack.acme.sessionToken })).json()) as {
      data: ImportReply[];
    };
    expect(page.data.map((i) => i.id)).toEqual(rest.data.map((i) => i.id));
    const failed = await trpc.transactionImports.get.query({ status: 'failed' });
    expect(failed.data.map((i) => i.errors[0]?.line)).toEqual([4]);
    const one = await trpc.transactionImports.getById.query({ id: page.data[0].id });
    expect(one).toEqual(page.data[0]);
  });
});
