import type { ApiDeps } from '../deps';
import { requestSync } from '../../shared/domain/bank-connections/sync';
import type { HandledEvent } from './pipeline';

/** The small, immediate effects of bank webhooks; anything heavy goes to SyncConnection. */
export async function findConnection(deps: ApiDeps, provider: 'bank-a' | 'bank-b', referenceId: string) {
  return deps.db('bank_connections').where({ provider, referenceId }).first();
}

export async function setStatus(deps: ApiDeps, conn: any, status: 'connected' | 'disconnected', error?: { code?: string | null; message?: string | null }): Promise<HandledEvent> {
  await deps.db('bank_connections')
    .where({ id: conn.id })
    .update({ status, errorCode: error?.code ?? null, errorMessage: error?.message ?? null, updatedAt: new Date() });
  return { outcome: 'processed', teamId: conn.teamId };
}

export async function startSync(deps: ApiDeps, conn: any): Promise<HandledEvent> {
  const workflowId = await requestSync(deps.temporal, { connectionId: conn.id, teamId: conn.teamId, manualSync: false });
  return { outcome: 'processed', teamId: conn.teamId, workflowId };
}
