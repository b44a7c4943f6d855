import { createHash } from 'node:crypto';
import { z } from 'zod';
import { applyConnectionEvent, type ConnectionEvent } from '../../shared/domain/bank-connections/webhook-effects';
import type { ApiDeps } from '../deps';
import type { WebhookSpec } from './pipeline';
import { createBankAVerifier } from './signatures/bank-a-jwt';

const payload = z.object({
  webhook_type: z.string().min(1),
  webhook_code: z.string().min(1),
  item_id: z.string().min(1),
  environment: z.string().min(1),
  new_transactions: z.number().int().optional(),
  removed_transactions: z.array(z.string()).optional(),
  consent_expiration_time: z.iso.datetime({ offset: true }).nullable().optional(),
  error: z
    .object({
      error_type: z.string().optional(),
      error_code: z.string().optional(),
      error_message: z.string().optional(),
      display_message: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
});
type Payload = z.infer<typeof payload>;

const SYNC_CODES = new Set(['SYNC_UPDATES_AVAILABLE', 'INITIAL_UPDATE', 'DEFAULT_UPDATE']);
const DISCONNECT_CODES = new Set(['ERROR', 'USER_PERMISSION_REVOKED', 'PENDING_DISCONNECT']);

function connectionEvent(p: Payload): ConnectionEvent {
  if (p.webhook_type === 'TRANSACTIONS') {
    if (SYNC_CODES.has(p.webhook_code)) return { kind: 'new-data' };
    if (p.webhook_code === 'HISTORICAL_UPDATE') return { kind: 'initial-history' };
    if (p.webhook_code === 'TRANSACTIONS_REMOVED')
      return { kind: 'transactions-removed', providerTransactionIds: p.removed_transactions ?? [] };
  }
  if (p.webhook_type === 'ITEM') {
    if (DISCONNECT_CODES.has(p.webhook_code)) {
      const code = p.error?.error_code ?? p.webhook_code;
      return { kind: 'disconnected', error: { code, message: p.error?.display_message ?? p.error?.error_message ?? null } };
    }
    if (p.webhook_code === 'LOGIN_REPAIRED') return { kind: 'repaired' };
    // The bank's word that the consent runs out on this date (EU/UK): the same timer as a consent read at link or sync time.
    if (p.webhook_code === 'PENDING_EXPIRATION' && p.consent_expiration_time)
      return { kind: 'consent-expiring', expiresAt: new Date(p.consent_expiration_time) };
  }
  return { kind: 'other' };
}

/** POST /webhook/bank-a (Plaid wire format). */
export function bankAWebhook(deps: ApiDeps): WebhookSpec<Payload, Payload> {
  const verify = createBankAVerifier(deps.bankA);
  return {
    provider: 'bank-a',
    maxBytes: 1024 * 1024,
    verify: (req) => verify(req.headers['bank-a-verification'] as string | undefined, req.raw),
    schema: payload,
    // bank-a events carry no id: the signed token names one delivery, so a redelivery of it is a no-op.
    events: (p, req) => [
      {
        key: createHash('sha256').update(String(req.headers['bank-a-verification'])).digest('hex'),
        type: `${p.webhook_type}.${p.webhook_code}`,
        event: p,
      },
    ],
    handle: ({ event: p }) => applyConnectionEvent(deps, { provider: 'bank-a', referenceId: p.item_id }, connectionEvent(p)),
  };
}
