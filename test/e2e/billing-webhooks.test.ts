import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { Webhook } from 'standardwebhooks';
import { startTestApi, type TestApi } from '../support/api';
import { withTestDatabase } from '../support/database';
import { createTeamAndOwner } from '../support/fixtures';
import { notificationsOf } from '../../shared/domain/notifications/service';

const PAYMENTS_SECRET = `whsec_${randomBytes(16).toString('hex')}`;
const SUBSCRIPTIONS_SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const stripe = new Stripe('sk_test_unused');

let api: TestApi;
let acme: Awaited<ReturnType<typeof createTeamAndOwner>>;

const tdb = withTestDatabase({
  setUp: async () => {
    api = await startTestApi(tdb.db, {
      env: { PAYMENTS_WEBHOOK_SECRET: PAYMENTS_SECRET, SUBSCRIPTIONS_WEBHOOK_SECRET: SUBSCRIPTIONS_SECRET },
    });
    acme = await createTeamAndOwner(tdb.db, 'Acme');
  },
  tearDown: async () => {
    await api?.stop();
  },
});

/** Signed exactly as the payments provider signs: the stripe package's own test header. */
function paymentEvent(type: string, object: Record<string, unknown>, id = `evt_${randomBytes(8).toString('hex')}`) {
  const payload = JSON.stringify({ id, object: 'event', type, created: Math.floor(Date.now() / 1000), data: { object } });
  const header = stripe.webhooks.generateTestHeaderString({ payload, secret: PAYMENTS_SECRET });
  return { payload, header, id };
}
const postPayment = (e: { payload: string; header: string }) =>
  api.fetch('/webhook/payments', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'payments-signature': e.header },
    body: e.payload,
  });

async function unpaidInvoice() {
  const res = await api.fetch('/invoices', {
    method: 'POST',
    token: acme.sessionToken,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ currency: 'EUR', lineItems: [{ name: 'Work', price: 100 }] }),
  });
  const { data } = await res.json();
  await api.fetch(`/invoices/${data.id}/finalize`, { method: 'POST', token: acme.sessionToken });
  return data.id as string;
}

describe('payments webhook', () => {
  it('marks the invoice paid with time and reference, notifies, and ignores the redelivery', async () => {
    const invoiceId = await unpaidInvoice();
    const event = paymentEvent('payment_intent.succeeded', {
      id: 'pi_123',
      object: 'payment_intent',
      amount: 10000,
      currency: 'eur',
      metadata: { invoice_id: invoiceId, team_id: acme.team.id },
    });
    expect(await (await postPayment(event)).json()).toEqual({ success: true });
    expect(await (await postPayment(event)).json()).toEqual({ success: true });
    const invoice = await tdb.db('invoices').where({ id: invoiceId }).first();
    expect(invoice).toMatchObject({ status: 'paid', paymentReference: 'pi_123' });
    expect(invoice.paidAt).not.toBeNull();
    const notices = await tdb.db('notifications').where({ teamId: acme.team.id, type: 'invoice_paid' });
    expect(notices).toHaveLength(1);
    expect(await tdb.db('webhook_events').where({ provider: 'payments', eventKey: event.id })).toHaveLength(1);
  });

  it('marks a refunded charge refunded and notifies a failed payment', async () => {
    const invoiceId = await unpaidInvoice();
    const meta = { invoice_id: invoiceId, team_id: acme.team.id };
    await postPayment(
      paymentEvent('payment_intent.payment_failed', {
        id: 'pi_fail',
        object: 'payment_intent',
        metadata: meta,
        last_payment_error: { message: 'card declined' },
      }),
    );
    const failed = await tdb.db('notifications').where({ teamId: acme.team.id, type: 'invoice_payment_failed' }).first();
    expect(failed.metadata).toMatchObject({ invoiceId, reason: 'card declined' });
    await postPayment(paymentEvent('payment_intent.succeeded', { id: 'pi_ok', object: 'payment_intent', metadata: meta }));
    await postPayment(paymentEvent('charge.refunded', { id: 'ch_1', object: 'charge', payment_intent: 'pi_ok', metadata: meta }));
    expect((await tdb.db('invoices').where({ id: invoiceId }).first()).status).toBe('refunded');
  });

  it('records but does not apply a payment for a canceled invoice, and reports it', async () => {
    const invoiceId = await unpaidInvoice();
    expect((await api.fetch(`/invoices/${invoiceId}/cancel`, { method: 'POST', token: acme.sessionToken })).status).toBe(200);
    const event = paymentEvent('payment_intent.succeeded', {
      id: 'pi_late',
      object: 'payment_intent',
      metadata: { invoice_id: invoiceId, team_id: acme.team.id },
    });
    expect(await (await postPayment(event)).json()).toEqual({ success: true });
    expect(await tdb.db('invoices').where({ id: invoiceId }).first()).toMatchObject({
      status: 'canceled',
      paidAt: null,
      paymentReference: null,
    });
    const reports = (await notificationsOf(tdb.db, acme.team.id, 'invoice_payment_unapplied')).filter(
      (n) => n.metadata.invoiceId === invoiceId,
    );
    expect(reports.map((n) => n.metadata)).toEqual([
      expect.objectContaining({ paymentEventId: event.id, event: 'payment', invoiceStatus: 'canceled' }),
    ]);
    expect(await tdb.db('webhook_events').where({ provider: 'payments', eventKey: event.id }).first()).toMatchObject({
      outcome: 'processed',
    });
  });

  it('refunds a paid invoice through the status machine, and leaves an unpaid one alone', async () => {
    const paid = await unpaidInvoice();
    const paidMeta = { invoice_id: paid, team_id: acme.team.id };
    await postPayment(paymentEvent('payment_intent.succeeded', { id: 'pi_r', object: 'payment_intent', metadata: paidMeta }));
    const refund = paymentEvent('charge.refunded', { id: 'ch_r', object: 'charge', payment_intent: 'pi_r', metadata: paidMeta });
    await postPayment(refund);
    const refunded = await tdb.db('invoices').where({ id: paid }).first();
    expect(refunded).toMatchObject({ status: 'refunded', paymentReference: 'pi_r' });
    expect(refunded.refundedAt).not.toBeNull();
    const notices = await notificationsOf(tdb.db, acme.team.id, 'invoice_refunded');
    expect(notices.filter((n) => n.metadata.invoiceId === paid).map((n) => n.metadata.paymentEventId)).toEqual([refund.id]);

    const unpaid = await unpaidInvoice();
    const before = await tdb.db('invoices').where({ id: unpaid }).first();
    await postPayment(
      paymentEvent('charge.refunded', { id: 'ch_u', object: 'charge', metadata: { invoice_id: unpaid, team_id: acme.team.id } }),
    );
    expect(await tdb.db('invoices').where({ id: unpaid }).first()).toEqual(before);
  });

  it("does not let one team's event touch another team's invoice, and rejects bad signatures", async () => {
    const invoiceId = await unpaidInvoice();
    const other = await createTeamAndOwner(tdb.db, 'Other');
    await postPayment(
      paymentEvent('payment_intent.succeeded', { id: 'pi_x', metadata: { invoice_id: invoiceId, team_id: other.team.id } }),
    );
    expect((await tdb.db('invoices').where({ id: invoiceId }).first()).status).toBe('unpaid');

    const e = paymentEvent('payment_intent.succeeded', { id: 'pi_y', metadata: { invoice_id: invoiceId, team_id: acme.team.id } });
    const forged = stripe.webhooks.generateTestHeaderString({ payload: e.payload, secret: 'whsec_wrong' });
    const stale = stripe.webhooks.generateTestHeaderString({
      payload: e.payload,
      secret: PAYMENTS_SECRET,
      timestamp: Math.floor(Date.now() / 1000) - 301,
    });
    for (const header of [forged, stale]) {
      const res = await postPayment({ payload: e.payload, header });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: 'Unauthorized', description: 'Invalid signature' });
    }
    expect((await tdb.db('invoices').where({ id: invoiceId }).first()).status).toBe('unpaid');
  });
});

describe('subscriptions webhook (Standard Webhooks)', () => {
  const wh = new Webhook(SUBSCRIPTIONS_SECRET);
  async function send(type: string, data: Record<string, unknown>) {
    const id = `msg_${randomBytes(8).toString('hex')}`;
    const payload = JSON.stringify({
      type,
      timestamp: new Date().toISOString(),
      data: { id: 'sub_1', customer_id: 'cus_1', metadata: { team_id: acme.team.id }, ...data },
    });
    const now = new Date();
    const headers = {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': wh.sign(id, now, payload),
    };
    return api.fetch('/webhook/subscriptions', { method: 'POST', headers, body: payload });
  }
  const team = () => tdb.db('teams').where({ id: acme.team.id }).first();

  it('follows created → active → past_due → canceled → revoked as a billing customer expects', async () => {
    expect((await send('subscription.created', { status: 'trialing', product: { name: 'Pro' } })).status).toBe(200);
    expect(await team()).toMatchObject({
      plan: 'pro',
      subscriptionStatus: 'trialing',
      subscriptionId: 'sub_1',
      billingCustomerId: 'cus_1',
    });
    await send('subscription.active', { status: 'active', product: { name: 'Pro' } });
    expect(await team()).toMatchObject({ plan: 'pro', subscriptionStatus: 'active' });
    await send('subscription.past_due', { status: 'past_due' });
    expect((await team()).subscriptionStatus).toBe('past_due');
    await send('subscription.canceled', { status: 'active' });
    const canceled = await team();
    expect(canceled).toMatchObject({ plan: 'pro', subscriptionStatus: 'canceled' }); // paid until the period ends
    expect(canceled.canceledAt).not.toBeNull();
    await send('subscription.revoked', { status: 'canceled' });
    expect(await team()).toMatchObject({ plan: 'trial', subscriptionStatus: 'revoked' });
  });

  it('rejects a wrong signature or a stale timestamp', async () => {
    const payload = JSON.stringify({ type: 'subscription.active', data: { id: 'sub_1', metadata: { team_id: acme.team.id } } });
    const old = new Date(Date.now() - 6 * 60_000);
    const cases = [
      {
        'webhook-id': 'm1',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': new Webhook(`whsec_${randomBytes(32).toString('base64')}`).sign('m1', new Date(), payload),
      },
      {
        'webhook-id': 'm2',
        'webhook-timestamp': String(Math.floor(old.getTime() / 1000)),
        'webhook-signature': wh.sign('m2', old, payload),
      },
    ];
    for (const headers of cases) {
      const res = await api.fetch('/webhook/subscriptions', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: payload,
      });
      expect(res.status).toBe(401);
    }
  });
});
