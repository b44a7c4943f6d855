import { startBankBFake, type BankBFake } from '../fakes/bank-b';
import { sendJson, statusAndBody } from '../support/api';
import { withStack } from '../support/stack';

/**
 * The ledger against the bank-b fake, a provider that links no booked transaction to its pending
 * one and lists every transaction again on each sync: the matcher pairs a booked transaction with
 * its pending one (same account, amount within a tolerance, a date days later, a similar name), and
 * what a rule or a person set on a transaction survives the provider's next listing of it.
 */
let bankB: BankBFake;
beforeAll(async () => {
  bankB = await startBankBFake({ applicationId: 'app_ledger_test' });
});
afterAll(async () => {
  await bankB?.close();
});
const stack = withStack('bank-b-ledger', () => ({ BANK_B_API_URL: bankB.url, BANK_B_APPLICATION_ID: 'app_ledger_test' }));

const call = (method: string, path: string, body?: unknown) =>
  sendJson(stack.api, method, path, stack.acme.sessionToken, body).then(statusAndBody);
const db = () => stack.tdb.db;
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

type Enrollment = ReturnType<BankBFake['addEnrollment']>;
type BankBTransaction = Enrollment['transactions'][number];
let enrollment: Enrollment;
let connectionId: string;
let seq = 0;

/** A bank-b transaction of the enrollment (bank-b's sign: negative is money out). */
const tx = (fields: Partial<BankBTransaction> & { name: string; amount: string; date: string }): BankBTransaction => {
  const { name, ...rest } = fields;
  return {
    id: `txn_ledger_${++seq}`,
    account_id: enrollment.account.id,
    description: `CARD ${name.toUpperCase()}`,
    status: 'posted',
    type: 'card_payment',
    details: { counterparty: { name } },
    ...rest,
  };
};

/** What bank-b lists now: the given transactions replace any of the same id, new ones go first (newest first). */
const list = (...txs: BankBTransaction[]) => {
  for (const t of txs) {
    const at = enrollment.transactions.findIndex((x) => x.id === t.id);
    if (at >= 0) enrollment.transactions[at] = t;
    else enrollment.transactions.unshift(t);
  }
};
const withdraw = (t: BankBTransaction) => {
  enrollment.transactions = enrollment.transactions.filter((x) => x.id !== t.id);
};

const sync = async () => {
  const res = await call('POST', `/bank-connections/${connectionId}/sync`);
  expect(res.status).toBeLessThan(300);
  await stack.worker.client.workflow.getHandle(`sync-connection:${connectionId}`).result();
};

const rowOf = (providerTransactionId: string) =>
  db()('transactions').where({ teamId: stack.acme.team.id, providerTransactionId }).first<Record<string, unknown> | undefined>();

beforeAll(async () => {
  await db()('transaction_categories').insert({ teamId: stack.acme.team.id, name: 'Meals', slug: 'meals' });
  enrollment = bankB.addEnrollment();
  const created = await call('POST', '/bank-connections/exchange', {
    provider: 'bank-b',
    accessToken: enrollment.accessToken,
    enrollmentId: enrollment.enrollmentId,
  });
  expect(created.status).toBe(201);
  connectionId = created.body.data.id;
  await stack.worker.client.workflow.getHandle(`sync-connection:${connectionId}`).result();
});

describe('bank-b: pending → booked without a link', () => {
  it('a booked transaction under a new id takes over the pending one the user annotated: one transaction, with the category and note', async () => {
    const pending = tx({ name: 'Trattoria Roma', amount: '-40.00', date: daysAgo(4), status: 'pending' });
    // A second, unrelated pending transaction on the same day stays as it is.
    const other = tx({ name: 'City Parking', amount: '-6.00', date: daysAgo(4), status: 'pending' });
    list(pending, other);
    await sync();
    const first = await rowOf(pending.id);
    expect(first).toMatchObject({ status: 'pending', name: 'Trattoria Roma' });
    const patched = await call('PATCH', `/transactions/${String(first!.id)}`, { categorySlug: 'meals', note: 'client lunch' });
    expect(patched.status).toBe(200);

    // The bank books it two days later under a new id, the tip in the amount, and lists the pending one no more.
    withdraw(pending);
    const booked = tx({ name: 'TRATTORIA ROMA BERLIN', amount: '-46.00', date: daysAgo(2) });
    list(booked);
    await sync();

    expect(await rowOf(pending.id)).toBeUndefined();
    const row = await rowOf(booked.id);
    expect(row).toMatchObject({ categorySlug: 'meals', note: 'client lunch', status: 'posted', amount: -46 });
    const shown = await call('GET', `/transactions/${String(row!.id)}`);
    expect(shown.body.data).toMatchObject({
      category: { slug: 'meals' },
      categorySource: { by: 'user' },
      note: 'client lunch',
      mergedFrom: [{ id: first!.id, reason: 'booked', name: 'Trattoria Roma', amount: -40 }],
    });
    const trattorias = await db()('transactions').where({ teamId: stack.acme.team.id }).whereILike('name', '%trattoria%');
    expect(trattorias).toHaveLength(1);
    expect(await rowOf(other.id)).toMatchObject({ status: 'pending', name: 'City Parking' });

    // The next listing (bank-b lists everything again) changes nothing.
    await sync();
    expect(await db()('transactions').where({ teamId: stack.acme.team.id }).whereILike('name', '%trattoria%')).toHaveLength(1);
    expect(await rowOf(booked.id)).toMatchObject({ categorySlug: 'meals', note: 'client lunch' });
  }, 90_000);
});

describe('a re-sync keeps what a rule or a person set, and takes the bank’s facts', () => {
  it('a status a rule set (excluded) or a person set (completed) survives the next sync of the same transaction; amount, date and pending → posted update', async () => {
    const rule = await call('POST', '/transaction-rules', {
      name: 'Internal transfers',
      conditions: { any: [{ all: [{ field: 'name', operator: 'contains', value: 'own account' }] }] },
      actions: { status: 'excluded', note: 'moved between our accounts' },
    });
    expect(rule.status).toBe(201);
    const transfer = tx({ name: 'Transfer to own account', amount: '-500.00', date: daysAgo(3), status: 'pending', type: 'transfer' });
    const hotel = tx({ name: 'Hotel Adlon', amount: '-220.00', date: daysAgo(3) });
    const taxi = tx({ name: 'Taxi Berlin', amount: '-18.00', date: daysAgo(3), status: 'pending' });
    list(transfer, hotel, taxi);
    await sync();
    expect(await rowOf(transfer.id)).toMatchObject({ status: 'excluded', note: 'moved between our accounts' });
    const hotelRow = await rowOf(hotel.id);
    expect((await call('PATCH', `/transactions/${String(hotelRow!.id)}`, { status: 'completed' })).status).toBe(200);

    // The bank lists the same transactions again: booked now, a day later, with other amounts.
    list(
      { ...transfer, status: 'posted', amount: '-510.00', date: daysAgo(2) },
      { ...hotel, amount: '-225.00', date: daysAgo(2) },
      { ...taxi, status: 'posted', amount: '-19.50', date: daysAgo(2) },
    );
    await sync();

    const shown = await call('GET', `/transactions/${String((await rowOf(transfer.id))!.id)}`);
    expect(shown.body.data).toMatchObject({ status: 'excluded', note: 'moved between our accounts', amount: -510, date: daysAgo(2) });
    expect(await rowOf(hotel.id)).toMatchObject({ status: 'completed', amount: -225 });
    expect(await rowOf(taxi.id)).toMatchObject({ status: 'posted', amount: -19.5 });
  }, 90_000);
});
