import { z } from 'zod';
import { currencyCode } from '../common/currency';
import { timeZone } from '../common/time-zone';
import { teamSchema } from './current';
import { INVITATION_STATUSES } from '../../db/models';

export const TEAM_ROLES = ['owner', 'member'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
const role = z.enum(TEAM_ROLES).meta({ description: '`owner`: manages members, invitations and the team itself; `member`: works in it.' });

export const teamIdParams = z.object({ id: z.uuid().meta({ description: 'Team id.' }) });
export const memberParams = z.object({ id: z.uuid(), userId: z.uuid() });
export const invitationParams = z.object({ id: z.uuid(), invitationId: z.uuid() });
export const invitationIdParams = z.object({ id: z.uuid().meta({ description: 'Invitation id.' }) });

export const myTeamSchema = teamSchema
  .extend({
    role,
    current: z.boolean().meta({ description: 'The team a session acts in when it names none (`x-team-id`).' }),
  })
  .meta({ id: 'MyTeam', description: 'A team the caller belongs to, with their role in it.' });
export type MyTeamDto = z.infer<typeof myTeamSchema>;

export const createTeamBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    baseCurrency: currencyCode.optional(),
    countryCode: z
      .string()
      .regex(/^[A-Z]{2}$/, 'ISO 3166-1 alpha-2, upper case')
      .optional(),
    fiscalYearStartMonth: z.number().int().min(1).max(12).optional(),
    timezone: timeZone.optional(),
    switchTeam: z.boolean().optional().meta({ description: 'Make it your current team. Default: only when you have no current team.' }),
  })
  .strict()
  .meta({ id: 'CreateTeam' });
export type CreateTeamBody = z.infer<typeof createTeamBody>;

export const memberSchema = z
  .object({
    userId: z.uuid(),
    email: z.string(),
    fullName: z.string().nullable(),
    avatarUrl: z.string().nullable(),
    role,
    joinedAt: z.iso.datetime(),
  })
  .meta({ id: 'TeamMember' });
export type MemberDto = z.infer<typeof memberSchema>;

export const updateMemberBody = z.object({ role }).strict().meta({ id: 'UpdateTeamMember' });

export const invitationSchema = z
  .object({
    id: z.uuid(),
    teamId: z.uuid(),
    teamName: z.string(),
    email: z.string(),
    role,
    status: z.enum(INVITATION_STATUSES),
    invitedBy: z.object({ id: z.uuid(), fullName: z.string().nullable(), email: z.string() }).nullable(),
    expiresAt: z.iso.datetime(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'TeamInvitation', description: 'An invitation by email to join a team; it can be accepted until it expires.' });
export type InvitationDto = z.infer<typeof invitationSchema>;

export const createInvitationBody = z
  .object({
    email: z.email().max(320).meta({ description: 'Who to invite; they accept signed in with this address.' }),
    role: role.default('member'),
  })
  .strict()
  .meta({ id: 'CreateTeamInvitation' });
export type CreateInvitationBody = z.infer<typeof createInvitationBody>;

export const acceptedInvitationSchema = z
  .object({ invitation: invitationSchema, team: myTeamSchema })
  .meta({ id: 'AcceptedInvitation', description: 'The invitation, and the team you now belong to.' });

export const deletionProgressSchema = z
  .object({
    teamId: z.uuid(),
    teamName: z.string().nullable(),
    workflowId: z.string(),
    stage: z.enum(['starting', 'revoking_access', 'stopping_work', 'deleting', 'done']),
    deletedRows: z.number().int(),
    tables: z.array(z.object({ table: z.string(), total: z.number().int(), deleted: z.number().int(), done: z.boolean() })),
  })
  .meta({
    id: 'TeamDeletionProgress',
    description:
      'A team deletion under way (or finished): access is revoked first, then everything running for the team stops, then its rows go table by table in batches.',
  });
export type DeletionProgressDto = z.infer<typeof deletionProgressSchema>;
