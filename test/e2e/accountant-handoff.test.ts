import JSZip from 'jszip';
import { parse } from 'csv-parse/sync';
import { simpleParser } from 'mailparser';
import { startNotificationRelay } from '../../api/outbox/notification-relay';
import { startSmtpSink, type SmtpSink } from '../fakes/smtp-sink';
import { fromWindows1252 } from '../../shared/domain/datev/extf';
import { sendJson, type TestResponse } from '../support/api';
import { eventuallyValue } from '../support/eventually';
import { createTeamAndOwner } from '../support/fixtures';
import { withStack } from '../support/stack';
import { trpcAs, trpcError } from '../support/trpc';
import type { UntypedJson } from '../support/untyped-json';

/**
 * The accountant's hand-off end to end: the default categories' VAT rates, the VAT report, the DATEV
 * account mapping and export, and the link an accountant downloads an export through.
 */
let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink();
});
afterAll(() => smtp?.close());
const stack = withStack('handoff', () => ({ PUBLIC_URL: 'https://finops.example', SMTP_URL: smtp.url }));
type Owner = Awaited<ReturnType<typeof createTeamAndOwner>>;
let other: Owner;
const send = (method: string, path: string, token: string, body?: unknown) => sendJson(stack.api, method, path, token, body);
const dataOf = async (res: TestResponse) => (await res.json()).data;
const acme = () => stack.acme.team.id;

const ids: Record<string, string> = {};
const insert = async (table: string, row: Record<string, unknown>): Promise<string> =>
  (await stack.tdb.db(table).insert(row).returning<{ id: string }[]>('id'))[0].id;
const tx = (row: Record<string, unknown>) => insert('transactions', { teamId: acme(), currency: 'EUR', manual: true, ...row });

beforeAll(async () => {
  other = await createTeamAndOwner(stack.tdb.db, 'Other');
  await stack.tdb.db('teams').where({ id: acme() }).update({ baseCurrency: 'EUR' });
  await stack.tdb.db('transaction_categories').insert([
    { teamId: acme(), slug: 'office-supplies', name: 'Bürobedarf', taxRate: 19, taxType: 'vat' },
    { teamId: acme(), slug: 'books', name: 'Books', taxRate: 7, taxType: 'vat' },
    { teamId: acme(), slug: 'misc', name: 'Misc' },
    { teamId: acme(), slug: 'taxes', name: 'Taxes', excluded: true },
    { teamId: other.team.id, slug: 'office-supplies', name: 'Other office', taxRate: 19 },
  ]);
  ids.bank = await insert('bank_accounts', { teamId: acme(), name: 'Girokonto', currency: 'EUR', manual: true });
  ids.otherBank = await insert('bank_accounts', { teamId: other.team.id, name: 'Other bank', currency: 'EUR', manual: true });
  await stack.tdb.db('exchange_rates').insert({ base: 'EUR', quote: 'USD', date: '2026-03-12', rate: 1.25, source: 'test' });

  // Input VAT: 19 % and 7 % expenses, one in dollars at a stored rate; and what cannot be attributed.
  ids.paper = await tx({
    date: '2026-03-10',
    name: 'Bürobedarf Müller GmbH',
    amount: -119,
    categorySlug: 'office-supplies',
    bankAccountId: ids.bank,
  });
  ids.book = await tx({ date: '2026-03-11', name: 'Fachbuch', amount: -107, categorySlug: 'books', bankAccountId: ids.bank });
  ids.dollars = await tx({ date: '2026-03-12', name: 'US software', amount: -125, currency: 'USD', categorySlug: 'office-supplies' });
  ids.misc = await tx({ date: '2026-03-13', name: 'Something', amount: -50, categorySlug: 'misc', bankAccountId: ids.bank });
  ids.uncategorised = await tx({ date: '2026-03-14', name: 'Unknown shop', amount: -30, bankAccountId: ids.bank });
  ids.noRate = await tx({ date: '2026-03-25', name: 'Far away', amount: -40, currency: 'USD', categorySlug: 'office-supplies' });
  // Not input VAT: income, an internal transfer, a pending row, an excluded category, outside the period.
  ids.income = await tx({ date: '2026-03-15', name: 'Kunde zahlt', amount: 500, categorySlug: 'office-supplies', bankAccountId: ids.bank });
  await tx({ date: '2026-03-16', name: 'To savings', amount: -1000, internal: true, bankAccountId: ids.bank });
  await tx({ date: '2026-03-17', name: 'Pending', amount: -20, status: 'pending', categorySlug: 'office-supplies' });
  await tx({ date: '2026-03-18', name: 'VAT paid', amount: -300, categorySlug: 'taxes' });
  await tx({ date: '2026-04-01', name: 'April paper', amount: -119, categorySlug: 'office-supplies' });
  await insert('transactions', {
    teamId: other.team.id,
    currency: 'EUR',
    date: '2026-03-10',
    name: 'OTHER',
    amount: -1190,
    categorySlug: 'office-supplies',
  });

  // Output VAT: an issued invoice (19 % and 7 % lines), a credit note of half its 19 % line, a draft that does not count.
  const customerId = await insert('customers', { teamId: acme(), name: 'Kunde AG', email: 'ap@kunde.example' });
  ids.invoice = await insert('invoices', {
    teamId: acme(),
    customerId,
    invoiceNumber: 'INV-0001',
    status: 'unpaid',
    currency: 'EUR',
    subtotal: 130,
    vat: 21.1,
    amount: 151.1,
    issueDate: '2026-03-05',
    dueDate: '2026-04-04',
  });
  await stack.tdb.db('invoice_line_items').insert([
    { teamId: acme(), invoiceId: ids.invoice, position: 0, name: 'Beratung', quantity: 2, price: 50, vatRate: 19 },
    { teamId: acme(), invoiceId: ids.invoice, position: 1, name: 'Buch', quantity: 1, price: 30, vatRate: 7 },
  ]);
  const draft = await insert('invoices', {
    teamId: acme(),
    customerId,
    status: 'draft',
    currency: 'EUR',
    subtotal: 1000,
    amount: 1190,
    issueDate: '2026-03-06',
  });
  await stack.tdb
    .db('invoice_line_items')
    .insert({ teamId: acme(), invoiceId: draft, position: 0, name: 'Draft', quantity: 1, price: 1000, vatRate: 19 });
  ids.creditNote = await insert('credit_notes', {
    teamId: acme(),
    invoiceId: ids.invoice,
    creditNoteNumber: 'CN-2026-0001',
    sequence: 1,
    currency: 'EUR',
    subtotal: 50,
    vat: 9.5,
    tax: 0,
    discount: 0,
    amount: 59.5,
    issueDate: '2026-03-20',
  });
  await stack.tdb.db('credit_note_line_items').insert({
    teamId: acme(),
    creditNoteId: ids.creditNote,
    position: 0,
    invoiceLine: 0,
    name: 'Beratung',
    quantity: 1,
    price: 50,
    vatRate: 19,
    net: 50,
    vatAmount: 9.5,
    taxAmount: 0,
  });
});

describe('default categories', () => {
  it("a new team starts with a category tree carrying its country's VAT rates", async () => {
    const team = async (body: Record<string, unknown>) => {
      const res = await send('POST', '/teams', stack.acme.sessionToken, { name: 'New', ...body });
      expect(res.status).toBe(201);
      const id = (await dataOf(res)).id as string;
      const rows = await stack.tdb
        .db('transaction_categories')
        .where({ teamId: id })
        .select<{ id: string; slug: string; taxRate: number | null; taxType: string | null; parentId: string | null; system: boolean }[]>(
          'id',
          'slug',
          'taxRate',
          'taxType',
          'parentId',
          'system',
        );
      return new Map(rows.map((r) => [r.slug, r]));
    };
    const german = await team({});
    expect(german.get('office-supplies')).toMatchObject({ taxRate: 19, taxType: 'vat', system: true });
    expect(german.get('books-and-subscriptions')).toMatchObject({ taxRate: 7, taxType: 'vat' });
    expect(german.get('insurance')).toMatchObject({ taxRate: 0, taxType: 'exempt' });
    expect(german.get('salaries')).toMatchObject({ taxRate: null });
    // The tree: travel's children sit under it.
    expect(german.get('public-transport')?.parentId).toBe(german.get('travel')?.id);
    expect(german.get('travel')?.parentId).toBe(german.get('expenses')?.id);
    const austrian = await team({ countryCode: 'AT' });
    expect(austrian.get('software')).toMatchObject({ taxRate: 20 });
    expect(austrian.get('accommodation')).toMatchObject({ taxRate: 10 });
    const american = await team({ countryCode: 'US' });
    expect(american.get('software')).toMatchObject({ taxRate: null });
    expect(american.get('insurance')).toMatchObject({ taxRate: 0 });
  });
});

describe('GET /reports/vat', () => {
  it('adds output VAT from invoices less credit notes and input VAT from expenses, by rate, and lists what it could not attribute', async () => {
    const res = await send('GET', '/reports/vat?from=2026-03-01&to=2026-03-31', stack.acme.sessionToken);
    expect(res.status).toBe(200);
    const report = await dataOf(res);
    expect(report).toMatchObject({ currency: 'EUR', from: '2026-03-01', to: '2026-03-31' });
    expect(report.output).toEqual({
      rates: [
        { rate: 19, net: 50, vat: 9.5, documents: 2 },
        { rate: 7, net: 30, vat: 2.1, documents: 1 },
      ],
      net: 80,
      vat: 11.6,
    });
    // 125 USD at 1.25 is 100 EUR gross; its VAT in dollars (19.96) is 15.97 EUR.
    expect(report.input).toEqual({
      rates: [
        { rate: 19, net: 184.03, vat: 34.97, documents: 2 },
        { rate: 7, net: 100, vat: 7, documents: 1 },
      ],
      net: 284.03,
      vat: 41.97,
    });
    expect(report.payable).toBe(-30.37);
    expect(report.unattributed.count).toBe(3);
    expect(report.unattributed.items.map((i: UntypedJson) => [i.id, i.reason])).toEqual([
      [ids.misc, 'no_rate'],
      [ids.uncategorised, 'no_category'],
      [ids.noRate, 'no_exchange_rate'],
    ]);
  });

  it('answers the same over tRPC, and shows another team none of it', async () => {
    const viaTrpc = await trpcAs(stack.api, stack.acme.sessionToken).reports.vat.query({ from: '2026-03-01', to: '2026-03-31' });
    expect(viaTrpc.payable).toBe(-30.37);
    const others = await trpcAs(stack.api, other.sessionToken).reports.vat.query({ from: '2026-03-01', to: '2026-03-31' });
    expect(others.output.rates).toEqual([]);
    expect(others.input.rates).toEqual([{ rate: 19, net: 1000, vat: 190, documents: 1 }]);
  });

  it('refuses bad periods with 400', async () => {
    for (const q of [
      'from=2026-13-01&to=2026-12-31',
      'from=2026-03-31&to=2026-03-01',
      'from=2026-03-01',
      'from=x&to=y',
      'from=2020-01-01&to=2026-01-01',
    ])
      expect((await send('GET', `/reports/vat?${q}`, stack.acme.sessionToken)).status).toBe(400);
    const err = await trpcError(trpcAs(stack.api, stack.acme.sessionToken).reports.vat.query({ from: '2026-03-31', to: '2026-03-01' }));
    expect(err.httpStatus).toBe(400);
  });
});

/** Polls the export until it has finished, and returns it. */
const finished = (id: string, token: string): Promise<UntypedJson> =>
  eventuallyValue(
    async () => {
      const body = await (await send('GET', `/transactions/exports/${id}`, token)).json();
      return body.data.status === 'completed' || body.data.status === 'failed' ? body.data : undefined;
    },
    60_000,
    'the export to finish',
  );

describe('DATEV', () => {
  it('refuses a DATEV export until the team has its consultant and client numbers', async () => {
    const res = await send('POST', '/transactions/export', stack.acme.sessionToken, { formats: ['datev'] });
    expect(res.status).toBe(409);
    expect(await stack.tdb.db('exports').where({ teamId: acme() }).count<{ count: number }[]>('* as count')).toEqual([{ count: 0 }]);
  });

  it('shows the SKR03 defaults, and refuses a mapping with bad accounts or another team’s ids, writing nothing', async () => {
    const before = await trpcAs(stack.api, stack.acme.sessionToken).datev.getAccountMapping.query();
    expect(before).toMatchObject({ consultantNumber: null, clientNumber: null, accountLength: 4, suspenseAccount: '1590' });
    expect(before.categories.find((c) => c.categorySlug === 'office-supplies')).toMatchObject({ account: '4930', source: 'skr03' });
    expect(before.categories.find((c) => c.categorySlug === 'misc')).toMatchObject({ account: '1590', source: 'suspense' });
    expect(before.bankAccounts).toEqual([{ bankAccountId: ids.bank, name: 'Girokonto', account: '1200', source: 'skr03' }]);
    const base = { consultantNumber: 1001, clientNumber: 42, categories: [], bankAccounts: [] };
    for (const body of [
      { ...base, categories: [{ categorySlug: 'books', account: '49' }] },
      { ...base, categories: [{ categorySlug: 'books', account: '49400' }] },
      { ...base, accountLength: 5, categories: [{ categorySlug: 'books', account: '4940' }] },
      { ...base, categories: [{ categorySlug: 'not-ours', account: '4940' }] },
      { ...base, bankAccounts: [{ bankAccountId: ids.otherBank, account: '1210' }] },
      { ...base, consultantNumber: 12 },
      {
        ...base,
        categories: [
          { categorySlug: 'books', account: '4940' },
          { categorySlug: 'books', account: '4941' },
        ],
      },
      { ...base, unknown: true },
    ]) {
      const res = await send('PUT', '/datev/account-mapping', stack.acme.sessionToken, body);
      expect(res.status).toBe(400);
    }
    expect(await stack.tdb.db('datev_settings').where({ teamId: acme() })).toEqual([]);
    expect(await stack.tdb.db('datev_accounts').where({ teamId: acme() })).toEqual([]);
  });

  it('stores a mapping and books every transaction of the export with it in an EXTF Buchungsstapel', async () => {
    const mapping = await trpcAs(stack.api, stack.acme.sessionToken).datev.updateAccountMapping.mutate({
      consultantNumber: 1001,
      clientNumber: 42,
      categories: [{ categorySlug: 'books', account: '4941' }],
      bankAccounts: [{ bankAccountId: ids.bank, account: '1210' }],
    });
    expect(mapping.categories.find((c) => c.categorySlug === 'books')).toMatchObject({ account: '4941', source: 'team' });
    expect(mapping.bankAccounts[0]).toMatchObject({ account: '1210', source: 'team' });
    // The other team's mapping is its own.
    const theirs = await (await send('GET', '/datev/account-mapping', other.sessionToken)).json();
    expect(theirs.data).toMatchObject({ consultantNumber: null, bankAccounts: [{ bankAccountId: ids.otherBank, account: '1200' }] });

    const res = await send('POST', '/transactions/export', stack.acme.sessionToken, {
      filter: { from: '2026-03-01', to: '2026-03-31' },
      formats: ['csv', 'datev'],
    });
    expect(res.status).toBe(202);
    const done = await finished((await dataOf(res)).id, stack.acme.sessionToken);
    expect(done.status).toBe('completed');
    ids.export = done.id;
    const file = await stack.api.fetch(`/documents/${done.documentId}/file`, { token: stack.acme.sessionToken });
    const zip = await JSZip.loadAsync(Buffer.from(await file.arrayBuffer()));
    expect(Object.keys(zip.files).sort()).toEqual(['EXTF_Buchungsstapel_2026-01-01.csv', 'transactions.csv']);
    const bytes = await zip.file('EXTF_Buchungsstapel_2026-01-01.csv')!.async('nodebuffer');
    // Windows-1252: ü is one byte, 0xFC.
    expect(bytes.includes(Buffer.from([0xfc]))).toBe(true);
    expect(bytes.includes(Buffer.from('ü', 'utf8'))).toBe(false);
    const text = fromWindows1252(bytes);
    expect(text.split('\r\n').at(-1)).toBe('');
    const [header, columns, ...rows] = parse(text, { delimiter: ';', relax_column_count: true });
    expect(header.slice(0, 16)).toEqual([
      'EXTF',
      '700',
      '21',
      'Buchungsstapel',
      '13',
      expect.stringMatching(/^\d{17}$/),
      '',
      'FO',
      'Acme',
      '',
      '1001',
      '42',
      '20260101',
      '4',
      '20260301',
      '20260331',
    ]);
    expect(header[21]).toBe('EUR');
    expect(header[26]).toBe('03');
    expect(columns.slice(0, 2)).toEqual(['Umsatz (ohne Soll/Haben-Kz)', 'Soll/Haben-Kennzeichen']);
    const byRef = new Map(rows.map((r) => [r[10], r]));
    // Amount, S/H, currency, rate, base amount, base currency, account, contra account, tax key, date (DDMM), reference, -, -, text.
    expect(byRef.get(ids.paper)).toEqual([
      '119,00',
      'H',
      'EUR',
      '',
      '',
      '',
      '1210',
      '4930',
      '9',
      '1003',
      ids.paper,
      '',
      '',
      'Bürobedarf Müller GmbH',
    ]);
    expect(byRef.get(ids.book)?.slice(0, 10)).toEqual(['107,00', 'H', 'EUR', '', '', '', '1210', '4941', '8', '1103']);
    expect(byRef.get(ids.income)?.slice(0, 9)).toEqual(['500,00', 'S', 'EUR', '', '', '', '1210', '4930', '3']);
    expect(byRef.get(ids.dollars)?.slice(0, 9)).toEqual(['125,00', 'H', 'USD', '1,250000', '100,00', 'EUR', '1200', '4930', '9']);
    expect(byRef.get(ids.uncategorised)?.slice(6, 9)).toEqual(['1210', '1590', '']);
    const transfer = rows.find((r) => r[13] === 'To savings');
    expect(transfer?.slice(6, 9)).toEqual(['1210', '1360', '']);
    // Pending and excluded rows are not bookings: nothing of theirs, and nothing of the other team's.
    expect(rows.some((r) => r[13] === 'Pending' || r[13] === 'OTHER')).toBe(false);
  });
});

describe('accountant links', () => {
  const open = (url: string) => fetch(url.replace('https://finops.example', stack.api.url));
  const linkUses = (linkId: string) =>
    stack.tdb
      .db('audit_events')
      .where({ teamId: acme(), targetType: 'accountant_link_uses' })
      .whereRaw(`after ->> 'link_id' = ?`, [linkId])
      .orderBy('seq')
      .select('operation', 'actorKind', 'actorId', 'credentialKind', 'credentialId', 'ip', 'after');

  it('downloads the export without credentials, each use audited as the link', async () => {
    const res = await send('POST', '/accountant-links', stack.acme.sessionToken, {
      exportId: ids.export,
      email: 'stb@kanzlei.example',
      expiresInDays: 7,
    });
    expect(res.status).toBe(201);
    const link = await dataOf(res);
    expect(link).toMatchObject({ exportId: ids.export, email: 'stb@kanzlei.example', status: 'active', uses: 0 });
    expect(link.url).toMatch(/^https:\/\/finops\.example\/accountant\/acc_[\w-]{43}$/);
    const token = link.url.split('/').at(-1);
    const stored = await stack.tdb.db('accountant_links').where({ id: link.id }).first();
    expect(stored.tokenHash).not.toContain(token);
    expect(JSON.stringify(await stack.tdb.db('audit_events').where({ targetId: link.id }))).not.toContain(stored.tokenHash);

    const download = await open(link.url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/zip');
    const zip = await JSZip.loadAsync(Buffer.from(await download.arrayBuffer()));
    expect(zip.file('EXTF_Buchungsstapel_2026-01-01.csv')).not.toBeNull();
    const uses = await linkUses(link.id);
    expect(uses).toEqual([
      expect.objectContaining({
        operation: 'accountantLinks.open',
        actorKind: 'link',
        actorId: link.id,
        credentialKind: 'link',
        credentialId: link.id,
      }),
    ]);
    expect(uses[0].after.outcome).toBe('downloaded');
    expect(uses[0].ip).toBeTruthy();
    const listed = await trpcAs(stack.api, stack.acme.sessionToken).accountantLinks.get.query({ exportId: ids.export });
    expect(listed).toEqual([expect.objectContaining({ id: link.id, uses: 1, refused: 0, url: null, status: 'active' })]);
  });

  it('emails the link to the accountant through the notification outbox: what the export holds, the working link, when it expires', async () => {
    const to = 'buchhaltung@kanzlei.example';
    const created = await dataOf(
      await send('POST', '/accountant-links', stack.acme.sessionToken, { exportId: ids.export, email: to, expiresInDays: 10 }),
    );
    const token = created.url.split('/').at(-1);
    // A link revoked before its email went out is not mailed: the email would carry a dead link.
    const early = 'early@kanzlei.example';
    const revokedFirst = await dataOf(
      await send('POST', '/accountant-links', stack.acme.sessionToken, { exportId: ids.export, email: early }),
    );
    expect((await send('DELETE', `/accountant-links/${revokedFirst.id}`, stack.acme.sessionToken)).status).toBe(204);

    const relay = startNotificationRelay(stack.api.deps, { intervalMs: 100 });
    try {
      const mail = await smtp.waitFor((m) => m.to.includes(to), 30_000);
      const parsed = await simpleParser(mail.raw);
      const expires = new Date(created.expiresAt);
      expect(parsed.subject).toBe(`Acme: transaction export for you (link valid until ${created.expiresAt.slice(0, 10)})`);
      const { rowsWritten } = await stack.tdb.db('exports').where({ id: ids.export }).first();
      expect(parsed.text).toContain(
        `Acme has shared a transaction export with you: ${rowsWritten} transactions from 2026-03-01 to 2026-03-31, with 0 receipts.`,
      );
      expect(parsed.text).toContain('transactions.csv');
      expect(parsed.text).toContain('EXTF_Buchungsstapel');
      expect(parsed.text).toContain(`Download it here (no sign-in needed): ${created.url}`);
      expect(parsed.text).toContain(`The link works until ${expires.toUTCString()}`);
      expect(parsed.html).toContain(`href="${created.url}"`);
      expect(parsed.html).toContain(expires.toUTCString());

      // The link in the email works, and its use is audited as the link's.
      const download = await open(/https:\/\/finops\.example\/accountant\/acc_[\w-]{43}/.exec(parsed.text ?? '')![0]);
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe('application/zip');
      expect((await linkUses(created.id)).map((u) => [u.actorId, u.after.outcome])).toEqual([[created.id, 'downloaded']]);

      await eventuallyValue(
        async () => (await stack.tdb.db('notification_deliveries').where({ email: early, status: 'failed' }).first()) ?? undefined,
        30_000,
        'the revoked link’s email to be given up',
      );
      expect(smtp.messages.some((m) => m.to.includes(early))).toBe(false);
    } finally {
      await relay.stop();
    }
    const delivery = await stack.tdb.db('notification_deliveries').where({ email: to }).first();
    expect(delivery).toMatchObject({ status: 'sent', userId: null, teamId: acme() });
    const notice = await stack.tdb.db('notifications').where({ id: delivery.notificationId }).first();
    expect(notice).toMatchObject({ type: 'accountant_link_shared', metadata: { linkId: created.id, email: to, exportId: ids.export } });
    // Sharing is audited as the member's act; the token is in no row but its hash.
    const created_ = await stack.tdb
      .db('audit_events')
      .where({ teamId: acme(), operation: 'accountantLinks.create', targetId: created.id });
    expect(created_).toEqual([expect.objectContaining({ actorId: stack.acme.user.id, credentialKind: 'session' })]);
    for (const table of ['audit_events', 'notifications', 'notification_deliveries', 'accountant_links'])
      expect(JSON.stringify(await stack.tdb.db(table).where({ teamId: acme() }))).not.toContain(token);

    // Revoked, the emailed link is a 404, and the attempt is in the trail.
    expect((await send('DELETE', `/accountant-links/${created.id}`, stack.acme.sessionToken)).status).toBe(204);
    expect((await open(created.url)).status).toBe(404);
    expect((await linkUses(created.id)).map((u) => u.after.outcome)).toEqual(['downloaded', 'revoked']);
  });

  it('answers 404 for a revoked link and an expired one, and audits each attempt', async () => {
    const trpc = trpcAs(stack.api, stack.acme.sessionToken);
    const revoked = await trpc.accountantLinks.create.mutate({ exportId: ids.export });
    expect(revoked.status).toBe('active');
    await trpc.accountantLinks.revoke.mutate({ id: revoked.id });
    expect((await send('DELETE', `/accountant-links/${revoked.id}`, stack.acme.sessionToken)).status).toBe(204);
    expect((await open(revoked.url!)).status).toBe(404);
    expect((await linkUses(revoked.id)).map((u) => [u.actorKind, u.actorId, u.after.outcome])).toEqual([['link', revoked.id, 'revoked']]);

    const expired = await dataOf(
      await send('POST', '/accountant-links', stack.acme.sessionToken, { exportId: ids.export, expiresInDays: 1 }),
    );
    await stack.tdb
      .db('accountant_links')
      .where({ id: expired.id })
      .update({ expiresAt: new Date(Date.now() - 1000) });
    expect((await open(expired.url)).status).toBe(404);
    expect((await open(expired.url)).status).toBe(404);
    expect((await linkUses(expired.id)).map((u) => u.after.outcome)).toEqual(['expired', 'expired']);
    const listed = await trpc.accountantLinks.get.query({ exportId: ids.export });
    expect(listed.find((l) => l.id === expired.id)).toMatchObject({ status: 'expired', refused: 2, uses: 0 });
    expect(listed.find((l) => l.id === revoked.id)).toMatchObject({ status: 'revoked', refused: 1 });

    // A token no link has: 404, and no team's trail gets an entry.
    const count = async () =>
      Number((await stack.tdb.db('audit_events').where({ targetType: 'accountant_link_uses' }).count('* as n'))[0].n);
    const n = await count();
    expect((await fetch(`${stack.api.url}/accountant/acc_${'A'.repeat(43)}`)).status).toBe(404);
    expect(await count()).toBe(n);
  });

  it("refuses bad input and another team's exports and links with 400, 404 and 409, writing nothing", async () => {
    const links = async () => Number((await stack.tdb.db('accountant_links').count('* as n'))[0].n);
    const n = await links();
    for (const body of [
      { exportId: ids.export, expiresInDays: 0 },
      { exportId: ids.export, expiresInDays: 91 },
      { exportId: 'nope' },
      { exportId: ids.export, email: 'x' },
    ])
      expect((await send('POST', '/accountant-links', stack.acme.sessionToken, body)).status).toBe(400);
    expect((await send('POST', '/accountant-links', other.sessionToken, { exportId: ids.export })).status).toBe(404);
    expect((await send('GET', `/accountant-links?exportId=${ids.export}`, other.sessionToken)).status).toBe(404);
    const [mine] = await trpcAs(stack.api, stack.acme.sessionToken).accountantLinks.get.query({ exportId: ids.export });
    expect((await send('DELETE', `/accountant-links/${mine.id}`, other.sessionToken)).status).toBe(404);
    const pending = await insert('exports', { teamId: acme(), filters: {}, formats: ['csv'], status: 'running' });
    expect((await send('POST', '/accountant-links', stack.acme.sessionToken, { exportId: pending })).status).toBe(409);
    expect(await links()).toBe(n);
    expect((await stack.tdb.db('accountant_links').where({ id: mine.id }).first()).revokedAt).toBeNull();
  });
});
