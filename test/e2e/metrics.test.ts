import { startApi, type RunningApi } from '../../api/main';
import { testConfig } from '../support/api';
import { withTestDatabase } from '../support/database';
import { createTeamAndOwner, insertApiKey } from '../support/fixtures';
import { trpcAs } from '../support/trpc';
import { signedDelivery, WEBHOOK_SECRETS } from '../support/webhook-signers';
import type { BankAFake } from '../fakes/bank-a';

/**
 * The API process as main.ts starts it: /metrics on its own listener (not the API's port), scraped
 * after requests through both doors, a refusal of each kind and provider webhooks, shows each
 * metric with the labels and counts those requests gave it, and no id in any label.
 */
const LIMIT = 15;
let api: RunningApi;
const tdb = withTestDatabase({
  setUp: async () => {
    api = await startApi(
      testConfig({
        ...WEBHOOK_SECRETS,
        DATABASE_URL: tdb.url,
        HOST: '127.0.0.1',
        PORT: '0',
        METRICS_PORT: '0',
        DATABASE_POOL_MAX: '7',
        RATE_LIMIT_PER_MINUTE: String(LIMIT),
        // The relays would take up the backlog this test leaves for the gauges to see.
        WEBHOOK_RELAY_INTERVAL: '1h',
        NOTIFICATION_RELAY_INTERVAL: '1h',
        WEBHOOK_DELIVERY_RELAY_INTERVAL: '1h',
      }),
    );
  },
  tearDown: () => api?.stop(),
});

const get = (path: string, token?: string) => fetch(api.url + path, { headers: token ? { authorization: `Bearer ${token}` } : {} });

/** The samples of one metric, as `{labels} value` pairs. */
function samples(text: string, name: string): { labels: Record<string, string>; value: number }[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .map((line) => {
      const [, labelText = '', value] = /^[^{ ]+(?:\{(.*)\})? (\S+)$/.exec(line)!;
      const labels = Object.fromEntries([...labelText.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
      return { labels, value: Number(value) };
    });
}
const valueOf = (text: string, name: string, labels: Record<string, string>) =>
  samples(text, name).find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

describe('/metrics', () => {
  it('counts what the API did, by operation, door, status, limit, provider and outbox, on a port of its own', async () => {
    const owner = await createTeamAndOwner(tdb.db, 'Metrics');
    const member = { teamId: owner.team.id, userId: owner.user.id };
    const full = await insertApiKey(tdb.db, member, ['apis.all']);
    const readTransactions = await insertApiKey(tdb.db, member, ['transactions.read']);
    const burst = await insertApiKey(tdb.db, member, ['apis.all']);

    // Both doors of one declaration.
    expect((await get('/transactions', full)).status).toBe(200);
    expect((await get('/transactions', full)).status).toBe(200);
    await trpcAs({ url: api.url }, full).transactions.get.query();
    // A scope the key lacks (403), a credential nobody issued (401), a path nothing serves (404).
    expect((await get('/invoices', readTransactions)).status).toBe(403);
    expect((await get('/transactions', 'fin_nobody_issued_this')).status).toBe(401);
    expect((await get('/no-such-thing/1', full)).status).toBe(404);
    // One credential past its budget: the rest are 429s.
    const statuses = [];
    for (let i = 0; i < LIMIT + 3; i++) statuses.push((await get('/transactions', burst)).status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);

    // Provider webhooks: accepted, the same event again, and a forged one.
    const event = { id: 'evt_metrics_1', type: 'customer.created', created: 1_780_000_000, data: { object: { id: 'cus_1' } } };
    const post = async (delivery: { raw: string; headers: Record<string, string> }) =>
      (await fetch(`${api.url}/webhook/payments`, { method: 'POST', headers: delivery.headers, body: delivery.raw })).status;
    const signed = await signedDelivery('payments', event, undefined as unknown as BankAFake);
    expect(await post(signed)).toBe(200);
    expect(await post(await signedDelivery('payments', event, undefined as unknown as BankAFake))).toBe(200);
    expect(await post({ raw: signed.raw, headers: { ...signed.headers, 'payments-signature': 't=1,v1=00' } })).toBe(401);

    // A backlog in each outbox, of a known age.
    await tdb.db.raw(
      `insert into webhook_events (provider, event_key, event_type, outcome, payload, received_at)
       values ('payments', 'evt_waiting', 'x', 'received', '{}', now() - interval '2 hours')`,
    );
    const [notification] = await tdb.db('notifications').insert({ teamId: member.teamId, type: 'transactions_created' }, ['id']);
    await tdb.db('notification_deliveries').insert({
      notificationId: (notification as { id: string }).id,
      teamId: member.teamId,
      userId: member.userId,
      createdAt: tdb.db.raw(`now() - interval '30 minutes'`),
    });
    await tdb.db('webhook_endpoints').insert([
      {
        teamId: member.teamId,
        url: 'https://example.com/a',
        eventTypes: ['transaction.created'],
        secretEncrypted: 'x',
        failingSince: new Date(),
      },
      { teamId: member.teamId, url: 'https://example.com/b', eventTypes: ['transaction.created'], secretEncrypted: 'x' },
    ]);

    // Not on the API's port.
    expect((await fetch(`${api.url}/metrics`)).status).toBe(404);
    expect(new URL(api.metricsUrl).port).not.toBe(new URL(api.url).port);
    const res = await fetch(api.metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();

    const requests = 'finops_http_requests_total';
    expect(valueOf(text, requests, { operation: 'transactions.get', door: 'rest', status: '200' })).toBe(2 + LIMIT);
    expect(valueOf(text, requests, { operation: 'transactions.get', door: 'trpc', status: '200' })).toBe(1);
    expect(valueOf(text, requests, { operation: 'invoices.get', door: 'rest', status: '403' })).toBe(1);
    expect(valueOf(text, requests, { operation: 'transactions.get', door: 'rest', status: '401' })).toBe(1);
    // /no-such-thing/1, and /metrics asked of the API's port.
    expect(valueOf(text, requests, { operation: 'unmatched', door: 'http', status: '404' })).toBe(2);
    // Refused before any route: the limit comes first.
    expect(valueOf(text, requests, { operation: 'unmatched', door: 'http', status: '429' })).toBe(3);
    expect(valueOf(text, requests, { operation: 'POST /webhook/payments', door: 'http', status: '200' })).toBe(2);
    expect(valueOf(text, requests, { operation: 'POST /webhook/payments', door: 'http', status: '401' })).toBe(1);

    const latency = 'finops_http_request_duration_seconds';
    expect(valueOf(text, `${latency}_count`, { operation: 'transactions.get', door: 'rest' })).toBe(3 + LIMIT);
    expect(valueOf(text, `${latency}_bucket`, { operation: 'transactions.get', door: 'rest', le: '+Inf' })).toBe(3 + LIMIT);
    expect(valueOf(text, `${latency}_count`, { operation: 'transactions.get', door: 'trpc' })).toBe(1);
    expect(valueOf(text, `${latency}_sum`, { operation: 'transactions.get', door: 'rest' })).toBeGreaterThan(0);

    expect(valueOf(text, 'finops_auth_rejections_total', { reason: 'forbidden' })).toBe(1);
    // The forged webhook is a refusal of the webhook's signature, not of a credential: the 401 counted here is the API's.
    expect(valueOf(text, 'finops_auth_rejections_total', { reason: 'unauthenticated' })).toBe(2);
    expect(valueOf(text, 'finops_rate_limit_rejections_total', { limit: 'requests' })).toBe(3);
    expect(valueOf(text, 'finops_rate_limit_rejections_total', { limit: 'auth_failures' })).toBe(0);

    expect(valueOf(text, 'finops_webhooks_total', { provider: 'payments', outcome: 'accepted' })).toBe(1);
    expect(valueOf(text, 'finops_webhooks_total', { provider: 'payments', outcome: 'redelivery' })).toBe(1);
    expect(valueOf(text, 'finops_webhooks_total', { provider: 'payments', outcome: 'refused_signature' })).toBe(1);
    expect(valueOf(text, 'finops_webhooks_total', { provider: 'payments', outcome: 'failed' })).toBe(0);

    expect(valueOf(text, 'finops_outbox_pending', { outbox: 'webhook_events' })).toBe(1);
    expect(valueOf(text, 'finops_outbox_lag_seconds', { outbox: 'webhook_events' })).toBeGreaterThanOrEqual(7200);
    expect(valueOf(text, 'finops_outbox_pending', { outbox: 'notification_emails' })).toBe(1);
    expect(valueOf(text, 'finops_outbox_lag_seconds', { outbox: 'notification_emails' })).toBeGreaterThanOrEqual(1800);
    expect(valueOf(text, 'finops_outbox_pending', { outbox: 'webhook_deliveries' })).toBe(0);
    expect(valueOf(text, 'finops_outbox_lag_seconds', { outbox: 'webhook_deliveries' })).toBe(0);
    expect(valueOf(text, 'finops_webhook_endpoints_failing', { state: 'failing' })).toBe(1);
    expect(valueOf(text, 'finops_webhook_endpoints_failing', { state: 'disabled' })).toBe(0);

    expect(valueOf(text, 'finops_db_pool_max', {})).toBe(7);
    for (const gauge of ['finops_db_pool_used', 'finops_db_pool_free', 'finops_db_pool_pending'])
      expect(valueOf(text, gauge, {})).toBeGreaterThanOrEqual(0);
    expect(text).toMatch(/^finops_process_cpu_seconds_total /m);

    // Bounded labels: no UUID, token or raw path anywhere.
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
    expect(text).not.toContain('no-such-thing');
    expect(text).not.toContain(full);
  }, 60_000);
});
