import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { parse } from 'csv-parse/sync';
import { writeExportZip } from '../../shared/domain/transaction-exports/write';
import { withTwoTeams } from '../support/two-teams';
import { trpcAs, trpcError } from '../support/trpc';
import type { UntypedJson } from '../support/untyped-json';

// A split as a client makes it, through both doors, and everything that counts money by category:
// the reports' totals, the list's category filter, the VAT report and the export files.

const { ctx, send } = withTwoTeams();
const acme = () => ctx.acme.team.id;
const token = () => ctx.acme.sessionToken;
const Q = 'from=2026-05-01&to=2026-05-31';
const ids: Record<string, string> = {};

beforeAll(async () => {
  const db = ctx.tdb.db;
  await db('teams').where({ id: acme() }).update({ baseCurrency: 'EUR' });
  await db('transaction_categories').insert([
    { teamId: acme(), slug: 'rent', name: 'Rent', taxRate: 0 },
    { teamId: acme(), slug: 'office', name: 'Home office', taxRate: 19 },
    { teamId: acme(), slug: 'food', name: 'Food', taxRate: 7 },
    { teamId: ctx.other.team.id, slug: 'secret', name: 'Other team' },
  ]);
  const [tag] = await db('tags').insert({ teamId: acme(), name: 'Household' }).returning<{ id: string }[]>('id');
  const [otherTag] = await db('tags').insert({ teamId: ctx.other.team.id, name: 'Theirs' }).returning<{ id: string }[]>('id');
  ids.tag = tag.id;
  ids.otherTag = otherTag.id;
  const row = { teamId: acme(), currency: 'EUR', manual: true, status: 'posted' };
  const inserted = await db('transactions')
    .insert([
      { ...row, date: '2026-05-03', name: 'Landlord', amount: -1000, categorySlug: 'rent', note: 'May' },
      { ...row, date: '2026-05-04', name: 'Supermarket', amount: -90.1, categorySlug: 'food' },
      // Pending: no report counts it (and its yen need no rate).
      { ...row, date: '2026-05-05', name: 'Izakaya', amount: -10001, currency: 'JPY', status: 'pending' },
    ])
    .returning<{ id: string }[]>('id');
  [ids.rent, ids.shop, ids.yen] = inserted.map((r) => r.id);
  const [theirs] = await db('transactions')
    .insert({ ...row, teamId: ctx.other.team.id, date: '2026-05-03', name: 'Theirs', amount: -50 })
    .returning<{ id: string }[]>('id');
  ids.theirs = theirs.id;
});

const get = async (p: string) => {
  const res = await send('GET', p, token());
  expect(res.status).toBe(200);
  return (await res.json()).data;
};
const spendingBySlug = async () => {
  const data = await get(`/reports/spending?${Q}`);
  return Object.fromEntries((data.categories as UntypedJson[]).map((c) => [c.slug ?? '', c.amount]));
};
/** The team's stored daily totals of May, as reports read them. */
const totals = () =>
  ctx.tdb
    .db('transaction_daily_totals')
    .where({ teamId: acme(), currency: 'EUR' })
    .whereBetween('date', ['2026-05-01', '2026-05-31'])
    .select('categorySlug', 'expenses', 'expenseTax', 'expenseCount')
    .orderBy('categorySlug')
    .then((rows) =>
      rows
        .filter((r) => Number(r.expenseCount) !== 0 || Number(r.expenses) !== 0)
        .map((r) => [r.categorySlug, Number(r.expenses), Number(r.expenseTax), Number(r.expenseCount)]),
    );
const rowOf = (id: string) => ctx.tdb.db('transactions').where({ id }).first();

const RENT_PARTS = () => [
  { amount: -700, categorySlug: 'rent', note: 'flat' },
  { amount: -300, categorySlug: 'office', tags: [ids.tag], note: 'home office' },
];

describe('splitting a transaction over REST', () => {
  it('splits, answers the parts and moves the report totals to each part’s category', async () => {
    expect(await spendingBySlug()).toMatchObject({ rent: 1000, food: 90.1 });
    const res = await send('PUT', `/transactions/${ids.rent}/splits`, token(), { parts: RENT_PARTS() });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.data.splits).toEqual([
      { amount: -700, category: { slug: 'rent', name: 'Rent', color: null }, tags: [], note: 'flat' },
      {
        amount: -300,
        category: { slug: 'office', name: 'Home office', color: null },
        tags: [{ id: ids.tag, name: 'Household' }],
        note: 'home office',
      },
    ]);
    expect(body.data).toMatchObject({ id: ids.rent, amount: -1000, mergedFrom: [] });

    const read = await get(`/transactions/${ids.rent}`);
    expect(read.splits).toEqual(body.data.splits);
    expect(await spendingBySlug()).toEqual({ rent: 700, office: 300, food: 90.1 });
    // The stored totals, not only the report: each part counted once, in its own category.
    expect(await totals()).toEqual([
      ['food', 90.1, 0, 1],
      ['office', 300, 0, 1],
      ['rent', 700, 0, 1],
    ]);
    // The user's split: no rule may replace it.
    expect((await rowOf(ids.rent)).manualFields).toContain('splits');
  });

  it('finds a split transaction by its parts’ categories in the list, and shows the parts there', async () => {
    const office = await get('/transactions?categories=office');
    expect(office.map((t: UntypedJson) => t.id)).toEqual([ids.rent]);
    expect(office[0].splits).toHaveLength(2);
    const rent = await get('/transactions?categories=rent');
    expect(rent.map((t: UntypedJson) => t.id)).toEqual([ids.rent]);
    const food = await get('/transactions?categories=food&pageSize=10&sort=-amount');
    expect(food.map((t: UntypedJson) => t.id)).toEqual([ids.shop]);
    expect(food[0].splits).toBeNull();
  });

  it('counts each part at its own category’s VAT rate', async () => {
    const vat = await get('/reports/vat?from=2026-05-01&to=2026-05-31');
    const input = vat.input.rates as { rate: number; net: number; vat: number }[];
    // 300 gross at 19 %, 700 at 0 %, and the groceries at 7 %.
    expect(input.find((r) => r.rate === 19)).toMatchObject({ vat: 47.9 });
    expect(input.find((r) => r.rate === 0)).toMatchObject({ net: 700, vat: 0 });
  });

  it('writes a row (and a DATEV booking) per part into the export files', async () => {
    const mapped = await send('PUT', '/datev/account-mapping', token(), {
      consultantNumber: 1001,
      clientNumber: 1,
      categories: [
        { categorySlug: 'rent', account: '4210' },
        { categorySlug: 'office', account: '4288' },
      ],
    });
    expect(mapped.status).toBe(200);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'splits-export-'));
    try {
      const zipFile = await writeExportZip(
        { db: ctx.tdb.db, storage: ctx.api.deps.storage },
        { teamId: acme(), filters: { from: '2026-05-03', to: '2026-05-03' }, formats: ['csv', 'xlsx', 'datev'], createdAt: new Date() },
        dir,
        { page: async () => {}, alive: () => {} },
      );
      expect(zipFile.rowsWritten).toBe(2);
      const zip = await JSZip.loadAsync(await readFile(zipFile.path));
      const csv = parse<Record<string, string>>(await zip.file('transactions.csv')!.async('nodebuffer'), { bom: true, columns: true });
      expect(csv.map((r) => [r['Transaction id'], r.Amount, r['Category slug'], r.Tags, r.Note, r['Split part']])).toEqual([
        [ids.rent, '-700', 'rent', '', 'flat', '1 of 2'],
        [ids.rent, '-300', 'office', 'Household', 'home office', '2 of 2'],
      ]);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load((await zip.file('transactions.xlsx')!.async('nodebuffer')) as unknown as ArrayBuffer);
      const sheet = book.getWorksheet('Transactions')!;
      expect(sheet.rowCount).toBe(3);
      expect([sheet.getRow(2).getCell(4).value, sheet.getRow(3).getCell(4).value]).toEqual([-700, -300]);
      const extfName = Object.keys(zip.files).find((n) => n.startsWith('EXTF_'))!;
      const bookings = (await zip.file(extfName)!.async('string')).split('\r\n').filter((l) => l.includes(ids.rent));
      // Amount, side (H: money out) and the contra account of each part's category.
      expect(bookings.map((l) => l.split(';')).map((f) => [f[0], f[1], f[7]])).toEqual([
        ['700,00', '"H"', '4210'],
        ['300,00', '"H"', '4288'],
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('drops a split whose whole changes, since its parts no longer add up', async () => {
    await send('PUT', `/transactions/${ids.shop}/splits`, token(), {
      parts: [
        { amount: -60.05, categorySlug: 'food' },
        { amount: -30.05, categorySlug: 'office' },
      ],
    });
    expect(await spendingBySlug()).toEqual({ rent: 700, office: 330.05, food: 60.05 });
    const patched = await send('PATCH', `/transactions/${ids.shop}`, token(), { amount: -95 });
    expect(patched.status).toBe(200);
    expect((await patched.json()).data.splits).toBeNull();
    expect(await spendingBySlug()).toEqual({ rent: 700, office: 300, food: 95 });
  });

  it('unsplits: the whole counts in its own category again, and no rule splits it again', async () => {
    const res = await send('DELETE', `/transactions/${ids.rent}/splits`, token());
    expect(res.status).toBe(200);
    expect((await res.json()).data).toMatchObject({ id: ids.rent, splits: null, category: { slug: 'rent' }, note: 'May' });
    expect(await spendingBySlug()).toEqual({ rent: 1000, food: 95 });
    expect(await totals()).toEqual([
      ['food', 95, 0, 1],
      ['rent', 1000, 0, 1],
    ]);
    expect((await rowOf(ids.rent)).manualFields).toContain('splits');
  });
});

describe('refused splits', () => {
  const refused = async (id: string, body: unknown, status = 400) => {
    const before = await rowOf(ids.rent);
    const totalsBefore = await totals();
    const res = await send('PUT', `/transactions/${id}/splits`, token(), body);
    expect(res.status).toBe(status);
    const envelope = await res.json();
    expect(await rowOf(ids.rent)).toEqual(before);
    expect(await totals()).toEqual(totalsBefore);
    return envelope;
  };

  it('parts that do not add up: 400 in the envelope, naming the sum, and nothing written', async () => {
    const envelope = await refused(ids.rent, { parts: [{ amount: -700 }, { amount: -299.99 }] });
    expect(envelope).toMatchObject({ error: 'Bad Request' });
    expect(envelope.details).toEqual([{ field: 'parts', message: "the parts sum to -999.99 EUR, not the transaction's -1000 EUR" }]);
  });

  it('a part of the wrong sign, or finer than the currency, each named', async () => {
    const signs = await refused(ids.rent, { parts: [{ amount: -1100 }, { amount: 100 }] });
    expect(signs.details).toEqual([{ field: 'parts.1.amount', message: "must be negative, as the transaction's amount is" }]);
    const yen = await refused(ids.yen, { parts: [{ amount: -5000.5 }, { amount: -5000.5 }] });
    expect(yen.details.map((d: UntypedJson) => d.field)).toEqual(['parts.0.amount', 'parts.1.amount']);
  });

  it('one part, more than 100, or an unknown key: 400', async () => {
    await refused(ids.rent, { parts: [{ amount: -1000 }] });
    await refused(ids.rent, { parts: Array.from({ length: 101 }, () => ({ amount: -1000 / 101 })) });
    await refused(ids.rent, { parts: [{ amount: -500, category: 'rent' }, { amount: -500 }] });
  });

  it("another team's category or tag: 400 naming the part, nothing written", async () => {
    const envelope = await refused(ids.rent, {
      parts: [
        { amount: -500, categorySlug: 'secret' },
        { amount: -500, tags: [ids.otherTag] },
      ],
    });
    expect(envelope.details).toEqual([
      { field: 'parts.0.categorySlug', message: 'no such category in your team' },
      { field: 'parts.1.tags', message: `no such tags in your team: ${ids.otherTag}` },
    ]);
  });

  it("another team's transaction: 404 for split and unsplit, and theirs is untouched", async () => {
    await refused(ids.theirs, { parts: [{ amount: -25 }, { amount: -25 }] }, 404);
    expect((await send('DELETE', `/transactions/${ids.theirs}/splits`, token())).status).toBe(404);
    expect((await rowOf(ids.theirs)).splits).toBeNull();
  });
});

describe('splitting over tRPC', () => {
  it('splits a yen amount into whole yen, reads it back and unsplits', async () => {
    const trpc = trpcAs(ctx.api, token());
    const split = await trpc.transactions.split.mutate({
      id: ids.yen,
      parts: [
        { amount: -5001, categorySlug: 'food' },
        { amount: -5000, categorySlug: 'rent' },
      ],
    });
    expect(split.splits?.map((p) => [p.amount, p.category?.slug])).toEqual([
      [-5001, 'food'],
      [-5000, 'rent'],
    ]);
    expect((await trpc.transactions.getById.query({ id: ids.yen })).splits).toEqual(split.splits);
    const bad = await trpcError(trpc.transactions.split.mutate({ id: ids.yen, parts: [{ amount: -5001 }, { amount: -5001 }] }));
    expect(bad).toMatchObject({ httpStatus: 400, error: 'Bad Request' });
    expect((await trpc.transactions.getById.query({ id: ids.yen })).splits).toEqual(split.splits);
    const theirs = await trpcError(trpc.transactions.unsplit.mutate({ id: ids.theirs }));
    expect(theirs.httpStatus).toBe(404);
    expect((await trpc.transactions.unsplit.mutate({ id: ids.yen })).splits).toBeNull();
  });
});

describe('a rule that splits', () => {
  it('splits new transactions by percentages, exactly, and refuses percentages that miss 100 or another team’s category', async () => {
    const rule = {
      name: 'Phone bill',
      conditions: { any: [{ all: [{ field: 'name', operator: 'contains', value: 'telco' }] }] },
      actions: {
        split: {
          by: 'percentage',
          parts: [
            { percentage: 33.3333, categorySlug: 'office' },
            { percentage: 66.6667, categorySlug: 'food', note: 'private' },
          ],
        },
      },
    };
    const bad = await send('POST', '/transaction-rules', token(), {
      ...rule,
      actions: { split: { by: 'percentage', parts: [{ percentage: 30 }, { percentage: 60 }] } },
    });
    expect(bad.status).toBe(400);
    const theirs = await send('POST', '/transaction-rules', token(), {
      ...rule,
      actions: { split: { by: 'amount', parts: [{ amount: 10, categorySlug: 'secret' }], remainder: {} } },
    });
    expect(theirs.status).toBe(400);
    expect((await theirs.json()).details).toEqual([
      { field: 'actions.split.parts.0.categorySlug', message: 'no such category in your team' },
    ]);
    expect(await ctx.tdb.db('transaction_rules').where({ teamId: acme() }).count('* as n').first()).toEqual({ n: 0 });

    expect((await send('POST', '/transaction-rules', token(), rule)).status).toBe(201);
    const created = await send('POST', '/transactions', token(), { date: '2026-05-20', name: 'Telco GmbH', amount: -100, currency: 'EUR' });
    expect(created.status).toBe(201);
    const { id } = (await created.json()).data;
    const read = await get(`/transactions/${id}`);
    expect(read.splits.map((p: UntypedJson) => [p.amount, p.category?.slug, p.note])).toEqual([
      [-33.33, 'office', null],
      [-66.67, 'food', 'private'],
    ]);
    expect((await rowOf(id)).fieldSources.splits).toMatchObject({ by: 'rule', ruleName: 'Phone bill' });
    expect(await spendingBySlug()).toEqual({ rent: 1000, office: 33.33, food: 161.67 });
  });
});

describe('a deleted category', () => {
  it('leaves the parts that were in it uncategorised, and the totals follow', async () => {
    const office = await ctx.tdb.db('transaction_categories').where({ teamId: acme(), slug: 'office' }).first();
    expect((await send('DELETE', `/categories/${office.id}`, token())).status).toBe(204);
    expect(await spendingBySlug()).toEqual({ rent: 1000, '': 33.33, food: 161.67 });
    const [telco] = await get('/transactions?q=telco');
    expect(telco.splits.map((p: UntypedJson) => [p.amount, p.category])).toEqual([
      [-33.33, null],
      [-66.67, { slug: 'food', name: 'Food', color: null }],
    ]);
  });
});
