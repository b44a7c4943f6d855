import { pdfReceipt } from '../fixtures/receipts';
import { startBankAFake, type BankAFake } from '../fakes/bank-a';
import { signedDelivery, startMessagingFake } from '../fakes/messaging';
import { createTeamAndOwner } from '../support/fixtures';
import { withStack } from '../support/stack';
import { receiptIngestionId, type ReceiptIngestionWorkflow } from '../../shared/temporal/receipt-ingestion/contract';

let bankA: BankAFake;
let messaging: Awaited<ReturnType<typeof startMessagingFake>>;

beforeAll(async () => {
  bankA = await startBankAFake();
  messaging = await startMessagingFake('tok');
});
afterAll(async () => {
  await bankA?.close();
  await messaging?.close();
});
const stack = withStack('rematch', () => ({
  BANK_A_API_URL: bankA.url,
  MESSAGING_API_URL: messaging.url,
  MESSAGING_ACCESS_TOKEN: 'tok',
  MESSAGING_APP_SECRET: 'sec',
}));

describe('a receipt waiting for its transaction', () => {
  it('is matched when the bank sync brings the transaction in', async () => {
    const owner = await createTeamAndOwner(stack.tdb.db, 'Waiting');
    await stack.tdb.db('messaging_connections').insert({ teamId: owner.team.id, phoneNumber: '4917000000001' });
    const item = bankA.addItem();
    const res = await stack.api.fetch('/bank-connections', {
      method: 'POST',
      token: owner.sessionToken,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'bank-a', publicToken: item.publicToken }),
    });
    const connection = (await res.json()).data;
    await stack.worker.client.workflow.getHandle(`sync-connection:${connection.id}`).result();

    messaging.addMedia(
      'm1',
      await pdfReceipt({ merchant: 'Hotel Adlon', date: '2026-06-12', items: [['Room', 310]], vatRate: 7, currency: 'EUR' }),
      'application/pdf',
    );
    const delivery = signedDelivery('sec', [
      { from: '4917000000001', id: 'wamid.hotel', type: 'document', document: { id: 'm1', mime_type: 'application/pdf' } },
    ]);
    await stack.api.fetch('/webhook/messaging', { method: 'POST', headers: delivery.headers, body: delivery.raw });
    const first = await stack.worker.client.workflow
      .getHandle<ReceiptIngestionWorkflow>(receiptIngestionId(owner.team.id, 'wamid.hotel'))
      .result();
    expect(first.stage).toBe('no_match');

    // The bank books it three days later; the sync re-runs matching for open receipts.
    const [tx] = bankA.addTransactions(item.itemId, 1, 9000);
    bankA.modify(item.itemId, { ...tx, amount: 310, date: '2026-06-14', name: 'HOTEL ADLON KEMPINSKI', merchant_name: 'Hotel Adlon' });
    const signed = await bankA.signUpdatesAvailable(item.itemId);
    await stack.api.fetch('/webhook/bank-a', { method: 'POST', headers: signed.headers, body: signed.raw });
    await stack.worker.client.workflow.getHandle(`sync-connection:${connection.id}`).result();

    const inbox = await stack.tdb.db('inbox_items').where({ teamId: owner.team.id, reference: 'wamid.hotel' }).first();
    expect(inbox.status).toBe('suggested_match');
    const stored = await stack.tdb.db('transactions').where({ providerTransactionId: tx.transaction_id }).first();
    expect(await stack.tdb.db('match_suggestions').where({ inboxItemId: inbox.id }).first()).toMatchObject({
      transactionId: stored.id,
      status: 'pending',
    });
    expect(await stack.tdb.db('notifications').where({ teamId: owner.team.id, type: 'inbox_needs_review' })).toHaveLength(1);
  });
});
