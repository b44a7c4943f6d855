import { acceptInvitation, declineInvitation, listMyInvitations } from '../../shared/domain/teams/invitations';
import { acceptedInvitationSchema, invitationIdParams, invitationSchema } from '../../shared/domain/teams/schema';
import { deleteMe, getMe, updateMe } from '../../shared/domain/users/profile';
import { updateUserBody, userSchema } from '../../shared/domain/users/schema';
import type { ApiDeps } from '../deps';
import { defineUserRoute } from './define';
import { all, none, one } from './replies';

const TAG = 'Users';

export const userRoutes = ({ db, config, temporal }: Pick<ApiDeps, 'db' | 'config' | 'temporal'>) => [
  defineUserRoute({
    method: 'get',
    path: '/users/me',
    scopes: ['users.read'],
    tag: TAG,
    summary: 'The signed-in user',
    description: 'Profile and preferences; `teamId` is the current team. Works before the user belongs to any team.',
    reply: one(userSchema),
    handler: ({ caller }) => getMe(db, caller),
  }),
  defineUserRoute({
    method: 'patch',
    path: '/users/me',
    scopes: ['users.write'],
    tag: TAG,
    summary: 'Update the signed-in user',
    description:
      'Full name, avatar, locale, time zone, date format, week start, time format; `teamId` switches the current team (a team you belong to, with your own session). Only the fields sent change; the email comes from the identity provider.',
    body: updateUserBody,
    reply: one(userSchema),
    handler: ({ caller, body }) => updateMe(db, caller, body),
  }),
  defineUserRoute({
    method: 'delete',
    path: '/users/me',
    scopes: ['users.write'],
    tag: TAG,
    summary: 'Delete my account',
    description:
      'Needs your own session. Your memberships, API keys, OAuth grants and conversations go with it. Refused (409) while you are the last owner of a team: make another member an owner, or delete the team, first.',
    reply: none,
    handler: ({ caller }) => deleteMe(db, caller),
  }),
  defineUserRoute({
    method: 'get',
    path: '/users/me/invitations',
    scopes: ['users.read'],
    tag: TAG,
    summary: 'Invitations waiting for me',
    description: 'Invitations to any team addressed to your email that can still be accepted, newest first.',
    reply: all(invitationSchema),
    handler: ({ caller }) => listMyInvitations(db, caller),
  }),
  defineUserRoute({
    method: 'post',
    path: '/users/me/invitations/:id/accept',
    scopes: ['users.write'],
    tag: TAG,
    summary: 'Accept an invitation',
    description:
      'Needs your own session, signed in with the invited address. You join the team with the role of the invitation (once, however often this is sent: a repeat answers as the first did); it becomes your current team when you have none. 409 once it was declined, revoked or has expired.',
    params: invitationIdParams,
    reply: one(acceptedInvitationSchema),
    handler: ({ caller, params }) => acceptInvitation(db, temporal, caller, params.id, config.INBOX_DOMAIN),
  }),
  defineUserRoute({
    method: 'post',
    path: '/users/me/invitations/:id/decline',
    scopes: ['users.write'],
    tag: TAG,
    summary: 'Decline an invitation',
    params: invitationIdParams,
    reply: one(invitationSchema),
    handler: ({ caller, params }) => declineInvitation(db, temporal, caller, params.id),
  }),
];
