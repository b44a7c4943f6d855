import { z } from 'zod';
import { currentTeam, teamSchema, updateCurrentTeam, updateTeamBody } from '../../shared/domain/teams/current';
import type { ApiDeps } from '../deps';
import { defineRoute } from './define';

const teamEnvelope = z.object({ data: teamSchema }).meta({ id: 'TeamEnvelope' });

export const teamRoutes = ({ db, config }: Pick<ApiDeps, 'db' | 'config'>) => [
  defineRoute({
    method: 'get', path: '/teams/current', tag: 'Teams', summary: 'The caller\'s team',
    description: 'Includes the team\'s inbox id, to connect a chat number or forward receipts by email.',
    response: teamEnvelope,
    handler: async ({ principal }) => ({ data: await currentTeam(db, principal.teamId, config.INBOX_DOMAIN) }),
  }),
  defineRoute({
    method: 'patch', path: '/teams/current', tag: 'Teams', summary: 'Update the caller\'s team',
    description: 'Name, contact email, base currency, country, and whether near-certain receipt matches are linked without asking (`autoMatch`). Only the fields sent change.',
    body: updateTeamBody,
    response: teamEnvelope,
    handler: async ({ principal, body }) => ({ data: await updateCurrentTeam(db, principal.teamId, config.INBOX_DOMAIN, body) }),
  }),
];
