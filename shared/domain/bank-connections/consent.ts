import type { Db } from '../../db/knex';
import { BankConnection } from '../../db/models';
import type { TemporalGateway } from '../../temporal/client';
import { stopConsentTimer, watchConsentExpiry } from '../../temporal/bank-consent/calls';
import type { ConsentNoticeKind, ConsentNoticeOutcome } from '../../temporal/bank-consent/contract';
import { notify } from '../notifications/service';

const SENT_FOR = { expiring: 'consentWarningSentFor', expired: 'consentExpiredSentFor' } as const;

/**
 * One consent notice (BankConsentExpiry's activity). Written once per expiry: under a row lock, the
 * notice is sent only when the connection still has this expiry and it was not yet sent for it;
 * the mark and the notification commit together, so a retry after a crash finds it done.
 */
export async function sendConsentNotice(
  db: Db,
  input: { connectionId: string; expiresAt: string; kind: ConsentNoticeKind },
): Promise<ConsentNoticeOutcome> {
  const column = SENT_FOR[input.kind];
  const expiresAt = new Date(input.expiresAt);
  return db.transaction(async (trx) => {
    const conn = await BankConnection.query(trx).findById(input.connectionId).forUpdate();
    if (!conn || conn.consentExpiresAt?.getTime() !== expiresAt.getTime()) return 'stale';
    if (conn[column]?.getTime() === expiresAt.getTime()) return 'already';
    await BankConnection.query(trx)
      .findById(conn.id)
      .patch({ [column]: expiresAt });
    await notify(trx, {
      teamId: conn.teamId,
      type: input.kind === 'expiring' ? 'bank_connection_consent_expiring' : 'bank_connection_consent_expired',
      priority: input.kind === 'expiring' ? 3 : 2,
      metadata: { connectionId: conn.id, institutionName: conn.institutionName, expiresAt: expiresAt.toISOString() },
    });
    return 'sent';
  });
}

export interface ConsentDeps {
  db: Db;
  temporal: TemporalGateway;
  logger: { error(obj: Record<string, unknown>, msg: string): void };
  config: { BANK_CONSENT_NOTICE_LEAD: number };
}

/**
 * Records the provider's consent expiry for the connection and moves its timer to it (a new
 * consent after a reconnect, or the first one at link time). The row is committed even when the timer
 * cannot be reached: a timer told nothing finds the right expiry when it wakes, or is started by the
 * next change (every sync reports the expiry again).
 *
 * One change at a time per connection, the row and the timer together: a webhook and a sync that
 * report two expiries at once could otherwise leave the row at one and the timer at the other, and a
 * timer that wakes to find its expiry stale ends without a notice for the real one. The lock is an
 * advisory one, so syncs and webhooks that write the connection's other columns never wait for it.
 *
 * `observedAt` is when the provider said so: a sync that read the item before a PENDING_EXPIRATION
 * webhook arrived records after it, and its older "no expiry" must not undo the webhook's date.
 */
export async function recordConsentExpiry(
  deps: ConsentDeps,
  conn: Pick<BankConnection, 'id' | 'teamId'>,
  expiresAt: Date | null,
  observedAt: Date,
): Promise<void> {
  await deps.db.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`bank-consent:${conn.id}`]);
    const before = await BankConnection.query(trx)
      .findOne({ teamId: conn.teamId, id: conn.id })
      .select('consentExpiresAt', 'consentObservedAt', 'provider', 'institutionName');
    if (!before || (before.consentObservedAt && before.consentObservedAt > observedAt)) return;
    // Stamped even when the date is the same: an older reading arriving later must still be refused.
    await BankConnection.query(trx).findById(conn.id).patch({ consentExpiresAt: expiresAt, consentObservedAt: observedAt });
    if (before.consentExpiresAt?.getTime() === expiresAt?.getTime()) return;
    const timer = expiresAt
      ? watchConsentExpiry(
          deps.temporal,
          { connectionId: conn.id, teamId: conn.teamId, expiresAt, leadMs: deps.config.BANK_CONSENT_NOTICE_LEAD },
          before,
        )
      : stopConsentTimer(deps.temporal, conn.id);
    await timer.catch((err: unknown) => {
      deps.logger.error({ err, connectionId: conn.id }, 'could not move the consent expiry timer');
    });
  });
}
