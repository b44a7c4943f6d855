import type { Db } from '../../db/knex';
import { Team } from '../../db/models';
import { notFound } from '../../errors';
import type { TemporalGateway } from '../../temporal/client';
import { queryTeamDeletion, startTeamDeletion } from '../../temporal/team-deletion/calls';
import { teamDeletionId, type TeamDeletionProgress } from '../../temporal/team-deletion/contract';
import type { Caller } from '../auth/principal';
import { assertOwner, teamAccess } from './access';
import { teamNameOf } from './current';
import type { DeletionProgressDto } from './schema';

const toDto = ({ requestedBy: _requestedBy, ...progress }: TeamDeletionProgress): DeletionProgressDto => progress;

/**
 * Deletes a team with everything it owns (owners only), as the TeamDeletion workflow: access ends
 * at once (the team is marked here, and every credential query joins the mark out), then what runs
 * for the team stops and its rows go in batches. The run is started before the mark, so a team is
 * never hidden without a deletion under way; the run marks it too, should this request fail after.
 */
export async function requestTeamDeletion(
  db: Db,
  temporal: TemporalGateway,
  caller: Caller,
  teamId: string,
  batchSize: number,
): Promise<DeletionProgressDto> {
  assertOwner(await teamAccess(db, caller, teamId), 'delete the team');
  const teamName = (await teamNameOf(db, teamId)) ?? teamId;
  await startTeamDeletion(temporal, { teamId, requestedBy: caller.userId, batchSize }, { teamName });
  await markTeamDeleted(db, teamId, caller.userId);
  return { teamId, teamName: null, workflowId: teamDeletionId(teamId), stage: 'starting', deletedRows: 0, tables: [] };
}

/** Hides the team from everyone from now on (idempotent). */
export async function markTeamDeleted(db: Db, teamId: string, requestedBy: string): Promise<void> {
  await Team.query(db)
    .patch({ deletionRequestedAt: new Date(), deletionRequestedBy: requestedBy })
    .where({ id: teamId })
    .whereNull('deletionRequestedAt');
}

/** The deletion run's first step: the team hidden (idempotent), and its name for the mail at the end (null once gone). */
export async function revokeTeamAccess(db: Db, teamId: string, requestedBy: string): Promise<{ teamName: string | null }> {
  await markTeamDeleted(db, teamId, requestedBy);
  return { teamName: await teamNameOf(db, teamId) };
}

/** Where the deletion the caller asked for stands, during the run and after the team is gone; 404 for anyone else. */
export async function teamDeletionProgressFor(temporal: TemporalGateway, caller: Caller, teamId: string): Promise<DeletionProgressDto> {
  const progress = await queryTeamDeletion(temporal, teamId);
  if (!progress || progress.requestedBy !== caller.userId) throw notFound(`No deletion of team ${teamId} of yours`);
  return toDto(progress);
}
