import { z } from 'zod';
import { acceptInvitation, declineInvitation, listMyInvitations } from '../../shared/domain/teams/invitations';
import { acceptedInvitationSchema, invitationSchema } from '../../shared/domain/teams/schema';
import { deleteMe, getMe, switchCurrentTeam, updateMe } from '../../shared/domain/users/profile';
import { switchTeamBody, updateUserBody, userSchema } from '../../shared/domain/users/schema';
import { all, mutation, none, one, query, trpcOnly } from './declare';

const invitationId = z.object({ invitationId: z.uuid().meta({ description: 'Invitation id.' }) });

/** The signed-in user: their profile, their current team and the invitations addressed to them. */
export const users = [
  query('users.me', 'GET /users/me', ['users.read'], {
    formerly: ['user.me'],
    forUser: true,
    summary: 'The signed-in user',
    description: 'Profile and preferences; `teamId` is the current team. Works before the user belongs to any team.',
    output: one(userSchema),
    run: ({ caller }, { db }) => getMe(db, caller),
  }),
  mutation('users.update', 'PATCH /users/me', ['users.write'], {
    formerly: ['user.update'],
    forUser: true,
    summary: 'Update the signed-in user',
    description:
      'Full name, avatar, locale, time zone, date format, week start, time format; `teamId` switches the current team (a team you belong to, with your own session). Only the fields sent change; the email comes from the identity provider.',
    input: updateUserBody,
    output: one(userSchema),
    run: ({ caller, input }, { db }) => updateMe(db, caller, input),
  }),
  mutation('users.delete', 'DELETE /users/me', ['users.write'], {
    formerly: ['user.delete'],
    forUser: true,
    summary: 'Delete my account',
    description:
      'Needs your own session. Your memberships, API keys, OAuth grants and conversations go with it. Refused (409) while you are the last owner of a team: make another member an owner, or delete the team, first.',
    output: none,
    run: ({ caller }, { db }) => deleteMe(db, caller),
  }),
  mutation('users.switchTeam', trpcOnly('REST switches the current team with PATCH /users/me and `teamId`'), ['users.write'], {
    formerly: ['user.switchTeam'],
    forUser: true,
    summary: 'Switch the current team',
    description: 'To a team you belong to, with your own session: where a session acts unless it sends `x-team-id`.',
    input: switchTeamBody,
    output: one(userSchema),
    run: ({ caller, input }, { db }) => switchCurrentTeam(db, caller, input.teamId),
  }),
  query('users.invitations', 'GET /users/me/invitations', ['users.read'], {
    formerly: ['user.invitations'],
    forUser: true,
    summary: 'Invitations waiting for me',
    description: 'Invitations to any team addressed to your email that can still be accepted, newest first.',
    output: all(invitationSchema),
    run: ({ caller }, { db }) => listMyInvitations(db, caller),
  }),
  mutation('users.acceptInvitation', 'POST /users/me/invitations/:invitationId/accept', ['users.write'], {
    formerly: ['user.acceptInvitation'],
    forUser: true,
    summary: 'Accept an invitation',
    description:
      'Needs your own session, signed in with the invited address. You join the team with the role of the invitation (once, however often this is sent: a repeat answers as the first did); it becomes your current team when you have none. 409 once it was declined, revoked or has expired.',
    input: invitationId,
    output: one(acceptedInvitationSchema),
    run: ({ caller, input }, { db, temporal, config }) => acceptInvitation(db, temporal, caller, input.invitationId, config.INBOX_DOMAIN),
  }),
  mutation('users.declineInvitation', 'POST /users/me/invitations/:invitationId/decline', ['users.write'], {
    formerly: ['user.declineInvitation'],
    forUser: true,
    summary: 'Decline an invitation',
    input: invitationId,
    output: one(invitationSchema),
    run: ({ caller, input }, { db, temporal }) => declineInvitation(db, temporal, caller, input.invitationId),
  }),
];
