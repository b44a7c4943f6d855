import { heartbeat } from '@temporalio/activity';
import { revokeTeamAccess } from '../../shared/domain/teams/deletion';
import { deleteTeamBatch, deleteTeamRow, planTeamPurge } from '../../shared/domain/teams/purge';
import { findUserContact } from '../../shared/domain/users/service';
import type { TeamTablePlan } from '../../shared/temporal/team-deletion/contract';
import type { ActivityDeps } from '../deps';
import { STOPPERS } from './stop-team-work';

export function teamDeletionActivities(deps: ActivityDeps) {
  const { db, mailer } = deps;
  return {
    /** Nobody acts in the team from now on (the API marked it already; this covers a request that failed after starting the run). */
    async revokeTeamAccess(input: { teamId: string; requestedBy: string }): Promise<{ teamName: string | null }> {
      return revokeTeamAccess(db, input.teamId, input.requestedBy);
    },

    /** Stops everything that runs for the team (see STOPPERS); returns how many of each kind. */
    async stopTeamWork(input: { teamId: string; exceptWorkflowId: string }): Promise<Record<string, number>> {
      const client = await deps.temporal.client();
      const stopped: Record<string, number> = {};
      for (const [kind, stop] of Object.entries(STOPPERS)) {
        stopped[kind] = await stop({ client, db, teamId: input.teamId, exceptWorkflowId: input.exceptWorkflowId });
        heartbeat(kind);
      }
      return stopped;
    },

    async planTeamDeletion(input: { teamId: string }): Promise<TeamTablePlan[]> {
      return planTeamPurge(db, input.teamId);
    },

    async deleteTeamRows(input: { teamId: string; table: string; batchSize: number }): Promise<number> {
      return deleteTeamBatch(db, input.teamId, input.table, input.batchSize);
    },

    async deleteTeamRecord(input: { teamId: string }): Promise<void> {
      await deleteTeamRow(db, input.teamId);
    },

    /** Tells the owner who asked that it is done (once the team is gone, so the mail is true). */
    async sendTeamDeletedEmail(input: { requestedBy: string; teamName: string; deletedRows: number }): Promise<void> {
      const user = await findUserContact(db, input.requestedBy);
      if (!user) return; // deleted their account since: nobody to tell
      await mailer.send({
        to: user.email,
        subject: `Team ${input.teamName} was deleted`,
        text: [
          `Hello${user.fullName ? ` ${user.fullName}` : ''},`,
          '',
          `The team "${input.teamName}" and everything it held (${input.deletedRows} records) were deleted, as you asked.`,
          'This cannot be undone.',
        ].join('\n'),
      });
    },
  };
}

export type TeamDeletionActivities = ReturnType<typeof teamDeletionActivities>;
