import { z } from 'zod';
import { currentTeam, teamSchema, updateCurrentTeam, updateTeamBody } from '../../shared/domain/teams/current';
import { requestTeamDeletion, teamDeletionProgressFor } from '../../shared/domain/teams/deletion';
import { inviteMember, listTeamInvitations, revokeInvitation } from '../../shared/domain/teams/invitations';
import { changeRole, listMembers, removeMember } from '../../shared/domain/teams/members';
import * as schema from '../../shared/domain/teams/schema';
import { createTeamFor, getTeamFor, listMyTeams, regenerateInboxId, updateTeamFor } from '../../shared/domain/teams/teams';
import { keepWeeklyInsightsScheduled } from '../../shared/domain/insights/schedule';
import { keepAuditCheckpointScheduled } from '../../shared/domain/audit-events/schedule';
import { all, mutation, none, one, query, trpcOnly } from './declare';

const BY_ID = 'A session reaches every team its user belongs to; an API key or OAuth token only its own. Any other id is 404.';

const teamId = z.object({ teamId: z.uuid().meta({ description: 'Team id.' }) });
const member = teamId.extend({ userId: z.uuid() });

export const teams = [
  query('teams.get', 'GET /teams', ['teams.read'], {
    formerly: ['teams.list'],
    forUser: true,
    summary: 'My teams',
    description:
      'Every team the signed-in user belongs to, with their role, in the order they joined. An API key or OAuth token lists only its own team. `current` marks the team this request acts in.',
    output: all(schema.myTeamSchema),
    run: ({ caller }, { db, config }) => listMyTeams(db, caller, config.INBOX_DOMAIN),
  }),
  query('teams.getById', 'GET /teams/:teamId', ['teams.read'], {
    formerly: ['teams.get'],
    forUser: true,
    summary: 'A team',
    description: BY_ID,
    input: teamId,
    output: one(schema.myTeamSchema),
    run: ({ caller, input }, { db, config }) => getTeamFor(db, caller, input.teamId, config.INBOX_DOMAIN),
  }),
  query('teams.current', 'GET /teams/current', ['teams.read'], {
    formerly: ['team.current'],
    summary: "The caller's team",
    description:
      "The team this request acts in: a key's or token's own team; for a session the team named by `x-team-id`, else the user's current team. Includes the team's inbox id, to connect a chat number or forward receipts by email.",
    output: one(teamSchema),
    run: ({ principal }, { db, config }) => currentTeam(db, principal.teamId, config.INBOX_DOMAIN),
  }),
  mutation('teams.create', 'POST /teams', ['teams.write'], {
    status: 201,
    forUser: true,
    summary: 'Create a team',
    description:
      'The signed-in user becomes its owner. It becomes their current team with `switchTeam: true`, or when they have none. Needs a session: API keys and OAuth tokens act only in their own team.',
    input: schema.createTeamBody,
    output: one(schema.myTeamSchema),
    run: ({ caller, input }, { db, config, temporal, logger }) =>
      createTeamFor(db, caller, input, config.INBOX_DOMAIN)
        .then(keepWeeklyInsightsScheduled(temporal, logger))
        .then(keepAuditCheckpointScheduled(temporal, logger)),
  }),
  mutation('teams.update', 'PATCH /teams/:teamId', ['teams.write'], {
    body: 'changes',
    forUser: true,
    summary: 'Update a team',
    description: `Any member may change the settings (as on \`/teams/current\`); only the fields sent change. ${BY_ID}`,
    input: z.object({ teamId: z.uuid().meta({ description: 'Team id.' }), changes: updateTeamBody }),
    output: one(schema.myTeamSchema),
    run: ({ caller, input }, { db, config, temporal, logger }) =>
      updateTeamFor(db, caller, input.teamId, input.changes, config.INBOX_DOMAIN).then(
        keepWeeklyInsightsScheduled(temporal, logger, input.changes),
      ),
  }),
  mutation('teams.updateCurrent', 'PATCH /teams/current', ['teams.write'], {
    formerly: ['team.update'],
    summary: "Update the caller's team",
    description:
      'Name, logo, contact email, base currency, country, fiscal year start, time zone, and whether near-certain receipt matches are linked without asking (`autoMatch`), and from which confidence a learned category is applied to new transactions (`learnedCategoryThreshold`). Only the fields sent change.',
    input: updateTeamBody,
    output: one(teamSchema),
    run: ({ principal, input }, { db, config, temporal, logger }) =>
      updateCurrentTeam(db, principal.teamId, config.INBOX_DOMAIN, input).then(keepWeeklyInsightsScheduled(temporal, logger, input)),
  }),
  mutation('teams.delete', 'DELETE /teams/:teamId', ['teams.write'], {
    status: 202,
    forUser: true,
    summary: 'Delete a team with everything it owns',
    description:
      'Owners only. Answers 202 at once: from now on nobody acts in the team (its keys, tokens and sessions stop), and the TeamDeletion workflow (`team-deletion:<id>`) stops what runs for it and deletes its rows in batches. Follow it at `GET /teams/:id/deletion`.',
    input: teamId,
    output: one(schema.deletionProgressSchema),
    run: ({ caller, input }, { db, temporal, config }) =>
      requestTeamDeletion(db, temporal, caller, input.teamId, config.TEAM_DELETION_BATCH_SIZE),
  }),
  mutation('teams.regenerateInboxId', 'POST /teams/:teamId/regenerate-inbox-id', ['teams.write'], {
    forUser: true,
    summary: 'Give the team a new inbox id',
    description:
      'Owners only. Mail to the old address and "Connect inbox <old id>" stop reaching the team at once; chat numbers already connected stay connected.',
    input: teamId,
    output: one(schema.myTeamSchema),
    run: ({ caller, input }, { db, config }) => regenerateInboxId(db, caller, input.teamId, config.INBOX_DOMAIN),
  }),
  query('teams.deletion', 'GET /teams/:teamId/deletion', ['teams.read'], {
    forUser: true,
    summary: 'Progress of a team deletion',
    description: 'For the owner who asked for it, while it runs and after the team is gone: rows deleted per table.',
    input: teamId,
    output: one(schema.deletionProgressSchema),
    run: ({ caller, input }, { temporal }) => teamDeletionProgressFor(temporal, caller, input.teamId),
  }),
  query('teams.members', 'GET /teams/:teamId/members', ['teams.read'], {
    forUser: true,
    summary: 'Members of a team',
    description: `Oldest member first. ${BY_ID}`,
    input: teamId,
    output: all(schema.memberSchema),
    run: ({ caller, input }, { db }) => listMembers(db, caller, input.teamId),
  }),
  mutation('teams.updateMember', 'PATCH /teams/:teamId/members/:userId', ['teams.write'], {
    forUser: true,
    summary: "Change a member's role",
    description: 'Owners only. The last owner cannot become a member (409): make someone else an owner first.',
    // Strict as the REST body always was: an unknown field is a 400, not silently dropped.
    input: member.extend(schema.updateMemberBody.shape).strict(),
    output: one(schema.memberSchema),
    run: ({ caller, input }, { db }) => changeRole(db, caller, input.teamId, input.userId, input.role),
  }),
  mutation('teams.removeMember', 'DELETE /teams/:teamId/members/:userId', ['teams.write'], {
    forUser: true,
    summary: 'Remove a member, or leave',
    description:
      "Owners remove anyone; every member may remove themselves (leave). The last owner can do neither (409). The member's API keys, OAuth grants and consents in the team go too: their access ends on the next request.",
    input: member,
    output: none,
    run: ({ caller, input }, { db }) => removeMember(db, caller, input.teamId, input.userId),
  }),
  mutation('teams.leave', trpcOnly('REST removes oneself with DELETE /teams/{teamId}/members/{userId}'), ['teams.write'], {
    forUser: true,
    summary: 'Leave a team',
    description: 'Removes the caller from the team, as removing oneself as a member does. The last owner cannot leave (409).',
    input: teamId,
    output: none,
    run: ({ caller, input }, { db }) => removeMember(db, caller, input.teamId, caller.userId),
  }),
  query('teams.invitations', 'GET /teams/:teamId/invitations', ['teams.read'], {
    forUser: true,
    summary: 'Invitations waiting for an answer',
    input: teamId,
    output: all(schema.invitationSchema),
    run: ({ caller, input }, { db }) => listTeamInvitations(db, caller, input.teamId),
  }),
  mutation('teams.invite', 'POST /teams/:teamId/invitations', ['teams.write'], {
    status: 201,
    body: 'invitation',
    forUser: true,
    summary: 'Invite someone by email',
    description:
      'Owners only. The Invitation workflow (`invitation:<id>`) emails a link, sends one reminder before the invitation expires (`INVITATION_TTL`, 7 days by default) and then expires it. The invitee accepts signed in with that address. 409 for a member, or an address with an invitation already waiting.',
    input: teamId.extend({ invitation: schema.createInvitationBody }),
    output: one(schema.invitationSchema),
    run: ({ caller, input }, { db, temporal, config }) =>
      inviteMember(db, temporal, caller, input.teamId, input.invitation, { ttlMs: config.INVITATION_TTL }),
  }),
  mutation('teams.revokeInvitation', 'DELETE /teams/:teamId/invitations/:invitationId', ['teams.write'], {
    forUser: true,
    summary: 'Revoke an invitation',
    description: 'Owners only; the link stops working at once. 409 when it was already accepted, declined or expired.',
    input: teamId.extend({ invitationId: z.uuid() }),
    output: none,
    run: ({ caller, input }, { db, temporal }) => revokeInvitation(db, temporal, caller, input.teamId, input.invitationId),
  }),
];
