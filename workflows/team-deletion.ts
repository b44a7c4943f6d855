import { continueAsNew, proxyActivities, setCurrentDetails, setHandler, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { TeamDeletionActivities } from '../activities/teams/deletion';
import { Stage } from '../shared/temporal/search-attribute-keys';
import {
  teamDeletionProgress,
  type TeamDeletionProgress,
  type TeamDeletionStage,
  type TeamDeletionWorkflow,
} from '../shared/temporal/team-deletion/contract';

const retry = { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '1m' };
const { revokeTeamAccess, planTeamDeletion, deleteTeamRecord, sendTeamDeletedEmail } = proxyActivities<TeamDeletionActivities>({
  startToCloseTimeout: '2m',
  retry,
});
// One short statement: a worker lost mid-batch is noticed in 30 s, and the batch simply runs again.
const { deleteTeamRows } = proxyActivities<TeamDeletionActivities>({ startToCloseTimeout: '30s', retry });
const { stopTeamWork } = proxyActivities<TeamDeletionActivities>({ startToCloseTimeout: '5m', heartbeatTimeout: '1m', retry });

// A deletion of millions of rows is hundreds of batches: past this, it carries its progress into a fresh run.
const HISTORY_LIMIT = 10_000;

const count = (n: number) => n.toLocaleString('en');

/** Where the deletion is, in words, for the run's current details in the Temporal UI. */
function describe(p: TeamDeletionProgress): string {
  const planned = p.tables.reduce((sum, t) => sum + t.total, 0);
  const tablesDone = p.tables.filter((t) => t.done).length;
  switch (p.stage) {
    case 'starting':
      return 'Starting';
    case 'revoking_access':
      return 'Revoking access';
    case 'stopping_work':
      return "Stopping the team's runs and schedules";
    case 'deleting': {
      if (!p.tables.length) return 'Planning what to delete';
      const current = p.tables.find((t) => !t.done);
      const at = current ? `; now ${current.table}` : '';
      return `Deleted ${count(p.deletedRows)} of ${count(planned)} rows (${tablesDone} of ${p.tables.length} tables done${at})`;
    }
    case 'done':
      return p.teamName === null ? 'Nothing to delete: the team was gone already' : `Deleted ${count(p.deletedRows)} rows and the team`;
  }
}

/**
 * TeamDeletion (id `team-deletion:<teamId>`): revoke access → stop what runs for the team → delete
 * its rows table by table in batches (referencing tables first) → delete the team → email the owner
 * who asked. Every step is idempotent, so a worker lost in the middle loses nothing and repeats
 * nothing that matters: a batch deleted twice deletes the next rows. A query reports progress.
 */
export const teamDeletion: TeamDeletionWorkflow = async (input) => {
  const { workflowId } = workflowInfo();
  const progress: TeamDeletionProgress = input.progress ?? {
    teamId: input.teamId,
    teamName: null,
    workflowId,
    stage: 'starting',
    deletedRows: 0,
    tables: [],
    requestedBy: input.requestedBy,
  };
  setHandler(teamDeletionProgress, () => progress);
  const setStage = (s: TeamDeletionStage) => {
    progress.stage = s;
    upsertSearchAttributes([{ key: Stage, value: s }]);
    setCurrentDetails(describe(progress));
  };
  // A run continued from another starts with no details of its own.
  setCurrentDetails(describe(progress));

  if (!input.progress) {
    setStage('revoking_access');
    const { teamName } = await revokeTeamAccess({ teamId: input.teamId, requestedBy: input.requestedBy });
    if (teamName === null) {
      // Already gone (a run that ended before): nothing to delete.
      setStage('done');
      return progress;
    }
    progress.teamName = teamName;
    setStage('stopping_work');
    await stopTeamWork({ teamId: input.teamId, exceptWorkflowId: workflowId });
    setStage('deleting');
    progress.tables = (await planTeamDeletion({ teamId: input.teamId })).map((t) => ({ ...t, deleted: 0, done: false }));
    setCurrentDetails(describe(progress));
  }

  for (const table of progress.tables) {
    while (!table.done) {
      if (workflowInfo().historyLength > HISTORY_LIMIT) {
        await continueAsNew<TeamDeletionWorkflow>({ ...input, progress });
      }
      const deleted = await deleteTeamRows({ teamId: input.teamId, table: table.table, batchSize: input.batchSize });
      table.deleted += deleted;
      progress.deletedRows += deleted;
      table.done = deleted < input.batchSize;
      setCurrentDetails(describe(progress));
    }
  }
  await deleteTeamRecord({ teamId: input.teamId });
  setStage('done');
  await sendTeamDeletedEmail({
    requestedBy: input.requestedBy,
    teamName: progress.teamName ?? input.teamId,
    deletedRows: progress.deletedRows,
  });
  return progress;
};
