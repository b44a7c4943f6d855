import { sendConsentNotice } from '../../shared/domain/bank-connections/consent';
import { watchConsentExpiry } from '../../shared/temporal/bank-consent/calls';
import type { BankConsentWorkflow } from '../../shared/temporal/bank-consent/contract';
import { workerKillTest } from '../support/worker-kill';
import { eventually } from '../support/eventually';
import { createTeamAndOwner } from '../support/fixtures';
import { isAlive, killHard } from '../support/processes';
import { uniqueTaskQueue, untilWorkerPolls } from '../support/worker';

/**
 * BankConsentExpiry with its worker killed: once while it sleeps between the two notices, once while
 * the "expired" notice is being retried (its table is away). A new worker finishes the run, and the
 * team hears each notice exactly once.
 */
const { tdb, workers, temporal: gatewayFor } = workerKillTest();
const startWorker = (env: Record<string, string>) => workers.start(env);

describe('BankConsentExpiry survives a killed worker', () => {
  it('warns once and tells of the expiry once', async () => {
    const env = { TEMPORAL_TASK_QUEUE: uniqueTaskQueue('consent-kill') };
    const temporal = gatewayFor(env);
    const owner = await createTeamAndOwner(tdb.db, 'Consent');
    // The clock starts once the worker polls: one that started late would find the warning's time past.
    let worker = startWorker(env);
    await untilWorkerPolls(await temporal.client(), env.TEMPORAL_TASK_QUEUE);
    const expiresAt = new Date(Date.now() + 12_000);
    const [row] = await tdb
      .db('bank_connections')
      .insert({
        teamId: owner.team.id,
        provider: 'bank-a',
        referenceId: `item_${Date.now()}`,
        status: 'connected',
        consentExpiresAt: expiresAt,
      })
      .returning('id');
    const connectionId = (row as { id: string }).id;
    const notices = async () =>
      (await tdb.db('notifications').where({ teamId: owner.team.id }).orderBy('createdAt').select('type')).map(
        (n: { type: string }) => n.type,
      );

    const workflowId = await watchConsentExpiry(
      temporal,
      { connectionId, teamId: owner.team.id, expiresAt, leadMs: 9_000 },
      { institutionName: 'First Platypus Bank', provider: 'bank-a' },
    );
    const handle = (await temporal.client()).workflow.getHandle<BankConsentWorkflow>(workflowId);
    await eventually(async () => (await notices()).length === 1, 30_000, 'the warning');

    // Killed while it sleeps until the expiry.
    await killHard(worker);
    expect(isAlive(worker.pid!)).toBe(false);
    worker = startWorker(env);

    // The expiry notice cannot be written while the table is away: killed while it is retried.
    await tdb.db.raw('alter table bank_connections rename to bank_connections_away');
    try {
      await eventually(
        async () => ((await handle.describe()).raw.pendingActivities?.[0]?.attempt ?? 0) >= 2,
        60_000,
        'the expiry notice to be retried',
      );
      await killHard(worker);
      expect(isAlive(worker.pid!)).toBe(false);
    } finally {
      await tdb.db.raw('alter table bank_connections_away rename to bank_connections');
    }

    startWorker(env);
    expect(await handle.result()).toEqual({ stage: 'expired', expiresAt: expiresAt.toISOString(), notices: ['expiring', 'expired'] });
    expect(await notices()).toEqual(['bank_connection_consent_expiring', 'bank_connection_consent_expired']);
    // A retry of either notice after it committed finds it done; a notice for another expiry is stale.
    const input = { connectionId, expiresAt: expiresAt.toISOString() };
    expect(await sendConsentNotice(tdb.db, { ...input, kind: 'expiring' })).toBe('already');
    expect(await sendConsentNotice(tdb.db, { ...input, kind: 'expired' })).toBe('already');
    expect(await sendConsentNotice(tdb.db, { ...input, expiresAt: new Date(0).toISOString(), kind: 'expired' })).toBe('stale');
    expect(await notices()).toHaveLength(2);
  }, 150_000);
});
