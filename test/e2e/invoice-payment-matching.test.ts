import { matchInvoicePayments } from '../../shared/domain/invoice-payment-suggestions/matching';
import { invoiceLifecycleId } from '../../shared/temporal/invoice-lifecycle/contract';
import { requestSync } from '../../shared/temporal/sync-connection/calls';
import { syncConnectionId } from '../../shared/temporal/sync-connection/contract';
import { startBankAFake, type BankAFake } from '../fakes/bank-a';
import { sendJson, statusAndBody } from '../support/api';
import { eventually } from '../support/eventually';
import { withStack } from '../support/stack';
import { trpcAs, trpcError } from '../support/trpc';

// A real worker runs the bank sync and the invoices' lifecycles; the bank is bank-a's fake.
let bankA: BankAFake;
beforeAll(async () => {
  bankA = await startBankAFake();
});
afterAll(async () => {
  await bankA?.close();
});
const stack = withStack('invoice-payments', () => ({ BANK_A_API_URL: bankA.url }));

const json = (method: string, path: string, body?: unknown) =>
  sendJson(stack.api, method, path, stack.acme.sessionToken, body).then(statusAndBody);

async function issued(customerId: string, price: number) {
  const draft = (await json('POST', '/invoices', { currency: 'EUR', customerId, lineItems: [{ name: 'Work', price }] })).body.data;
  return (await json('POST', `/invoices/${draft.id}/finalize`)).body.data as { id: string; invoiceNumber: string; amount: number };
}

const today = new Date().toISOString().slice(0, 10);

describe('incoming bank transactions as invoice payments', () => {
  it('records a transfer naming the invoice with the amount due as its payment, and suggests the less certain ones', async () => {
    const item = bankA.addItem();
    const connection = (await json('POST', '/bank-connections', { provider: 'bank-a', publicToken: item.publicToken })).body.data;
    const sync = () => stack.worker.client.workflow.getHandle(syncConnectionId(connection.id)).result();
    await sync();

    const contoso = (await json('POST', '/customers', { name: 'Contoso' })).body.data;
    const fabrikam = (await json('POST', '/customers', { name: 'Fabrikam' })).body.data;
    const exact = await issued(contoso.id, 1200);
    const byName = await issued(fabrikam.id, 830);
    const partly = await issued(contoso.id, 400);

    // The bank books three incoming transfers: one names the first invoice, one comes from Fabrikam, one pays part of the third.
    const txs = bankA.addTransactions(item.itemId, 3, 7000);
    const incoming = [
      { amount: exact.amount, name: `SEPA CREDIT CONTOSO LTD ${exact.invoiceNumber}` },
      { amount: byName.amount, name: 'FABRIKAM GMBH TRANSFER' },
      { amount: 150, name: `CONTOSO PART PAYMENT ${partly.invoiceNumber}` },
    ];
    // bank-a reports money coming in as a negative amount (Plaid's sign).
    txs.forEach((tx, i) =>
      bankA.modify(item.itemId, { ...tx, amount: -incoming[i].amount, date: today, name: incoming[i].name, merchant_name: null }),
    );
    const signed = await bankA.signUpdatesAvailable(item.itemId);
    await stack.api.fetch('/webhook/bank-a', { method: 'POST', headers: signed.headers, body: signed.raw });
    await sync();

    // Certain: paid at once, through the state machine, and its lifecycle ends.
    const paid = (await json('GET', `/invoices/${exact.id}`)).body.data;
    expect(paid).toMatchObject({ status: 'paid', amountDue: 0, amountPaid: 1200, paymentReference: incoming[0].name });
    const handle = (await stack.api.deps.temporal.client()).workflow.getHandle(invoiceLifecycleId(exact.id));
    await eventually(async () => (await handle.describe()).status.name === 'COMPLETED', 20_000, 'the paid invoice to end its run');
    expect(await stack.tdb.db('notifications').where({ teamId: stack.acme.team.id, type: 'invoice_paid_by_transfer' })).toHaveLength(1);

    // Less certain: waiting for a person.
    const pending = (await json('GET', '/invoice-payment-suggestions')).body.data as {
      id: string;
      reason: string;
      invoice: { id: string };
      transaction: { amount: number };
    }[];
    expect(pending.map((s) => [s.invoice.id, s.reason, s.transaction.amount]).sort()).toEqual(
      [
        [byName.id, 'customer', 830],
        [partly.id, 'number', 150],
      ].sort(),
    );
    const fromFabrikam = pending.find((s) => s.invoice.id === byName.id)!;
    const confirmed = await json('POST', `/invoice-payment-suggestions/${fromFabrikam.id}/confirm`);
    expect(confirmed.body.data).toMatchObject({ status: 'confirmed' });
    expect((await json('GET', `/invoices/${byName.id}`)).body.data).toMatchObject({ status: 'paid', amountDue: 0 });
    expect((await json('POST', `/invoice-payment-suggestions/${fromFabrikam.id}/confirm`)).status).toBe(409);

    const part = pending.find((s) => s.invoice.id === partly.id)!;
    const trpc = trpcAs(stack.api, stack.acme.sessionToken);
    expect(await trpc.invoicePaymentSuggestions.confirm.mutate({ id: part.id })).toMatchObject({ status: 'confirmed' });
    expect((await json('GET', `/invoices/${partly.id}`)).body.data).toMatchObject({ status: 'unpaid', amountPaid: 150, amountDue: 250 });
    expect((await trpc.invoicePaymentSuggestions.get.query({ status: 'pending' })).data).toHaveLength(0);

    // A transaction pays one invoice once: syncing again suggests nothing new.
    await requestSync(
      stack.api.deps.temporal,
      { connectionId: connection.id, teamId: stack.acme.team.id, manualSync: true },
      { institutionName: connection.institutionName, provider: connection.provider },
    );
    await sync();
    expect(await stack.tdb.db('invoice_payment_suggestions').where({ teamId: stack.acme.team.id })).toHaveLength(2);
    expect(await stack.tdb.db('invoice_payments').where({ teamId: stack.acme.team.id })).toHaveLength(3);
  }, 90_000);

  it('matches what is left after a credit note: the remainder, not the invoiced amount; a fully credited invoice nothing', async () => {
    const teamId = stack.acme.team.id;
    const customer = (await json('POST', '/customers', { name: 'Creditwise' })).body.data;
    const invoice = await issued(customer.id, 100);
    const credited = await json('POST', `/invoices/${invoice.id}/credit-notes`, { lineItems: [{ line: 0, amount: 40 }] });
    expect(credited.status).toBe(201);
    const gone = await issued(customer.id, 55.5);
    expect((await json('POST', `/invoices/${gone.id}/credit-notes`, {})).status).toBe(201);

    const tx = async (name: string, amount: number) =>
      (await json('POST', '/transactions', { date: today, name, amount, currency: 'EUR' })).body.data.id as string;
    // The invoiced 100, naming it, is more than is due: neither paid with it nor suggested.
    const whole = await tx(`TRANSFER ${invoice.invoiceNumber}`, 100);
    // The remaining 60 from the customer is what is due: suggested.
    const rest = await tx('CREDITWISE PAYMENT', 60);
    // A fully credited (so canceled) invoice is not paid, even by its number and full amount.
    const forGone = await tx(`TRANSFER ${gone.invoiceNumber}`, 55.5);
    await matchInvoicePayments(stack.tdb.db, stack.api.deps.temporal, teamId);

    const suggested = await stack.tdb.db('invoice_payment_suggestions').whereIn('transactionId', [whole, rest, forGone]);
    expect(suggested.map((s) => [s.transactionId, s.invoiceId, s.reason])).toEqual([[rest, invoice.id, 'customer']]);
    expect(await stack.tdb.db('invoice_payments').whereIn('invoiceId', [invoice.id, gone.id])).toEqual([]);
    const listed = (await json('GET', '/invoice-payment-suggestions')).body.data.find(
      (s: { transaction: { id: string } }) => s.transaction.id === rest,
    );
    expect(listed.invoice).toMatchObject({ id: invoice.id, amountDue: 60 });

    expect((await json('POST', `/invoice-payment-suggestions/${listed.id}/confirm`)).body.data.status).toBe('confirmed');
    expect((await json('GET', `/invoices/${invoice.id}`)).body.data).toMatchObject({
      status: 'paid',
      amountPaid: 60,
      amountCredited: 40,
      amountDue: 0,
    });
  });

  it('declines a suggestion once', async () => {
    const tx = (await json('POST', '/transactions', { date: today, name: 'Unknown payer', amount: 77.7, currency: 'EUR' })).body.data;
    const customer = (await json('POST', '/customers', { name: 'Solo' })).body.data;
    const invoice = await issued(customer.id, 77.7);
    const [row] = await stack.tdb
      .db('invoice_payment_suggestions')
      .insert({ teamId: stack.acme.team.id, invoiceId: invoice.id, transactionId: tx.id, reason: 'amount' })
      .returning('id');
    const id = (row as { id: string }).id;
    expect((await json('POST', `/invoice-payment-suggestions/${id}/decline`)).body.data).toMatchObject({ status: 'declined' });
    expect((await json('POST', `/invoice-payment-suggestions/${id}/decline`)).status).toBe(409);
    expect(await trpcError(trpcAs(stack.api, stack.acme.sessionToken).invoicePaymentSuggestions.decline.mutate({ id }))).toMatchObject({
      httpStatus: 409,
    });
    expect((await json('GET', `/invoices/${invoice.id}`)).body.data.status).toBe('unpaid');

    const other = (await json('POST', '/transactions', { date: today, name: 'Another payer', amount: 77.7, currency: 'EUR' })).body.data;
    const [typed] = await stack.tdb
      .db('invoice_payment_suggestions')
      .insert({ teamId: stack.acme.team.id, invoiceId: invoice.id, transactionId: other.id, reason: 'amount' })
      .returning('id');
    const typedId = (typed as { id: string }).id;
    expect(await trpcAs(stack.api, stack.acme.sessionToken).invoicePaymentSuggestions.decline.mutate({ id: typedId })).toMatchObject({
      id: typedId,
      status: 'declined',
    });
    expect((await json('GET', `/invoices/${invoice.id}`)).body.data.status).toBe('unpaid');
  });
});
