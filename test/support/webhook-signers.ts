import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { Webhook } from 'standardwebhooks';
import type { WebhookProvider } from '../../shared/db/models';
import type { BankAFake } from '../fakes/bank-a';
import { signBankBText } from '../fakes/bank-b';

/** The secrets a test configures the gateway with, so it can sign deliveries as each provider does. */
export const WEBHOOK_SECRETS = {
  BANK_B_WEBHOOK_SECRETS: 'fuzz-bank-b-secret',
  MESSAGING_APP_SECRET: 'fuzz-messaging-secret',
  PAYMENTS_WEBHOOK_SECRET: 'whsec_fuzzpaymentssecret0123456789',
  SUBSCRIPTIONS_WEBHOOK_SECRET: `whsec_${Buffer.from('fuzz-subscriptions-secret-32bytes').toString('base64')}`,
  INBOX_WEBHOOK_USERNAME: 'inbox',
  INBOX_WEBHOOK_PASSWORD: 'fuzz-inbox-password',
};

const stripe = new Stripe('sk_test_unused');
let deliveries = 0;

type SignedDelivery = { raw: string; headers: Record<string, string> };

/** A delivery of `payload` signed exactly as the provider signs it: the raw body and its headers. */
export const signedDelivery = (provider: WebhookProvider, payload: unknown, bankA: BankAFake): Promise<SignedDelivery> =>
  provider === 'bank-a' ? bankA.sign(payload) : signedText(provider, JSON.stringify(payload), bankA);

/** A delivery of the body text `raw`, signed as the provider signs it: for bodies JSON.stringify cannot write. */
export async function signedText(provider: WebhookProvider, raw: string, bankA: BankAFake): Promise<SignedDelivery> {
  const json = { 'content-type': 'application/json' };
  switch (provider) {
    case 'bank-a':
      return { raw, headers: (await bankA.sign(null, { bodyOverride: raw })).headers };
    case 'bank-b':
      return signBankBText(raw, [WEBHOOK_SECRETS.BANK_B_WEBHOOK_SECRETS]);
    case 'messaging':
      return {
        raw,
        headers: {
          ...json,
          'x-hub-signature-256': `sha256=${createHmac('sha256', WEBHOOK_SECRETS.MESSAGING_APP_SECRET).update(raw).digest('hex')}`,
        },
      };
    case 'payments':
      return {
        raw,
        headers: {
          ...json,
          'payments-signature': stripe.webhooks.generateTestHeaderString({ payload: raw, secret: WEBHOOK_SECRETS.PAYMENTS_WEBHOOK_SECRET }),
        },
      };
    case 'subscriptions': {
      const id = `msg_fuzz_${++deliveries}_${Date.now()}`;
      const at = new Date();
      const signature = new Webhook(WEBHOOK_SECRETS.SUBSCRIPTIONS_WEBHOOK_SECRET).sign(id, at, raw);
      return {
        raw,
        headers: {
          ...json,
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signature,
        },
      };
    }
    case 'inbox':
      return {
        raw,
        headers: {
          ...json,
          authorization: `Basic ${Buffer.from(`${WEBHOOK_SECRETS.INBOX_WEBHOOK_USERNAME}:${WEBHOOK_SECRETS.INBOX_WEBHOOK_PASSWORD}`).toString('base64')}`,
        },
      };
  }
}
