import type { Db } from '../../db/knex';
import { runPrepared } from '../../db/prepared';
import type { Logger } from '../../logger';
import { BankConnection } from '../../db/models';
import { deleteWithdrawnTransactions } from '../transactions/service';
import type { TemporalGateway } from '../../temporal/client';
import { resumeBankSyncSchedule } from '../../temporal/scheduled-bank-sync/calls';
import { requestSync } from '../../temporal/sync-connection/calls';
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

// Every bank webhook starts here, mostly to find nothing to do: prepared, past the query builder.
const CONNECTION_BY_REFERENCE = {
  name: 'bank_connections.by_reference',
  text: `select id, team_id as "teamId", provider, institution_name as "institutionName",
           created_at as "createdAt" from bank_connections where provider = $1 and reference_id = $2`,
};

/**
 * The small, immediate effects of a bank webhook on the connection it names; fetching data is
 * SyncConnection's job, so anything that needs the provider becomes a sync request.
 */
export async function applyConnectionEvent(
  deps: WebhookEffectDeps,
  connection: { provider: BankConnection['provider']; referenceId: string },
  event: ConnectionEvent,
): Promise<WebhookOutcome> {
  const rows = await runPrepared<Pick<BankConnection, 'id' | 'teamId' | 'provider' | 'institutionName' | 'createdAt'>>(
    deps.db,
    CONNECTION_BY_REFERENCE,
    [connection.provider, connection.referenceId],
  );
  const conn = rows.at(0);
  if (!conn) return { outcome: 'ignored' };
  const { teamId } = conn;
  const sync = async (): Promise<WebhookOutcome> => ({
    outcome: 'processed',
    teamId,
    workflowId: await requestSync(deps.temporal, { connectionId: conn.id, teamId, manualSync: false }),
  });

  switch (event.kind) {
    case 'new-data':
      return sync();
    case 'initial-history':
      // The provider's history is only worth a sync right after linking (spec §6: within one day);
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
