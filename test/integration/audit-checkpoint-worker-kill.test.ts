import type { ChildProcess } from 'node:child_process';
import { testConfig } from '../support/api';
import { verifyAuditTrail } from '../../shared/domain/audit-events/service';
import {
  auditCheckpointContract,
  auditCheckpointProgress,
  type AuditCheckpointWorkflow,
} from '../../shared/temporal/audit-checkpoint/contract';
import { armInsertFault, type InsertFault } from '../support/insert-fault';
import { startTestApi, type TestApi } from '../support/api';
import { withTestDatabase } from '../support/database';
import { eventually } from '../support/eventually';
import { createTeamAndOwner } from '../support/fixtures';
import { isAlive, killHard, spawnTs } from '../support/processes';
import { uniqueTaskQueue } from '../support/worker';

let api: TestApi;
let checkpointFault: InsertFault;

const tdb = withTestDatabase({
  setUp: async () => {
    // Storing the checkpoint fails, so the one step keeps being retried until the fault clears.
    checkpointFault = await armInsertFault(tdb.db, 'audit_checkpoint', {
      table: 'audit_checkpoints',
      message: 'checkpoint store unavailable (test fault)',
    });
  },
  tearDown: async () => {
    await api?.stop();
  },
});

describe('AuditCheckpoint survives a worker killed mid-run', () => {
  it('killed while sealing, after restart signs the day once, and verify checks the signature', async () => {
    const shared = { TEMPORAL_TASK_QUEUE: uniqueTaskQueue('audit-kill') };
    const env = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: tdb.url, ...shared };
    api = await startTestApi(tdb.db, { env: shared });
    const owner = await createTeamAndOwner(tdb.db);
    const teamId = owner.team.id;
    await tdb.db('tags').insert({ teamId, name: 'Before the checkpoint' });
    const day = new Date().toISOString().slice(0, 10);

    let first: ChildProcess | undefined = spawnTs('worker/main.ts', { env, stdio: 'ignore' });
    let second: ChildProcess | undefined;
    try {
      const handle = await (
        await api.deps.temporal.client()
      ).workflow.start<AuditCheckpointWorkflow>(auditCheckpointContract.workflowType, {
        taskQueue: shared.TEMPORAL_TASK_QUEUE,
        workflowId: `audit-checkpoint:${teamId}:${day}`,
        args: [{ teamId, day }],
      });
      await eventually(
        async () => ((await handle.describe()).raw.pendingActivities?.[0]?.attempt ?? 0) >= 2,
        60_000,
        'sealing to be retried',
      );
      expect(await handle.query(auditCheckpointProgress)).toMatchObject({ stage: 'sealing', day, position: null });
      await killHard(first);
      expect(isAlive(first.pid!)).toBe(false);
      first = undefined;

      await checkpointFault.clear();
      second = spawnTs('worker/main.ts', { env, stdio: 'ignore' });
      const result = await handle.result();
      const entries = await tdb.db('audit_events').where({ teamId }).whereNotNull('chainPos').orderBy('chainPos', 'desc');
      expect(result).toMatchObject({ stage: 'completed', day, position: entries[0].chainPos, hash: entries[0].hash.toString('hex') });
      expect(await tdb.db('audit_checkpoints').where({ teamId })).toHaveLength(1);

      const key = testConfig().AUDIT_SIGNING_KEY;
      expect(await verifyAuditTrail(tdb.db, teamId, key)).toMatchObject({ ok: true, checkpoints: 1, brokenAt: null });
      // A checkpoint signed by another key (or altered) is named, as is the entry it no longer matches.
      expect(await verifyAuditTrail(tdb.db, teamId, 'f'.repeat(64))).toMatchObject({
        ok: false,
        brokenAt: { position: result.position, reason: 'checkpoint' },
      });
    } finally {
      if (first) await killHard(first);
      if (second) await killHard(second);
    }
  }, 120_000);
});
