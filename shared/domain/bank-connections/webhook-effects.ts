import type { Db } from '../../db/knex';
import { groupedStatement } from '../../db/grouped';
import { runPrepared } from '../../db/prepared';
import type { Logger } from '../../logger';
import { BankConnection } from '../../db/models';
import { deleteWithdrawnTransactions } from '../transactions/service';
import type { TemporalGateway } from '../../temporal/client';
import { resumeBankSyncSchedule } from '../../temporal/scheduled-bank-sync/calls';
import { requestSync } from '../../temporal/sync-connection/calls';
import { syncConnectionId } from '../../temporal/sync-connection/contract';
import { countSyncRequest } from './sync-requests';
import { recordConsentExpiry, type ConsentDeps } from './consent';
import { pauseScheduleOfDisconnected } from './scheduled-sync';
import { markDisconnected, markReconnected } from './status';
import type { WebhookOutcome } from '../webhook-events/record';

/** What a bank's webhook says about a connection, in our terms (each provider's webhook maps its own codes). */
export type ConnectionEvent =
  | { kind: 'new-data' }
  /** The provider's first full history: only worth a sync right after linking. */
  | { kind: 'initial-history' }
  | { kind: 'transactions-removed'; providerTransactionIds: string[] }
  | { kind: 'disconnected'; error: { code: string; message: string | null } }
  | { kind: 'repaired' }
  /** The provider announces when the user's consent runs out. */
  | { kind: 'consent-expiring'; expiresAt: Date }
  | { kind: 'other' };

export interface WebhookEffectDeps extends ConsentDeps {
  db: Db;
  temporal: TemporalGateway;
  logger: Pick<Logger, 'info' | 'error'>;
}

const ONE_DAY_MS = 86_400_000;

type ConnectionRow = Pick<BankConnection, 'id' | 'teamId' | 'provider' | 'institutionName' | 'createdAt'>;
type ConnectionRef = { provider: BankConnection['provider']; referenceId: string };

const CONNECTIONS_BY_REFERENCE = {
  name: 'bank_connections.by_reference',
  text: `select c.id, c.team_id as "teamId", c.provider, c.reference_id as "referenceId", c.institution_name as "institutionName",
           c.created_at as "createdAt"
      from bank_connections c join unnest($1::text[], $2::text[]) as u(provider, reference_id)
        on c.provider = u.provider and c.reference_id = u.reference_id`,
};

// Every bank webhook starts here, mostly to find nothing to do: prepared, past the query builder,
// and one statement for the deliveries that arrive together (shared/db/grouped.ts).
const connectionsByReference = groupedStatement<ConnectionRef, ConnectionRow | undefined>(
  async (db, refs) => {
    const slot = (provider: string, referenceId: string) => `${provider}\n${referenceId}`;
    const rows = await runPrepared<ConnectionRow & { referenceId: string }>(db, CONNECTIONS_BY_REFERENCE, [
      refs.map((r) => r.provider),
      refs.map((r) => r.referenceId),
    ]);
    const found = new Map(rows.map(({ referenceId, ...row }) => [slot(row.provider, referenceId), row]));
    return refs.map((r) => found.get(slot(r.provider, r.referenceId)));
  },
  { most: 500 },
);

/**
 * The small, immediate effects of a bank webhook on the connection it names; fetching data is
 * SyncConnection's job, so anything that needs the provider becomes a sync request.
 */
export async function applyConnectionEvent(
  deps: WebhookEffectDeps,
  connection: ConnectionRef,
  event: ConnectionEvent,
): Promise<WebhookOutcome> {
  const conn = await connectionsByReference(deps.db, connection);
  if (!conn) return { outcome: 'ignored' };
  const { teamId } = conn;
  const sync = async (): Promise<WebhookOutcome> => ({
    outcome: 'processed',
    teamId,
    // A run holding the connection's lease sees the counted request and makes another pass; only a
    // connection without one is signalled.
    workflowId: (await countSyncRequest(deps.db, conn.id))
      ? syncConnectionId(conn.id)
      : await requestSync(deps.temporal, { connectionId: conn.id, teamId, manualSync: false }, conn),
  });

  switch (event.kind) {
    case 'new-data':
      return sync();
    case 'initial-history':
      // The provider's history is only worth a sync right after linking (it sends it only within a day of linking);
      // later, its regular update webhooks already cover the same data.
      if (Date.now() - conn.createdAt.getTime() < ONE_DAY_MS) return sync();
      deps.logger.info(
        { connectionId: conn.id, provider: conn.provider, createdAt: conn.createdAt.toISOString() },
        'historical update ignored: the connection was created more than a day ago',
      );
      return { outcome: 'ignored', teamId };
    case 'transactions-removed':
      await deleteWithdrawnTransactions(deps.db, teamId, event.providerTransactionIds);
      return { outcome: 'processed', teamId };
    case 'disconnected':
      await markDisconnected(deps.db, conn, event.error);
      await pauseScheduleOfDisconnected(deps, conn.id);
      return { outcome: 'processed', teamId };
    case 'repaired':
      await markReconnected(deps.db, conn);
      await resumeBankSyncSchedule(deps.temporal, conn.id);
      return sync(); // catch up on what was missed while disconnected
    case 'consent-expiring':
      // The bank's word as of its arrival: a sync that read the item before this does not undo it.
      await recordConsentExpiry(deps, conn, event.expiresAt, new Date());
      return { outcome: 'processed', teamId };
    case 'other':
      return { outcome: 'ignored', teamId };
  }
}
