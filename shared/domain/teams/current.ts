import { z } from 'zod';
import type { Db } from '../../db/knex';
import { notFound } from '../../errors';

export const teamSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    inboxId: z.string().meta({ description: 'Send receipts to this: by chat ("Connect inbox <id>") or by email to `<inboxId>@<inbox domain>`.' }),
    inboxEmail: z.string(),
    baseCurrency: z.string().nullable(),
    plan: z.enum(['trial', 'starter', 'pro']),
    subscriptionStatus: z.string().nullable(),
    autoMatch: z.boolean().meta({ description: 'Link receipts to transactions without asking when the match is near certain.' }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Team' });

export async function currentTeam(db: Db, teamId: string, inboxDomain: string): Promise<z.infer<typeof teamSchema>> {
  const t = await db('teams').where({ id: teamId }).first();
  if (!t) throw notFound('Team not found');
  return {
    id: t.id,
    name: t.name,
    inboxId: t.inboxId,
    inboxEmail: `${t.inboxId}@${inboxDomain}`,
    baseCurrency: t.baseCurrency,
    plan: t.plan,
    subscriptionStatus: t.subscriptionStatus,
    autoMatch: t.autoMatch,
    createdAt: new Date(t.createdAt).toISOString(),
  };
}
