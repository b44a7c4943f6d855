import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { startWebhookDeliveryRelay } from '../../api/outbox/webhook-delivery-relay';
import type { RepeatingPass } from '../../api/outbox/repeating-pass';
import { markDisconnected } from '../../shared/domain/bank-connections/status';
import { notificationsOf } from '../../shared/domain/notifications/service';
import { eventPayload } from '../../shared/domain/webhook-endpoints/event-types';
import { importTransactionsId, type ImportTransactionsWorkflow } from '../../shared/temporal/import-transactions/contract';
import { OFX_STATEMENT } from '../fixtures/statements';
import { startBankAFake, type BankAFake } from '../fakes/bank-a';
import { sendJson, startTestApi, statusAndBody, type TestApi } from '../support/api';
import { eventually, eventuallyValue } from '../support/eventually';
import { createTeamAndOwner, insertApiKey } from '../support/fixtures';
import { withStack } from '../support/stack';
import { trpcAs, trpcError } from '../support/trpc';
import { documentedWebhookBody } from '../support/openapi-schema';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

/**
 * Webhooks out, end to end: endpoints registered over REST and tRPC, real events from real changes,
 * delivered by the WebhookDelivery workflow on a real worker to receivers on loopback, signed so
 * that `standardwebhooks` verifies them with the secret shown at creation.
 */
let bankA: BankAFake;
beforeAll(async () => {
  bankA = await startBankAFake();
});
afterAll(async () => {
  await bankA?.close();
});
const stack = withStack('webhooks-out', () => ({
  BANK_A_API_URL: bankA.url,
  WEBHOOKS_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_INITIAL_INTERVAL: '200ms',
  WEBHOOK_RETRY_MAX_INTERVAL: '400ms',
  WEBHOOK_RETRY_WINDOW: '20s',
  WEBHOOK_DISABLE_AFTER: '2s',
  WEBHOOK_TIMEOUT: '5s',
}));
let relay: RepeatingPass;
let other: Awaited<ReturnType<typeof createTeamAndOwner>>;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  // A poll too slow for any test here: every delivery is started at its commit, by the NOTIFY that wakes the relay.
  relay = startWebhookDeliveryRelay(stack.api.deps, { intervalMs: 10 * 60_000 });
  await eventually(
    async () =>
      Boolean(
        await stack.tdb
          .db('pg_stat_activity')
          .where({ applicationName: 'finops webhook_deliveries_due listener', datname: new URL(stack.tdb.url).pathname.slice(1) })
          .whereLike('query', 'listen %')
          .first('pid'),
      ),
    10_000,
    'the relay to listen',
  );
  other = await createTeamAndOwner(stack.tdb.db, 'Other');
});
afterAll(async () => {
  await relay.stop();
  for (const r of receivers) await r.close();
});

async function receiver(opts: Parameters<typeof startWebhookReceiver>[0] = {}) {
  const r = await startWebhookReceiver(opts);
  receivers.push(r);
  return r;
}

const send = (method: string, path: string, body?: unknown, token = stack.acme.sessionToken) =>
  sendJson(stack.api, method, path, token, body).then(statusAndBody);

async function register(url: string, eventTypes: string[]): Promise<{ id: string; secret: string }> {
  const res = await send('POST', '/webhook-endpoints', { url, eventTypes, description: 'ledger sync' });
  expect(res.status).toBe(201);
  return { id: res.body.data.id as string, secret: res.body.data.secret as string };
}

const deliveriesOf = async (endpointId: string, token = stack.acme.sessionToken) =>
  (await send('GET', `/webhook-endpoints/${endpointId}/deliveries`, undefined, token)).body;

describe('webhook endpoints', () => {
  it('registers an endpoint and shows its whsec_ secret once', async () => {
    const r = await receiver();
    const created = await send('POST', '/webhook-endpoints', { url: r.url, eventTypes: ['transaction.created'] });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ url: r.url, eventTypes: ['transaction.created'], enabled: true, description: null });
    expect(created.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    const got = await send('GET', `/webhook-endpoints/${created.body.data.id}`);
    expect(got.body.data).not.toHaveProperty('secret');
    const listed = await send('GET', '/webhook-endpoints');
    expect(JSON.stringify(listed.body)).not.toContain(created.body.data.secret);
    // Stored sealed, not as shown.
    const stored = await stack.tdb.db('webhook_endpoints').where({ id: created.body.data.id }).first<{ secretEncrypted: string }>();
    expect(stored.secretEncrypted).toMatch(/^v2:[0-9a-f]{16}:/);
    expect(stored.secretEncrypted).not.toContain(created.body.data.secret.slice(6));
  });

  it('refuses bad input with 400 details and changes nothing', async () => {
    const before = await stack.tdb.db('webhook_endpoints').count<{ count: number }[]>();
    const res = await send('POST', '/webhook-endpoints', { url: 'ftp://example.com/x', eventTypes: ['transaction.eaten'] });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['eventTypes.0', 'url']);
    expect(await stack.tdb.db('webhook_endpoints').count<{ count: number }[]>()).toEqual(before);
  });

  it('needs teams.write to manage and teams.read to list', async () => {
    const readOnly = await insertApiKey(stack.tdb.db, { teamId: stack.acme.team.id, userId: stack.acme.user.id }, ['teams.read']);
    const r = await receiver();
    expect((await send('POST', '/webhook-endpoints', { url: r.url, eventTypes: ['invoice.paid'] }, readOnly)).status).toBe(403);
    expect((await send('GET', '/webhook-endpoints', undefined, readOnly)).status).toBe(200);
  });
});

describe('the SSRF guard at registration', () => {
  let strict: TestApi;
  beforeAll(async () => {
    strict = await startTestApi(stack.tdb.db, { env: { ...stack.env, WEBHOOKS_ALLOW_PRIVATE: 'false' } });
  });
  afterAll(() => strict.stop());

  it.each([
    'http://127.0.0.1:9/hook',
    'http://localhost:9/hook',
    'http://10.0.0.7/hook',
    'http://[::1]/hook',
    'http://169.254.169.254/latest',
  ])('refuses %s with 400 and details, storing nothing', async (url) => {
    const before = await stack.tdb.db('webhook_endpoints').count<{ count: number }[]>();
    const res = await strict.fetch('/webhook-endpoints', {
      method: 'POST',
      token: stack.acme.sessionToken,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url, eventTypes: ['invoice.paid'] }),
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.details).toEqual([{ field: 'url', message: expect.stringMatching(/not a public address/) }]);
    expect(await stack.tdb.db('webhook_endpoints').count<{ count: number }[]>()).toEqual(before);
  });
});

describe('delivery', () => {
  it('an endpoint failing twice then succeeding gets the event once more, every attempt with the same webhook-id, verifiable with the secret', async () => {
    const r = await receiver({ statuses: [500, 503] });
    const endpoint = await register(r.url, ['transaction.created']);
    const created = await send('POST', '/transactions', { date: '2026-11-20', name: 'Coffee beans', amount: -23.5, currency: 'EUR' });
    expect(created.status).toBe(201);

    const delivered = await eventuallyValue(
      async () => {
        const page = await deliveriesOf(endpoint.id);
        return page.data.find((d: { status: string }) => d.status === 'delivered');
      },
      30_000,
      'the delivery to succeed',
    );
    expect(r.received).toHaveLength(3);
    expect(r.received.map((x) => x.status)).toEqual([500, 503, 200]);
    expect(new Set(r.received.map((x) => x.headers['webhook-id']))).toEqual(new Set([delivered.id]));
    const wh = new Webhook(endpoint.secret);
    for (const x of r.received) {
      const payload = wh.verify(x.body, {
        'webhook-id': String(x.headers['webhook-id']),
        'webhook-timestamp': String(x.headers['webhook-timestamp']),
        'webhook-signature': String(x.headers['webhook-signature']),
      });
      expect(payload).toMatchObject({
        type: 'transaction.created',
        data: { id: created.body.data.id, name: 'Coffee beans', amount: -23.5, currency: 'EUR', manual: true },
      });
    }
    expect(() =>
      new Webhook(`whsec_${Buffer.from('another secret, 32 bytes long!!!').toString('base64')}`).verify(r.received[0].body, {
        'webhook-id': String(r.received[0].headers['webhook-id']),
        'webhook-timestamp': String(r.received[0].headers['webhook-timestamp']),
        'webhook-signature': String(r.received[0].headers['webhook-signature']),
      }),
    ).toThrow();
    expect(delivered).toMatchObject({ eventType: 'transaction.created', attemptCount: 3, lastStatusCode: 200 });
    expect(delivered.attempts).toEqual([
      expect.objectContaining({ attempt: 1, statusCode: 500, responseBody: 'nope 1', error: 'HTTP 500' }),
      expect.objectContaining({ attempt: 2, statusCode: 503, responseBody: 'nope 2', error: 'HTTP 503' }),
      expect.objectContaining({ attempt: 3, statusCode: 200, responseBody: 'thanks', error: null }),
    ]);
    // Delivered: nothing more is sent.
    await new Promise((res) => setTimeout(res, 1500));
    expect(r.received).toHaveLength(3);

    // Replay: a new attempt with the same webhook-id.
    const replayed = await send('POST', `/webhook-endpoints/${endpoint.id}/deliveries/${delivered.id}/replay`);
    expect(replayed.status).toBe(202);
    await eventually(() => Promise.resolve(r.received.length === 4), 15_000, 'the replay to arrive');
    expect(r.received[3].headers['webhook-id']).toBe(delivered.id);
    const after = await eventuallyValue(
      async () => {
        const d = (await send('GET', `/webhook-endpoints/${endpoint.id}/deliveries/${delivered.id}`)).body.data;
        return d.status === 'delivered' && d.attemptCount === 4 ? d : undefined;
      },
      15_000,
      'the replay to be recorded',
    );
    expect(after.attempts.map((a: { attempt: number }) => a.attempt)).toEqual([1, 2, 3, 4]);
  }, 60_000);

  it('real events: an update and a broken bank connection reach their subscribers, and only those', async () => {
    const r = await receiver();
    await register(r.url, ['transaction.updated', 'bank_connection.disconnected']);
    const tx = await send('POST', '/transactions', { date: '2026-11-21', name: 'Train ticket', amount: -59, currency: 'EUR' });
    expect((await send('PATCH', `/transactions/${tx.body.data.id}`, { note: 'business trip' })).status).toBe(200);
    const [conn] = await stack.tdb
      .db('bank_connections')
      .insert({
        teamId: stack.acme.team.id,
        provider: 'bank-b',
        referenceId: 'enr_hooks',
        institutionName: 'Hook Bank',
        status: 'connected',
      })
      .returning<{ id: string }[]>('id');
    await markDisconnected(
      stack.tdb.db,
      { id: conn.id, teamId: stack.acme.team.id, institutionName: 'Hook Bank' },
      { code: 'ITEM_LOGIN_REQUIRED', message: null },
    );
    await eventually(() => Promise.resolve(r.received.length >= 2), 20_000, 'both events to arrive');
    await new Promise((res) => setTimeout(res, 500));
    expect(r.received.map((x) => (JSON.parse(x.body) as { type: string }).type).sort()).toEqual([
      'bank_connection.disconnected',
      'transaction.updated',
    ]);
    const types = r.received.map((x) => JSON.parse(x.body) as { type: string; data: Record<string, unknown> });
    expect(types).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'transaction.updated', data: expect.objectContaining({ id: tx.body.data.id }) }),
        expect.objectContaining({
          type: 'bank_connection.disconnected',
          data: expect.objectContaining({ connectionId: conn.id, code: 'ITEM_LOGIN_REQUIRED' }),
        }),
      ]),
    );
    // The transaction.created of this test went to no one here: this endpoint did not subscribe to it.
    expect(types.filter((t) => t.type === 'transaction.created')).toEqual([]);
  }, 40_000);

  it('real events: a bank connection made and synced sends connected and one transaction.created per new transaction', async () => {
    const r = await receiver();
    await register(r.url, ['transaction.created', 'bank_connection.connected']);
    const item = bankA.addItem();
    bankA.addTransactions(item.itemId, 3);
    const connection = (await send('POST', '/bank-connections', { provider: 'bank-a', publicToken: item.publicToken })).body.data;
    await stack.worker.client.workflow.getHandle(`sync-connection:${connection.id}`).result();
    const synced = await stack.tdb
      .db('transactions')
      .where({ teamId: stack.acme.team.id, manual: false })
      .whereIn('bankAccountId', stack.tdb.db('bank_accounts').where({ bankConnectionId: connection.id }).select('id'))
      .pluck<string[]>('id');
    expect(synced.length).toBeGreaterThanOrEqual(3);
    await eventually(() => Promise.resolve(r.received.length === synced.length + 1), 30_000, 'every event of the sync');
    const events = r.received.map(
      (x) => JSON.parse(x.body) as { type: string; data: { id?: string; connectionId?: string; manual?: boolean } },
    );
    expect(events.filter((e) => e.type === 'bank_connection.connected').map((e) => e.data.connectionId)).toEqual([connection.id]);
    const created = events.filter((e) => e.type === 'transaction.created');
    expect(created.map((e) => e.data.id).sort()).toEqual([...synced].sort());
    expect(created.every((e) => e.data.manual === false)).toBe(true);
  }, 60_000);

  it('real events: a deleted manual transaction, one or in bulk, and those the bank withdraws (sync, webhook) send transaction.deleted with the transaction as it was', async () => {
    const r = await receiver();
    await register(r.url, ['transaction.deleted']);
    const create = async (name: string) =>
      (await send('POST', '/transactions', { date: '2026-11-20', name, amount: -12.5, currency: 'EUR' })).body.data as { id: string };
    const [one, two, three] = [await create('Coffee beans'), await create('Printer paper'), await create('Stamps')];
    const item = bankA.addItem();
    const [byWebhook, bySync] = bankA.addTransactions(item.itemId, 2);
    const connection = (await send('POST', '/bank-connections', { provider: 'bank-a', publicToken: item.publicToken })).body.data;
    const synced = () => stack.worker.client.workflow.getHandle(`sync-connection:${connection.id}`).result();
    await synced();
    const bankRow = (tx: { transaction_id: string }) =>
      stack.tdb.db('transactions').where({ teamId: stack.acme.team.id, providerTransactionId: tx.transaction_id }).first('id');
    const bySyncId = (await bankRow(bySync)).id as string;
    const byWebhookId = (await bankRow(byWebhook)).id as string;

    // Refused deletes send nothing: a bank-synced transaction, alone or among manual ones (all or none).
    expect((await send('DELETE', `/transactions/${byWebhookId}`)).status).toBe(409);
    expect((await send('DELETE', '/transactions/bulk', { ids: [two.id, byWebhookId] })).status).toBe(409);
    expect((await send('DELETE', `/transactions/${one.id}`)).status).toBe(204);
    expect((await send('DELETE', '/transactions/bulk', { ids: [two.id, three.id] })).status).toBe(200);
    bankA.remove(item.itemId, bySync);
    expect((await send('POST', `/bank-connections/${connection.id}/sync`)).status).toBe(202);
    await synced();
    // And the other, by the bank's TRANSACTIONS_REMOVED webhook.
    const signed = await bankA.sign({
      environment: 'sandbox',
      webhook_type: 'TRANSACTIONS',
      webhook_code: 'TRANSACTIONS_REMOVED',
      item_id: item.itemId,
      removed_transactions: [byWebhook.transaction_id],
      error: null,
    });
    expect((await stack.api.fetch('/webhook/bank-a', { method: 'POST', headers: signed.headers, body: signed.raw })).status).toBe(200);

    await eventually(() => Promise.resolve(r.received.length >= 5), 20_000, 'five deletions to be announced');
    await new Promise((res) => setTimeout(res, 500));
    const events = r.received.map((x) => JSON.parse(x.body) as { type: string; data: { id: string; name: string; manual: boolean } });
    expect(events.every((e) => e.type === 'transaction.deleted')).toBe(true);
    expect(events.map((e) => e.data.id).sort()).toEqual([one.id, two.id, three.id, bySyncId, byWebhookId].sort());
    expect(events.find((e) => e.data.id === one.id)?.data).toMatchObject({ name: 'Coffee beans', amount: -12.5, manual: true });
    expect(events.find((e) => e.data.id === bySyncId)?.data).toMatchObject({ manual: false });
    expect(await stack.tdb.db('transactions').whereIn('id', [one.id, two.id, three.id, bySyncId, byWebhookId]).pluck('id')).toEqual([]);
  }, 60_000);

  it('real events: an import sends one transaction.created per imported row, and a re-import of the file none', async () => {
    const r = await receiver();
    const endpoint = await register(r.url, ['transaction.created']);
    const [account] = await stack.tdb
      .db('bank_accounts')
      .insert({ teamId: stack.acme.team.id, name: 'Imported statements', currency: 'EUR', manual: true })
      .returning<{ id: string }[]>('id');
    const importStatement = async () => {
      const form = new FormData();
      form.append('bankAccountId', account.id);
      form.append('file', new Blob([OFX_STATEMENT]), 'statement.ofx');
      const res = await stack.api.fetch('/transactions/import', { method: 'POST', token: stack.acme.sessionToken, body: form });
      expect(res.status).toBe(202);
      const { id } = (await res.json()).data as { id: string };
      return stack.worker.client.workflow.getHandle<ImportTransactionsWorkflow>(importTransactionsId(id)).result();
    };
    const deliveryCount = async () =>
      (await stack.tdb.db('webhook_deliveries').where({ endpointId: endpoint.id }).count<{ n: number }[]>({ n: '*' }))[0].n;

    expect(await importStatement()).toMatchObject({ stage: 'completed', created: 3, skipped: 0 });
    const imported = await stack.tdb.db('transactions').where({ bankAccountId: account.id }).pluck<string[]>('id');
    expect(imported).toHaveLength(3);
    await eventually(() => Promise.resolve(r.received.length === imported.length), 20_000, 'every imported row to be announced');
    const events = r.received.map(
      (x) => JSON.parse(x.body) as { type: string; data: { id: string; bankAccountId: string; manual: boolean } },
    );
    expect(events.map((e) => e.type)).toEqual(['transaction.created', 'transaction.created', 'transaction.created']);
    expect(events.map((e) => e.data.id).sort()).toEqual([...imported].sort());
    expect(events.every((e) => e.data.bankAccountId === account.id && e.data.manual)).toBe(true);
    expect(events.find((e) => e.data.id === imported[0])?.data).toEqual(
      expect.objectContaining({ amount: expect.any(Number), date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), status: 'posted' }),
    );
    await eventually(
      async () => (await deliveriesOf(endpoint.id)).data.every((d: { status: string }) => d.status === 'delivered'),
      15_000,
      'the deliveries to be recorded as delivered',
    );

    expect(await importStatement()).toMatchObject({ stage: 'completed', created: 0, skipped: 3 });
    expect(await deliveryCount()).toBe(3);
    await new Promise((res) => setTimeout(res, 1000));
    expect(r.received).toHaveLength(3);
  }, 60_000);

  it('real events: invoice overdue and paid, inbox matched, document processed', async () => {
    const r = await receiver();
    await register(r.url, ['invoice.overdue', 'invoice.paid', 'inbox.matched', 'document.processed']);
    const customer = await send('POST', '/customers', { name: 'Hooked Ltd', email: 'ap@hooked.example' });
    const draft = await send('POST', '/invoices', {
      currency: 'EUR',
      customerId: customer.body.data.id,
      issueDate: '2026-10-01',
      dueDate: '2026-10-05',
      lineItems: [{ name: 'Consulting', quantity: 1, price: 100 }],
    });
    const invoiceId = draft.body.data.id as string;
    expect((await send('POST', `/invoices/${invoiceId}/finalize`)).status).toBe(200);
    const received = () => r.received.map((x) => JSON.parse(x.body) as { type: string; data: Record<string, unknown> });
    // Past its due date: the lifecycle marks it overdue at once.
    await eventually(() => Promise.resolve(received().some((e) => e.type === 'invoice.overdue')), 30_000, 'invoice.overdue');
    const due = (await send('GET', `/invoices/${invoiceId}`)).body.data.amountDue as number;
    expect((await send('POST', `/invoices/${invoiceId}/payments`, { amount: due })).status).toBe(201);

    const tx = await send('POST', '/transactions', { date: '2026-11-22', name: 'Stationery', amount: -12, currency: 'EUR' });
    const [item] = await stack.tdb
      .db('inbox_items')
      .insert({
        teamId: stack.acme.team.id,
        source: 'email',
        reference: 'hooks-receipt',
        status: 'pending',
        displayName: 'Stationery receipt',
        amount: 12,
      })
      .returning<{ id: string }[]>('id');
    expect((await send('POST', `/inbox/${item.id}/match`, { transactionId: tx.body.data.id })).status).toBe(200);

    const form = new FormData();
    form.append('file', new Blob(['Lease agreement for the office, signed 2026-11-01']), 'lease.txt');
    const uploaded = await stack.api.fetch('/documents', { method: 'POST', token: stack.acme.sessionToken, body: form });
    expect(uploaded.status).toBeLessThan(300);

    await eventually(() => Promise.resolve(received().length >= 4), 40_000, 'all four events');
    const byType = new Map(received().map((e) => [e.type, e.data]));
    expect(byType.get('invoice.overdue')).toMatchObject({ invoiceId, dueDate: '2026-10-05' });
    expect(byType.get('invoice.paid')).toMatchObject({ invoiceId, status: 'paid', paidAt: expect.any(String) });
    expect(byType.get('inbox.matched')).toEqual({ inboxItemId: item.id, transactionId: tx.body.data.id, via: 'api' });
    expect(byType.get('document.processed')).toMatchObject({ name: 'lease.txt', kind: expect.any(String) });
    expect(
      received()
        .map((e) => e.type)
        .sort(),
    ).toEqual(['document.processed', 'inbox.matched', 'invoice.overdue', 'invoice.paid']);
  }, 90_000);

  it('an endpoint failing past the disable window is disabled and the team notified', async () => {
    const r = await receiver({ otherwise: 500 });
    const endpoint = await register(r.url, ['invoice.overdue']);
    const test = await send('POST', `/webhook-endpoints/${endpoint.id}/test`);
    expect(test.status).toBe(202);
    expect(test.body.data).toMatchObject({ eventType: 'webhook.test', endpointId: endpoint.id });
    const disabled = await eventuallyValue(
      async () => {
        const e = (await send('GET', `/webhook-endpoints/${endpoint.id}`)).body.data;
        return e.enabled ? undefined : e;
      },
      30_000,
      'the endpoint to be disabled',
    );
    expect(disabled.disabledReason).toMatch(/every delivery failed since/);
    expect(disabled.failingSince).toEqual(expect.any(String));
    const notices = await notificationsOf(stack.tdb.db, stack.acme.team.id, 'webhook_endpoint_disabled');
    expect(notices.filter((n) => n.metadata.endpointId === endpoint.id)).toEqual([
      expect.objectContaining({ metadata: expect.objectContaining({ url: r.url, lastError: 'HTTP 500' }) }),
    ]);
    const delivery = await eventuallyValue(
      async () => {
        const d = (await deliveriesOf(endpoint.id)).data[0];
        return d.status === 'failed' ? d : undefined;
      },
      15_000,
      'the delivery to be given up',
    );
    expect(delivery.attempts.length).toBe(r.received.length);
    // Disabled: a new event is not queued for it, and the test event is refused.
    expect((await send('POST', `/webhook-endpoints/${endpoint.id}/test`)).status).toBe(409);
    // Re-enabled: delivering again.
    r.answer(200);
    const enabled = await send('PATCH', `/webhook-endpoints/${endpoint.id}`, { enabled: true });
    expect(enabled.body.data).toMatchObject({ enabled: true, disabledAt: null, disabledReason: null, failingSince: null });
  }, 60_000);
});

describe('the relay', () => {
  it('sweeps up a delivery whose start was lost with its process', async () => {
    const r = await receiver();
    const endpoint = await register(r.url, ['invoice.paid']);
    // As if a process claimed it two minutes ago and died before starting its workflow (no NOTIFY comes for it).
    const [row] = await stack.tdb
      .db('webhook_deliveries')
      .insert({
        teamId: stack.acme.team.id,
        endpointId: endpoint.id,
        eventId: randomUUID(),
        eventType: 'invoice.paid',
        payload: eventPayload('invoice.paid', {
          invoiceId: randomUUID(),
          invoiceNumber: 'INV-0077',
          status: 'paid',
          dueDate: '2026-11-30',
          paidAt: new Date().toISOString(),
        }),
        status: 'starting',
        claimedAt: new Date(Date.now() - 120_000),
      })
      .returning<{ id: string }[]>('id');
    expect(await relay.runOnce()).toBeGreaterThanOrEqual(1);
    await eventually(() => Promise.resolve(r.received.length === 1), 15_000, 'the swept-up delivery');
    expect(r.received[0].headers['webhook-id']).toBe(row.id);
    expect(await relay.runOnce()).toBe(0);
  }, 30_000);
});

describe('tenancy', () => {
  it('another team cannot see, replay or change an endpoint or its deliveries (404)', async () => {
    const r = await receiver();
    const endpoint = await register(r.url, ['invoice.paid']);
    const test = await send('POST', `/webhook-endpoints/${endpoint.id}/test`);
    const deliveryId = test.body.data.id as string;
    await eventually(() => Promise.resolve(r.received.length === 1), 15_000, 'the test event');
    const token = other.sessionToken;
    for (const [method, path, body] of [
      ['GET', `/webhook-endpoints/${endpoint.id}`],
      ['GET', `/webhook-endpoints/${endpoint.id}/deliveries`],
      ['GET', `/webhook-endpoints/${endpoint.id}/deliveries/${deliveryId}`],
      ['POST', `/webhook-endpoints/${endpoint.id}/deliveries/${deliveryId}/replay`],
      ['POST', `/webhook-endpoints/${endpoint.id}/test`],
      ['POST', `/webhook-endpoints/${endpoint.id}/rotate-secret`],
      ['PATCH', `/webhook-endpoints/${endpoint.id}`, { enabled: false }],
      ['DELETE', `/webhook-endpoints/${endpoint.id}`],
    ] as const) {
      const res = await send(method, path, body, token);
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
    expect((await send('GET', '/webhook-endpoints', undefined, token)).body.data).toEqual([]);
    await new Promise((res) => setTimeout(res, 500));
    expect(r.received).toHaveLength(1);
    expect((await send('GET', `/webhook-endpoints/${endpoint.id}`)).body.data.enabled).toBe(true);
  }, 30_000);
});

describe('tRPC webhookEndpoints', () => {
  it('manages endpoints and deliveries through the typed client', async () => {
    const r = await receiver();
    const trpc = trpcAs(stack.api, stack.acme.sessionToken);
    const created = await trpc.webhookEndpoints.create.mutate({ url: r.url, eventTypes: ['document.processed'] });
    expect(created.secret).toMatch(/^whsec_/);
    expect((await trpc.webhookEndpoints.getById.query({ id: created.id })).url).toBe(r.url);
    expect((await trpc.webhookEndpoints.get.query({})).data.map((e) => e.id)).toContain(created.id);
    const updated = await trpc.webhookEndpoints.update.mutate({
      id: created.id,
      data: { eventTypes: ['document.processed', 'invoice.paid'] },
    });
    expect(updated.eventTypes).toEqual(['document.processed', 'invoice.paid']);
    const rotated = await trpc.webhookEndpoints.rotateSecret.mutate({ id: created.id });
    expect(rotated.secret).not.toBe(created.secret);

    const test = await trpc.webhookEndpoints.sendTest.mutate({ id: created.id });
    await eventually(
      async () => (await trpc.webhookEndpoints.delivery.query({ id: created.id, deliveryId: test.id })).status === 'delivered',
      15_000,
    );
    // Signed with the rotated secret.
    const x = r.received[0];
    expect(
      new Webhook(rotated.secret).verify(x.body, {
        'webhook-id': String(x.headers['webhook-id']),
        'webhook-timestamp': String(x.headers['webhook-timestamp']),
        'webhook-signature': String(x.headers['webhook-signature']),
      }),
    ).toMatchObject({ type: 'webhook.test', data: { endpointId: created.id } });
    const page = await trpc.webhookEndpoints.deliveries.query({ id: created.id, pageSize: 1 });
    expect(page.data).toHaveLength(1);
    expect(page.data[0].attempts).toEqual([expect.objectContaining({ statusCode: 200 })]);
    await trpc.webhookEndpoints.replayDelivery.mutate({ id: created.id, deliveryId: test.id });
    await eventually(() => Promise.resolve(r.received.length === 2), 15_000, 'the replay');
    expect(r.received[1].headers['webhook-id']).toBe(test.id);

    const otherTrpc = trpcAs(stack.api, other.sessionToken);
    expect((await trpcError(otherTrpc.webhookEndpoints.replayDelivery.mutate({ id: created.id, deliveryId: test.id }))).httpStatus).toBe(
      404,
    );
    await trpc.webhookEndpoints.delete.mutate({ id: created.id });
    expect((await trpcError(trpc.webhookEndpoints.getById.query({ id: created.id }))).httpStatus).toBe(404);
  }, 40_000);
});

// Last in the file: it reads what every test above made the real sender deliver.
describe('the OpenAPI document', () => {
  it('describes every event delivered above, whole, in its webhooks section, and every event it documents was delivered', async () => {
    const doc = (await (await stack.api.fetch('/openapi.json')).json()) as Record<string, unknown>;
    const delivered = receivers.flatMap((r) => r.received.map((x) => JSON.parse(x.body) as { type: string }));
    for (const payload of delivered) {
      const checked = documentedWebhookBody(doc, payload.type).safeParse(payload);
      expect({ payload, issues: checked.error?.issues ?? [] }).toEqual({ payload, issues: [] });
    }
    expect([...new Set(delivered.map((p) => p.type))].sort()).toEqual(Object.keys(doc.webhooks as object).sort());
  });
});
