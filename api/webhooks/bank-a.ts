import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { ApiDeps } from '../deps';
import { findConnection, setStatus, startSync } from './banking-effects';
import type { WebhookSpec } from './pipeline';
import { createBankAVerifier } from './signatures/bank-a-jwt';

const ONE_DAY_MS = 86_400_000;

const payload = z.object({
  webhook_type: z.string().min(1),
  webhook_code: z.string().min(1),
  item_id: z.string().min(1),
  environment: z.string().min(1),
  new_transactions: z.number().int().optional(),
  removed_transactions: z.array(z.string()).optional(),
  error: z
    .object({ error_type: z.string().optional(), error_code: z.string().optional(), error_message: z.string().optional(), display_message: z.string().nullable().optional() })
    .nullable()
    .optional(),
});
type Payload = z.infer<typeof payload>;

const SYNC_CODES = new Set(['SYNC_UPDATES_AVAILABLE', 'INITIAL_UPDATE', 'DEFAULT_UPDATE']);
const DISCONNECT_CODES = new Set(['ERROR', 'USER_PERMISSION_REVOKED', 'PENDING_DISCONNECT']);

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
      { key: createHash('sha256').update(String(req.headers['bank-a-verification'])).digest('hex'), type: `${p.webhook_type}.${p.webhook_code}`, event: p },
    ],
    async handle({ event: p }) {
      const conn = await findConnection(deps, 'bank-a', p.item_id);
      if (!conn) return { outcome: 'ignored' };
      if (p.webhook_type === 'TRANSACTIONS') {
        if (SYNC_CODES.has(p.webhook_code)) return startSync(deps, conn);
        if (p.webhook_code === 'HISTORICAL_UPDATE') {
          // Only right after linking: later, SYNC_UPDATES_AVAILABLE already covers the same data.
          const young = Date.now() - new Date(conn.createdAt).getTime() < ONE_DAY_MS;
          return young ? startSync(deps, conn) : { outcome: 'ignored', teamId: conn.teamId };
        }
        if (p.webhook_code === 'TRANSACTIONS_REMOVED') {
          const ids = p.removed_transactions ?? [];
          if (ids.length) await deps.db('transactions').where({ teamId: conn.teamId }).whereIn('providerTransactionId', ids).delete();
          return { outcome: 'processed', teamId: conn.teamId };
        }
      }
      if (p.webhook_type === 'ITEM') {
        if (DISCONNECT_CODES.has(p.webhook_code)) {
          return setStatus(deps, conn, 'disconnected', { code: p.error?.error_code ?? p.webhook_code, message: p.error?.display_message ?? p.error?.error_message ?? null });
        }
        if (p.webhook_code === 'LOGIN_REPAIRED') {
          await setStatus(deps, conn, 'connected');
          return startSync(deps, conn); // catch up on what was missed while disconnected
        }
      }
      return { outcome: 'ignored', teamId: conn.teamId };
    },
  };
}
