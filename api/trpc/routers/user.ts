import { z } from 'zod';
import { acceptInvitation, declineInvitation, listMyInvitations } from '../../../shared/domain/teams/invitations';
import { acceptedInvitationSchema, invitationSchema } from '../../../shared/domain/teams/schema';
import { deleteMe, getMe, switchCurrentTeam, updateMe } from '../../../shared/domain/users/profile';
import { switchTeamBody, updateUserBody, userSchema } from '../../../shared/domain/users/schema';
import type { ApiDeps } from '../../deps';
import { router, userProcedure } from '../trpc';

const invitationId = z.object({ invitationId: z.uuid() });

/** The signed-in user: the same services as REST `/users/me*`. */
export const userRouter = ({ db, config, temporal }: Pick<ApiDeps, 'db' | 'config' | 'temporal'>) =>
  router({
    me: userProcedure('users.read')
      .output(userSchema)
      .query(({ ctx }) => getMe(db, ctx.caller)),
    update: userProcedure('users.write')
      .input(updateUserBody)
      .output(userSchema)
      .mutation(({ ctx, input }) => updateMe(db, ctx.caller, input)),
    switchTeam: userProcedure('users.write')
      .input(switchTeamBody)
      .output(userSchema)
      .mutation(({ ctx, input }) => switchCurrentTeam(db, ctx.caller, input.teamId)),
    delete: userProcedure('users.write')
      .output(z.void())
      .mutation(({ ctx }) => deleteMe(db, ctx.caller)),
    invitations: userProcedure('users.read')
      .output(z.array(invitationSchema))
      .query(({ ctx }) => listMyInvitations(db, ctx.caller)),
    acceptInvitation: userProcedure('users.write')
      .input(invitationId)
      .output(acceptedInvitationSchema)
      .mutation(({ ctx, input }) => acceptInvitation(db, temporal, ctx.caller, input.invitationId, config.INBOX_DOMAIN)),
    declineInvitation: userProcedure('users.write')
      .input(invitationId)
      .output(invitationSchema)
      .mutation(({ ctx, input }) => declineInvitation(db, temporal, ctx.caller, input.invitationId)),
  });
