import { currentTeam, teamSchema, updateCurrentTeam, updateTeamBody } from '../../shared/domain/teams/current';
import { requestTeamDeletion, teamDeletionProgressFor } from '../../shared/domain/teams/deletion';
import { inviteMember, listTeamInvitations, revokeInvitation } from '../../shared/domain/teams/invitations';
import { changeRole, listMembers, removeMember } from '../../shared/domain/teams/members';
import {
  createInvitationBody,
  createTeamBody,
  deletionProgressSchema,
  invitationParams,
  invitationSchema,
  memberParams,
  memberSchema,
  myTeamSchema,
  teamIdParams,
  updateMemberBody,
} from '../../shared/domain/teams/schema';
import { createTeamFor, getTeamFor, listMyTeams, regenerateInboxId, updateTeamFor } from '../../shared/domain/teams/teams';
import { keepWeeklyInsightsScheduled } from '../../shared/domain/insights/schedule';
import type { ApiDeps } from '../deps';
import { defineRoute, defineUserRoute } from './define';
import { all, none, one } from './replies';

const TAG = 'Teams';
const BY_ID = 'A session reaches every team its user belongs to; an API key or OAuth token only its own. Any other id is 404.';

export const teamRoutes = ({ db, config, temporal, logger }: Pick<ApiDeps, 'db' | 'config' | 'temporal' | 'logger'>) => {
  const scheduled = (changes?: { timezone?: unknown }) => keepWeeklyInsightsScheduled(temporal, logger, changes);
  return [
    // Before /teams/:id, which would read `current` as an id.
    defineRoute({
      method: 'get',
      path: '/teams/current',
      scopes: ['teams.read'],
      tag: TAG,
      summary: "The caller's team",
      description:
        "The team this request acts in: a key's or token's own team; for a session the team named by `x-team-id`, else the user's current team. Includes the team's inbox id, to connect a chat number or forward receipts by email.",
      reply: one(teamSchema),
      handler: ({ principal }) => currentTeam(db, principal.teamId, config.INBOX_DOMAIN),
    }),
    defineRoute({
      method: 'patch',
      path: '/teams/current',
      scopes: ['teams.write'],
      tag: TAG,
      summary: "Update the caller's team",
      description:
        'Name, logo, contact email, base currency, country, fiscal year start, time zone, and whether near-certain receipt matches are linked without asking (`autoMatch`). Only the fields sent change.',
      body: updateTeamBody,
      reply: one(teamSchema),
      handler: ({ principal, body }) => updateCurrentTeam(db, principal.teamId, config.INBOX_DOMAIN, body).then(scheduled(body)),
    }),
    defineUserRoute({
      method: 'get',
      path: '/teams',
      scopes: ['teams.read'],
      tag: TAG,
      summary: 'My teams',
      description:
        'Every team the signed-in user belongs to, with their role, in the order they joined. An API key or OAuth token lists only its own team. `current` marks the team this request acts in.',
      reply: all(myTeamSchema),
      handler: ({ caller }) => listMyTeams(db, caller, config.INBOX_DOMAIN),
    }),
    defineUserRoute({
      method: 'post',
      path: '/teams',
      scopes: ['teams.write'],
      tag: TAG,
      summary: 'Create a team',
      description:
        'The signed-in user becomes its owner. It becomes their current team with `switchTeam: true`, or when they have none. Needs a session: API keys and OAuth tokens act only in their own team.',
      body: createTeamBody,
      reply: one(myTeamSchema),
      status: 201,
      handler: ({ caller, body }) => createTeamFor(db, caller, body, config.INBOX_DOMAIN).then(scheduled()),
    }),
    defineUserRoute({
      method: 'get',
      path: '/teams/:id',
      scopes: ['teams.read'],
      tag: TAG,
      summary: 'A team',
      description: BY_ID,
      params: teamIdParams,
      reply: one(myTeamSchema),
      handler: ({ caller, params }) => getTeamFor(db, caller, params.id, config.INBOX_DOMAIN),
    }),
    defineUserRoute({
      method: 'patch',
      path: '/teams/:id',
      scopes: ['teams.write'],
      tag: TAG,
      summary: 'Update a team',
      description: `Any member may change the settings (as on \`/teams/current\`); only the fields sent change. ${BY_ID}`,
      params: teamIdParams,
      body: updateTeamBody,
      reply: one(myTeamSchema),
      handler: ({ caller, params, body }) => updateTeamFor(db, caller, params.id, body, config.INBOX_DOMAIN).then(scheduled(body)),
    }),
    defineUserRoute({
      method: 'post',
      path: '/teams/:id/regenerate-inbox-id',
      scopes: ['teams.write'],
      tag: TAG,
      summary: 'Give the team a new inbox id',
      description:
        'Owners only. Mail to the old address and "Connect inbox <old id>" stop reaching the team at once; chat numbers already connected stay connected.',
      params: teamIdParams,
      reply: one(myTeamSchema),
      handler: ({ caller, params }) => regenerateInboxId(db, caller, params.id, config.INBOX_DOMAIN),
    }),
    defineUserRoute({
      method: 'delete',
      path: '/teams/:id',
      scopes: ['teams.write'],
      tag: TAG,
      summary: 'Delete a team with everything it owns',
      description:
        'Owners only. Answers 202 at once: from now on nobody acts in the team (its keys, tokens and sessions stop), and the TeamDeletion workflow (`team-deletion:<id>`) stops what runs for it and deletes its rows in batches. Follow it at `GET /teams/:id/deletion`.',
      params: teamIdParams,
      reply: one(deletionProgressSchema),
      status: 202,
      handler: ({ caller, params }) => requestTeamDeletion(db, temporal, caller, params.id, config.TEAM_DELETION_BATCH_SIZE),
    }),
    defineUserRoute({
      method: 'get',
      path: '/teams/:id/deletion',
      scopes: ['teams.read'],
      tag: TAG,
      summary: 'Progress of a team deletion',
      description: 'For the owner who asked for it, while it runs and after the team is gone: rows deleted per table.',
      params: teamIdParams,
      reply: one(deletionProgressSchema),
      handler: ({ caller, params }) => teamDeletionProgressFor(temporal, caller, params.id),
    }),
    defineUserRoute({
      method: 'get',
      path: '/teams/:id/members',
      scopes: ['teams.read'],
      tag: TAG,
      summary: 'Members of a team',
      description: `Oldest member first. ${BY_ID}`,
      params: teamIdParams,
      reply: all(memberSchema),
      handler: ({ caller, params }) => listMembers(db, caller, params.id),
    }),
    defineUserRoute({
      method: 'patch',
      path: '/teams/:id/members/:userId',
      scopes: ['teams.write'],
      tag: TAG,
      summary: "Change a member's role",
      description: 'Owners only. The last owner cannot become a member (409): make someone else an owner first.',
      params: memberParams,
      body: updateMemberBody,
      reply: one(memberSchema),
      handler: ({ caller, params, body }) => changeRole(db, caller, params.id, params.userId, body.role),
    }),
    defineUserRoute({
      method: 'delete',
      path: '/teams/:id/members/:userId',
      scopes: ['teams.write'],
      tag: TAG,
      summary: 'Remove a member, or leave',
      description:
        "Owners remove anyone; every member may remove themselves (leave). The last owner can do neither (409). The member's API keys, OAuth grants and consents in the team go too: their access ends on the next request.",
      params: memberParams,
      reply: none,
      handler: ({ caller, params }) => removeMember(db, caller, params.id, params.userId),
    }),
    defineUserRoute({
      method: 'get',
      path: '/teams/:id/invitations',
      scopes: ['teams.read'],
      tag: TAG,
      summary: 'Invitations waiting for an answer',
      params: teamIdParams,
      reply: all(invitationSchema),
      handler: ({ caller, params }) => listTeamInvitations(db, caller, params.id),
    }),
    defineUserRoute({
      method: 'post',
      path: '/teams/:id/invitations',
      scopes: ['teams.write'],
      tag: TAG,
      summary: 'Invite someone by email',
      description:
        'Owners only. The Invitation workflow (`invitation:<id>`) emails a link, sends one reminder before the invitation expires (`INVITATION_TTL`, 7 days by default) and then expires it. The invitee accepts signed in with that address. 409 for a member, or an address with an invitation already waiting.',
      params: teamIdParams,
      body: createInvitationBody,
      reply: one(invitationSchema),
      status: 201,
      handler: ({ caller, params, body }) => inviteMember(db, temporal, caller, params.id, body, { ttlMs: config.INVITATION_TTL }),
    }),
    defineUserRoute({
      method: 'delete',
      path: '/teams/:id/invitations/:invitationId',
      scopes: ['teams.write'],
      tag: TAG,
      summary: 'Revoke an invitation',
      description: 'Owners only; the link stops working at once. 409 when it was already accepted, declined or expired.',
      params: invitationParams,
      reply: none,
      handler: ({ caller, params }) => revokeInvitation(db, temporal, caller, params.id, params.invitationId),
    }),
  ];
};
