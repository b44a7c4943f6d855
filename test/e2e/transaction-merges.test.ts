import { startBankAFake, type BankAFake, type FakeTransaction } from '../fakes/bank-a';
import { sendJson, statusAndBody } from '../support/api';
import { importStatement, withStack } from '../support/stack';
import { trpcAs, trpcError } from '../support/trpc';

/**
 * One ledger however the transactions arrive, against the bank-a fake: a pending transaction the
 * bank books under a new id is one transaction that keeps what the user gave it; a statement import
 * over the synced range creates none twice; a manual entry the bank later brings is merged; two
 * identical coffees on one day stay two; an unmerge restores both; a pending transaction never
 * booked goes, with a notice.
 */
let bankA: BankAFake;
beforeAll(async () => {
  bankA = await startBankAFake();
});
afterAll(async () => {
  await bankA?.close();
});
const stack = withStack('merges', () => ({ BANK_A_API_URL: bankA.url, PENDING_TRANSACTION_MAX_AGE_DAYS: '14' }));

const call = (method: string, path: string, body?: unknown, token = stack.acme.sessionToken) =>
  sendJson(stack.api, method, path, token, body).then(statusAndBody);
const db = () => stack.tdb.db;
const teamId = () => stack.acme.team.id;
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

let item: ReturnType<BankAFake['addItem']>;
let connectionId: string;
let accountId: string;
let coffeeCategory: string;
let seq = 0;

/** A bank-a transaction of the item (bank-a's sign: positive is money out). */
const tx = (fields: Partial<FakeTransaction> & Pick<FakeTransaction, 'name' | 'amount' | 'date'>): FakeTransaction => ({
  transaction_id: `m_${++seq}`,
  account_id: item.accountId,
  iso_currency_code: 'EUR',
  merchant_name: fields.name,
  pending: false,
  payment_channel: 'in store',
  personal_finance_category: null,
  ...fields,
});

const sync = async () => {
  const res = await call('POST', `/bank-connections/${connectionId}/sync`);
  expect(res.status).toBeLessThan(300);
  await stack.worker.client.workflow.getHandle(`sync-connection:${connectionId}`).result();
};

const rowsOf = (providerIds: string[]) =>
  db()('transactions').where({ teamId: teamId() }).whereIn('providerTransactionId', providerIds).orderBy('providerTransactionId');

const importCsv = (lines: string[]) => importStatement(stack, accountId, lines);

beforeAll(async () => {
  coffeeCategory = (
    await db()('transaction_categories').insert({ teamId: teamId(), name: 'Meals', slug: 'meals' }).returning<{ slug: string }[]>('slug')
  )[0].slug;
  item = bankA.addItem();
  const created = await call('POST', '/bank-connections', { provider: 'bank-a', publicToken: item.publicToken });
  expect(created.status).toBe(201);
  connectionId = created.body.data.id;
  await stack.worker.client.workflow.getHandle(`sync-connection:${connectionId}`).result();
  accountId = (await db()('bank_accounts').where({ teamId: teamId(), providerAccountId: item.accountId }).first<{ id: string }>('id')).id;
});

describe('pending → booked, duplicates and their undoing', () => {
  const pending: FakeTransaction[] = [];
  const booked: FakeTransaction[] = [];
  let annotated: { id: string; before: Record<string, unknown> };

  it('a booked transaction under a new id takes over its pending one, with the user’s category and note; two coffees stay two', async () => {
    pending.push(
      tx({ name: 'Trattoria Roma', amount: 40, date: daysAgo(3), pending: true }),
      tx({ name: 'Coffee Bar', amount: 3.5, date: daysAgo(2), pending: true }),
      tx({ name: 'Coffee Bar', amount: 3.5, date: daysAgo(2), pending: true }),
    );
    bankA.add(item.itemId, pending);
    await sync();
    const synced = await rowsOf(pending.map((p) => p.transaction_id));
    expect(synced.map((r) => r.status)).toEqual(['pending', 'pending', 'pending']);

    const trattoria = synced.find((r) => r.name === 'Trattoria Roma')!;
    const tagId = (await db()('tags').insert({ teamId: teamId(), name: 'Client' }).returning<{ id: string }[]>('id'))[0].id;
    const patched = await call('PATCH', `/transactions/${trattoria.id}`, {
      categorySlug: coffeeCategory,
      note: 'team lunch',
      tags: [tagId],
    });
    expect(patched.status).toBe(200);
    await db()('transaction_attachments').insert({
      teamId: teamId(),
      transactionId: trattoria.id,
      name: 'receipt.pdf',
      mimeType: 'application/pdf',
      size: 1234,
      storageKey: 'receipts/receipt.pdf',
    });
    annotated = { id: trattoria.id, before: (await call('GET', `/transactions/${trattoria.id}`)).body.data };
    delete annotated.before.mergedFrom;

    // The tip is in the booked amount; both coffees book under new ids.
    booked.push(...bankA.book(item.itemId, pending, (p) => (p.name === 'Trattoria Roma' ? { amount: 46, date: daysAgo(1) } : {})));
    await sync();

    expect(await rowsOf(pending.map((p) => p.transaction_id))).toEqual([]);
    const now = await rowsOf(booked.map((b) => b.transaction_id));
    expect(now).toHaveLength(3);
    expect(now.map((r) => r.status)).toEqual(['posted', 'posted', 'posted']);
    expect(now.filter((r) => r.name === 'Coffee Bar')).toHaveLength(2);
    const meal = now.find((r) => r.name === 'Trattoria Roma')!;
    expect(meal).toMatchObject({ categorySlug: coffeeCategory, note: 'team lunch' });
    expect(Number(meal.amount)).toBe(-46);

    const shown = await call('GET', `/transactions/${meal.id}`);
    expect(shown.body.data).toMatchObject({
      category: { slug: coffeeCategory },
      categorySource: { by: 'user' },
      note: 'team lunch',
      tags: [{ name: 'Client' }],
      attachments: [{ name: 'receipt.pdf' }],
      mergedFrom: [{ id: trattoria.id, reason: 'booked', name: 'Trattoria Roma', amount: -40 }],
    });
    // The team's list holds each purchase once.
    const list = await call('GET', `/transactions?accounts=${accountId}`);
    expect(list.body.data).toHaveLength(3);
  }, 90_000);

  it('two identical coffees the bank books on one day without a pending version stay two', async () => {
    const twins = [
      tx({ name: 'Espresso Stand', amount: 2.2, date: daysAgo(1) }),
      tx({ name: 'Espresso Stand', amount: 2.2, date: daysAgo(1) }),
    ];
    bankA.add(item.itemId, twins);
    await sync();
    expect(await rowsOf(twins.map((t) => t.transaction_id))).toHaveLength(2);
  }, 60_000);

  it('a statement import over the synced range creates none twice and says how many matched', async () => {
    const coffeeDay = daysAgo(2);
    const first = await importCsv([
      `${daysAgo(1)},TRATTORIA ROMA,-46.00`,
      `${coffeeDay},COFFEE BAR,-3.50`,
      `${coffeeDay},COFFEE BAR,-3.50`,
      // A third coffee the bank never synced: it is new.
      `${coffeeDay},COFFEE BAR,-3.50`,
      `${daysAgo(1)},Espresso Stand,-2.20`,
      `${daysAgo(1)},Espresso Stand,-2.20`,
      `${daysAgo(1)},Stationery Shop,-12.00`,
    ]);
    expect(first).toMatchObject({ status: 'completed', progress: { rowsRead: 7, created: 2, matched: 5, skipped: 0 } });
    const coffees = await db()('transactions').where({ teamId: teamId(), bankAccountId: accountId, date: coffeeDay, amount: -3.5 });
    expect(coffees).toHaveLength(3);
    expect(await db()('transactions').where({ teamId: teamId(), bankAccountId: accountId, amount: -46 })).toHaveLength(1);

    // The same file again: its new rows by their hash, the rest by the match.
    const again = await importCsv([
      `${daysAgo(1)},TRATTORIA ROMA,-46.00`,
      `${coffeeDay},COFFEE BAR,-3.50`,
      `${coffeeDay},COFFEE BAR,-3.50`,
      `${coffeeDay},COFFEE BAR,-3.50`,
      `${daysAgo(1)},Espresso Stand,-2.20`,
      `${daysAgo(1)},Espresso Stand,-2.20`,
      `${daysAgo(1)},Stationery Shop,-12.00`,
    ]);
    expect(again.progress).toMatchObject({ created: 0 });
    expect(again.progress.skipped + again.progress.matched).toBe(7);
    expect(await db()('transactions').where({ teamId: teamId(), bankAccountId: accountId })).toHaveLength(7);
  }, 90_000);

  it('a manual entry the bank later brings is merged into the synced one, keeping what the user gave it', async () => {
    const created = await call('POST', '/transactions', {
      date: daysAgo(4),
      name: 'Office Depot',
      amount: -25,
      currency: 'EUR',
      categorySlug: coffeeCategory,
      note: 'printer paper',
    });
    expect(created.status).toBe(201);
    const [synced] = [tx({ name: 'OFFICE DEPOT #1207', merchant_name: null, amount: 25, date: daysAgo(3) })];
    bankA.add(item.itemId, [synced]);
    await sync();
    const [row] = await rowsOf([synced.transaction_id]);
    expect(row).toMatchObject({ categorySlug: coffeeCategory, note: 'printer paper', manual: false });
    expect(await db()('transactions').where({ teamId: teamId(), id: created.body.data.id })).toEqual([]);
    expect((await call('GET', `/transactions/${row.id}`)).body.data.mergedFrom).toEqual([
      expect.objectContaining({ id: created.body.data.id, reason: 'duplicate', name: 'Office Depot' }),
    ]);

    // Undone through tRPC: the manual entry is back as it was, and the synced one without what it took over.
    const trpc = trpcAs(stack.api, stack.acme.sessionToken);
    const undone = await trpc.transactions.unmerge.mutate({ id: row.id });
    expect(undone.restored).toEqual(created.body.data);
    expect(undone.transaction).toMatchObject({ id: row.id, category: null, note: null, mergedFrom: [] });
    expect((await trpcError(trpc.transactions.unmerge.mutate({ id: row.id }))).httpStatus).toBe(404);
  }, 60_000);

  it('an undone merge restores both: the pending transaction exactly, and the booked one as the bank sent it', async () => {
    const meal = (await rowsOf([booked.find((b) => b.name === 'Trattoria Roma')!.transaction_id]))[0];
    const res = await call('POST', `/transactions/${meal.id}/unmerge`, { mergedId: annotated.id });
    expect(res.status).toBe(200);
    expect(res.body.data.restored).toEqual(annotated.before);
    expect(res.body.data.transaction).toMatchObject({ id: meal.id, category: null, note: null, tags: [], attachments: [], mergedFrom: [] });
    expect((await call('GET', `/transactions/${annotated.id}`)).body.data).toEqual({ ...annotated.before, mergedFrom: [] });

    // Nothing is left to undo (404), and a bad id is a 400.
    expect((await call('POST', `/transactions/${meal.id}/unmerge`, {})).status).toBe(404);
    expect((await call('POST', '/transactions/not-a-uuid/unmerge', {})).status).toBe(400);
  }, 60_000);

  it('a pending transaction the user annotated survives its withdrawal until the booked one, in a later sync, takes it over', async () => {
    const taxi = tx({ name: 'City Taxi', amount: 18, date: daysAgo(2), pending: true });
    const plain = tx({ name: 'Kiosk', amount: 1.2, date: daysAgo(2), pending: true });
    bankA.add(item.itemId, [taxi, plain]);
    await sync();
    const [row] = await rowsOf([taxi.transaction_id]);
    expect((await call('PATCH', `/transactions/${row.id}`, { note: 'airport' })).status).toBe(200);

    bankA.remove(item.itemId, taxi);
    bankA.remove(item.itemId, plain);
    await sync();
    // The one without anything of the user's goes at once; the annotated one waits for its booking.
    expect((await rowsOf([taxi.transaction_id, plain.transaction_id])).map((r) => r.name)).toEqual(['City Taxi']);

    const booked = { ...taxi, transaction_id: `${taxi.transaction_id}_b`, pending: false, pending_transaction_id: taxi.transaction_id };
    bankA.add(item.itemId, [booked]);
    await sync();
    expect(await rowsOf([taxi.transaction_id])).toEqual([]);
    expect((await rowsOf([booked.transaction_id]))[0]).toMatchObject({ note: 'airport', status: 'posted' });
  }, 60_000);

  it('a pending transaction never booked goes after PENDING_TRANSACTION_MAX_AGE_DAYS, and the team hears of it', async () => {
    const stale = tx({ name: 'Hotel Deposit', amount: 150, date: daysAgo(20), pending: true });
    const fresh = tx({ name: 'Parking', amount: 4, date: daysAgo(2), pending: true });
    bankA.add(item.itemId, [stale, fresh]);
    await sync();
    expect((await rowsOf([stale.transaction_id, fresh.transaction_id])).map((r) => r.name)).toEqual(['Parking']);
    const notices = await db()('notifications').where({ teamId: teamId(), type: 'pending_transactions_expired' });
    expect(notices).toHaveLength(1);
    expect(notices[0].metadata).toMatchObject({ count: 1, maxAgeDays: 14, transactions: [{ name: 'Hotel Deposit', amount: -150 }] });
  }, 60_000);
  it('a pending transaction the user split keeps its split when booked at the same amount, and loses it at another', async () => {
    const hotel = tx({ name: 'Hotel Plaza', amount: 120, date: daysAgo(3), pending: true });
    const dinner = tx({ name: 'Harbour Grill', amount: 60, date: daysAgo(3), pending: true });
    bankA.add(item.itemId, [hotel, dinner]);
    await sync();
    const byName = (rows: { name: string }[], name: string) =>
      rows.find((r) => r.name === name) as { id: string; name: string; amount: string; manualFields: string[]; splits: unknown };
    const first = await rowsOf([hotel.transaction_id, dinner.transaction_id]);
    const [h, d] = [byName(first, 'Hotel Plaza'), byName(first, 'Harbour Grill')];
    const hotelParts = [
      { amount: -90, categorySlug: coffeeCategory, note: 'room' },
      { amount: -30, note: 'minibar' },
    ];
    expect((await call('PUT', `/transactions/${h.id}/splits`, { parts: hotelParts })).status).toBe(200);
    expect((await call('PUT', `/transactions/${d.id}/splits`, { parts: [{ amount: -40 }, { amount: -20 }] })).status).toBe(200);

    // The dinner books with the tip in it.
    const booked = bankA.book(item.itemId, [hotel, dinner], (p) => (p.name === 'Harbour Grill' ? { amount: 66 } : {}));
    await sync();
    expect(await rowsOf([hotel.transaction_id, dinner.transaction_id])).toEqual([]);
    const now = await rowsOf(booked.map((b) => b.transaction_id));
    const [bh, bd] = [byName(now, 'Hotel Plaza'), byName(now, 'Harbour Grill')];
    expect(bh).toMatchObject({ name: 'Hotel Plaza', status: 'posted' });
    expect(bh.manualFields).toContain('splits');
    const shown = (await call('GET', `/transactions/${bh.id}`)).body.data;
    expect(shown.splits).toEqual([
      { amount: -90, category: expect.objectContaining({ slug: coffeeCategory }), tags: [], note: 'room' },
      { amount: -30, category: null, tags: [], note: 'minibar' },
    ]);
    expect(shown.mergedFrom).toEqual([expect.objectContaining({ id: h.id, reason: 'booked' })]);
    expect(bd).toMatchObject({ name: 'Harbour Grill', splits: null });
    expect(Number(bd.amount)).toBe(-66);
    expect((await call('GET', `/transactions/${bd.id}`)).body.data.mergedFrom).toEqual([expect.objectContaining({ id: d.id })]);
  }, 90_000);

  it('a pending transaction the user excluded is still pending: withdrawn, then booked in a later sync, it is one excluded transaction', async () => {
    const gift = tx({ name: 'Gift Shop', amount: 25, date: daysAgo(2), pending: true });
    bankA.add(item.itemId, [gift]);
    await sync();
    const [row] = await rowsOf([gift.transaction_id]);
    expect((await call('PATCH', `/transactions/${row.id}`, { status: 'excluded' })).status).toBe(200);
    expect((await rowsOf([gift.transaction_id]))[0]).toMatchObject({ status: 'excluded', pending: true });

    bankA.remove(item.itemId, gift);
    await sync();
    // The user excluded it: the bank's withdrawal leaves it for its booking.
    expect((await rowsOf([gift.transaction_id])).map((r) => r.id)).toEqual([row.id]);

    const booked = { ...gift, transaction_id: `${gift.transaction_id}_b`, pending: false, pending_transaction_id: gift.transaction_id };
    bankA.add(item.itemId, [booked]);
    await sync();
    expect(await rowsOf([gift.transaction_id])).toEqual([]);
    const [now] = await rowsOf([booked.transaction_id]);
    expect(now).toMatchObject({ status: 'excluded', pending: false });
    expect((await call('GET', `/transactions/${now.id}`)).body.data.mergedFrom).toEqual([
      expect.objectContaining({ id: row.id, reason: 'booked', name: 'Gift Shop' }),
    ]);
    expect(await db()('transactions').where({ teamId: teamId(), bankAccountId: accountId, name: 'Gift Shop' })).toHaveLength(1);
  }, 90_000);

  it('a pending transaction the user excluded that the bank never books expires like any other; an excluded booked one stays', async () => {
    const hold = tx({ name: 'Car Rental Hold', amount: 300, date: daysAgo(5), pending: true });
    const fee = tx({ name: 'Annual Card Fee', amount: 50, date: daysAgo(30) });
    bankA.add(item.itemId, [hold, fee]);
    await sync();
    const h = (await rowsOf([hold.transaction_id]))[0];
    const f = (await rowsOf([fee.transaction_id]))[0];
    for (const id of [h.id, f.id]) expect((await call('PATCH', `/transactions/${id}`, { status: 'excluded' })).status).toBe(200);

    // Still within PENDING_TRANSACTION_MAX_AGE_DAYS: it waits.
    await sync();
    expect((await rowsOf([hold.transaction_id, fee.transaction_id])).map((r) => r.name).sort()).toEqual([
      'Annual Card Fee',
      'Car Rental Hold',
    ]);
    // Weeks on, never booked.
    await db()('transactions')
      .where({ teamId: teamId(), id: h.id })
      .update({ date: daysAgo(20) });
    await sync();
    expect((await rowsOf([hold.transaction_id, fee.transaction_id])).map((r) => r.name)).toEqual(['Annual Card Fee']);
    const notices = await db()('notifications').where({ teamId: teamId(), type: 'pending_transactions_expired' });
    expect(notices.map((n) => n.metadata.transactions)).toContainEqual([
      expect.objectContaining({ name: 'Car Rental Hold', amount: -300 }),
    ]);
  }, 90_000);
});
