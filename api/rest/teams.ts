import { z } from 'zod';
import { currentTeam, teamSchema } from '../../shared/domain/teams/current';
import type { ApiDeps } from '../deps';
import { defineRoute } from './define';

export const teamRoutes = ({ db, config }: Pick<ApiDeps, 'db' | 'config'>) => [
  defineRoute({
    method: 'get', path: '/teams/current', tag: 'Teams', summary: 'The caller\'s team',
    description: 'Includes the team\'s inbox id, to connect a chat number or forward receipts by email.',
    response: z.object({ data: teamSchema }).meta({ id: 'TeamEnvelope' }),
    handler: async ({ principal }) => ({ data: await currentTeam(db, principal.teamId, config.INBOX_DOMAIN) }),
  }),
];
