import { z } from 'zod';
import type { Db } from '../../db/knex';
import { notFound } from '../../errors';
import { currencyCode } from '../common/currency';

export const teamSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    inboxId: z.string().meta({ description: 'Send receipts to this: by chat ("Connect inbox <id>") or by email to `<inboxId>@<inbox domain>`.' }),
    inboxEmail: z.string(),
    email: z.string().nullable().meta({ description: 'Contact address of the team.' }),
    baseCurrency: z.string().nullable().meta({ description: 'The currency the team reports in (ISO 4217).' }),
    countryCode: z.string().nullable().meta({ description: 'ISO 3166-1 alpha-2.' }),
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
    email: t.email,
    baseCurrency: t.baseCurrency,
    countryCode: t.countryCode,
    plan: t.plan,
    subscriptionStatus: t.subscriptionStatus,
    autoMatch: t.autoMatch,
    createdAt: new Date(t.createdAt).toISOString(),
  };
}

export const updateTeamBody = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    email: z.email().nullable().optional(),
    baseCurrency: currencyCode.nullable().optional(),
    countryCode: z.string().regex(/^[A-Z]{2}$/, 'ISO 3166-1 alpha-2, upper case').nullable().optional(),
    autoMatch: z.boolean().optional().meta({ description: 'Link receipts to transactions without asking when the match is near certain.' }),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'give at least one field to change' })
  .meta({ id: 'UpdateTeam' });
export type UpdateTeamBody = z.infer<typeof updateTeamBody>;

/** Changes the caller's own team; the inbox id and plan are not the team's to change. */
export async function updateCurrentTeam(db: Db, teamId: string, inboxDomain: string, body: UpdateTeamBody) {
  const updated = await db('teams').where({ id: teamId }).update({ ...body, updatedAt: new Date() });
  if (!updated) throw notFound('Team not found');
  return currentTeam(db, teamId, inboxDomain);
}
