import { z } from 'zod';
import { updateTeamBody } from '../../../shared/domain/teams/current';
import { requestTeamDeletion, teamDeletionProgressFor } from '../../../shared/domain/teams/deletion';
import { inviteMember, listTeamInvitations, revokeInvitation } from '../../../shared/domain/teams/invitations';
import { changeRole, listMembers, removeMember } from '../../../shared/domain/teams/members';
import {
  createInvitationBody,
  createTeamBody,
  deletionProgressSchema,
  invitationSchema,
  memberSchema,
  myTeamSchema,
  TEAM_ROLES,
} from '../../../shared/domain/teams/schema';
import { createTeamFor, getTeamFor, listMyTeams, regenerateInboxId, updateTeamFor } from '../../../shared/domain/teams/teams';
import { keepWeeklyInsightsScheduled } from '../../../shared/domain/insights/schedule';
import type { ApiDeps } from '../../deps';
import { router, userProcedure } from '../trpc';

const teamId = z.object({ teamId: z.uuid() });
const member = teamId.extend({ userId: z.uuid() });

/** Teams by id, their members and invitations: the same services as REST `/teams/*`. */
export const teamsRouter = ({ db, config, temporal, logger }: Pick<ApiDeps, 'db' | 'config' | 'temporal' | 'logger'>) =>
  router({
    list: userProcedure('teams.read')
      .output(z.array(myTeamSchema))
      .query(({ ctx }) => listMyTeams(db, ctx.caller, config.INBOX_DOMAIN)),
    create: userProcedure('teams.write')
      .input(createTeamBody)
      .output(myTeamSchema)
      .mutation(({ ctx, input }) =>
        createTeamFor(db, ctx.caller, input, config.INBOX_DOMAIN).then(keepWeeklyInsightsScheduled(temporal, logger)),
      ),
    get: userProcedure('teams.read')
      .input(teamId)
      .output(myTeamSchema)
      .query(({ ctx, input }) => getTeamFor(db, ctx.caller, input.teamId, config.INBOX_DOMAIN)),
    update: userProcedure('teams.write')
      .input(z.object({ teamId: z.uuid(), changes: updateTeamBody }))
      .output(myTeamSchema)
      .mutation(({ ctx, input }) =>
        updateTeamFor(db, ctx.caller, input.teamId, input.changes, config.INBOX_DOMAIN).then(
          keepWeeklyInsightsScheduled(temporal, logger, input.changes),
        ),
      ),
    regenerateInboxId: userProcedure('teams.write')
      .input(teamId)
      .output(myTeamSchema)
      .mutation(({ ctx, input }) => regenerateInboxId(db, ctx.caller, input.teamId, config.INBOX_DOMAIN)),
    delete: userProcedure('teams.write')
      .input(teamId)
      .output(deletionProgressSchema)
      .mutation(({ ctx, input }) => requestTeamDeletion(db, temporal, ctx.caller, input.teamId, config.TEAM_DELETION_BATCH_SIZE)),
    deletion: userProcedure('teams.read')
      .input(teamId)
      .output(deletionProgressSchema)
      .query(({ ctx, input }) => teamDeletionProgressFor(temporal, ctx.caller, input.teamId)),
    members: userProcedure('teams.read')
      .input(teamId)
      .output(z.array(memberSchema))
      .query(({ ctx, input }) => listMembers(db, ctx.caller, input.teamId)),
    updateMember: userProcedure('teams.write')
      .input(member.extend({ role: z.enum(TEAM_ROLES) }))
      .output(memberSchema)
      .mutation(({ ctx, input }) => changeRole(db, ctx.caller, input.teamId, input.userId, input.role)),
    removeMember: userProcedure('teams.write')
      .input(member)
      .output(z.void())
      .mutation(({ ctx, input }) => removeMember(db, ctx.caller, input.teamId, input.userId)),
    leave: userProcedure('teams.write')
      .input(teamId)
      .output(z.void())
      .mutation(({ ctx, input }) => removeMember(db, ctx.caller, input.teamId, ctx.caller.userId)),
    invitations: userProcedure('teams.read')
      .input(teamId)
      .output(z.array(invitationSchema))
      .query(({ ctx, input }) => listTeamInvitations(db, ctx.caller, input.teamId)),
    invite: userProcedure('teams.write')
      .input(teamId.extend({ invitation: createInvitationBody }))
      .output(invitationSchema)
      .mutation(({ ctx, input }) =>
        inviteMember(db, temporal, ctx.caller, input.teamId, input.invitation, { ttlMs: config.INVITATION_TTL }),
      ),
    revokeInvitation: userProcedure('teams.write')
      .input(teamId.extend({ invitationId: z.uuid() }))
      .output(z.void())
      .mutation(({ ctx, input }) => revokeInvitation(db, temporal, ctx.caller, input.teamId, input.invitationId)),
  });
