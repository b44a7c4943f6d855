import { z } from 'zod';
import type { Db } from '../../db/knex';
import { Document, TEAM_PLANS, Team } from '../../db/models';
import { toIso } from '../../db/timestamps';
import { badRequest, notFound } from '../../errors';
import { currencyCode } from '../common/currency';
import { timeZone } from '../common/time-zone';
import { vatIdInput } from '../common/vat-id';

export const teamSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    inboxId: z
      .string()
      .meta({ description: 'Send receipts to this: by chat ("Connect inbox <id>") or by email to `<inboxId>@<inbox domain>`.' }),
    inboxEmail: z.string(),
    email: z.string().nullable().meta({ description: 'Contact address of the team.' }),
    baseCurrency: z.string().nullable().meta({ description: 'The currency the team reports in (ISO 4217).' }),
    countryCode: z.string().nullable().meta({ description: 'ISO 3166-1 alpha-2.' }),
    logoUrl: z.string().nullable(),
    fiscalYearStartMonth: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'Month the fiscal year starts (1 = January); null: the calendar year.' }),
    timezone: z.string().nullable().meta({ description: 'IANA time zone the team reports in.' }),
    plan: z.enum(TEAM_PLANS),
    subscriptionStatus: z.string().nullable(),
    autoMatch: z.boolean().meta({ description: 'Link receipts to transactions without asking when the match is near certain.' }),
    learnedCategoryThreshold: z.number().meta({
      description:
        "From this confidence (0 to 1) a category learned from the team's similar past transactions is applied to a new transaction; below it, it is only offered as `suggestedCategory`. Default 0.85.",
    }),
    invoiceReminderDays: z
      .array(z.number().int())
      .meta({ description: 'Days after the due date on which an overdue invoice is chased (for customers with reminders on).' }),
    invoicePrefix: z.string().meta({ description: 'New invoices are numbered with this prefix: `INV-0001`.' }),
    logoDocumentId: z
      .uuid()
      .nullable()
      .meta({ description: 'An uploaded document (PNG or JPEG, at most 2 MB) printed at the top of every invoice.' }),
    invoicePaymentDetails: z.string().nullable().meta({
      description: 'How customers pay (bank account, IBAN and BIC, a payment link): printed on every invoice and its public page.',
    }),
    invoiceNextNumber: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'The number the next invoice starts from, when it is above the highest one used with the prefix.' }),
    addressLine1: z.string().nullable().meta({ description: "The seller's postal address on e-invoices (with `countryCode`)." }),
    addressLine2: z.string().nullable(),
    city: z.string().nullable(),
    zip: z.string().nullable(),
    vatNumber: z.string().nullable().meta({ description: "The team's VAT identifier (BT-31 of its e-invoices)." }),
    taxNumber: z
      .string()
      .nullable()
      .meta({ description: 'The national tax number (German Steuernummer, BT-32), for a seller without a VAT identifier.' }),
    registrationNumber: z.string().nullable().meta({
      description: 'The legal registration (commercial register, e.g. `HRB 12345 B`; BT-30): identifies a seller without a VAT identifier.',
    }),
    phone: z.string().nullable().meta({ description: 'The seller contact telephone XRechnung asks for.' }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Team' });

export type TeamDto = z.infer<typeof teamSchema>;

export const toTeamDto = (t: Team, inboxDomain: string): TeamDto => ({
  id: t.id,
  name: t.name,
  inboxId: t.inboxId,
  inboxEmail: `${t.inboxId}@${inboxDomain}`,
  email: t.email,
  baseCurrency: t.baseCurrency,
  countryCode: t.countryCode,
  logoUrl: t.logoUrl,
  fiscalYearStartMonth: t.fiscalYearStartMonth,
  timezone: t.timezone,
  plan: t.plan,
  subscriptionStatus: t.subscriptionStatus,
  autoMatch: t.autoMatch,
  learnedCategoryThreshold: t.learnedCategoryThreshold,
  invoiceReminderDays: t.invoiceReminderDays,
  invoicePrefix: t.invoicePrefix,
  invoiceNextNumber: t.invoiceNextNumber,
  invoicePaymentDetails: t.invoicePaymentDetails,
  logoDocumentId: t.logoDocumentId,
  addressLine1: t.addressLine1,
  addressLine2: t.addressLine2,
  city: t.city,
  zip: t.zip,
  vatNumber: t.vatNumber,
  taxNumber: t.taxNumber,
  registrationNumber: t.registrationNumber,
  phone: t.phone,
  createdAt: toIso(t.createdAt),
});

/** The team's name, for what is written on its behalf; null once the team is gone. */
export async function teamNameOf(db: Db, teamId: string): Promise<string | null> {
  return (await Team.query(db).findById(teamId).select('name'))?.name ?? null;
}

export async function currentTeam(db: Db, teamId: string, inboxDomain: string): Promise<TeamDto> {
  const team = await Team.query(db).findById(teamId);
  if (!team) throw notFound('Team not found');
  return toTeamDto(team, inboxDomain);
}

export const updateTeamBody = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    email: z.email().nullable().optional(),
    baseCurrency: currencyCode.nullable().optional(),
    countryCode: z
      .string()
      .regex(/^[A-Z]{2}$/, 'ISO 3166-1 alpha-2, upper case')
      .nullable()
      .optional(),
    logoUrl: z
      .url({ protocol: /^https$/, hostname: z.regexes.domain })
      .max(2000)
      .nullable()
      .optional()
      .meta({ description: 'https URL of the logo.' }),
    fiscalYearStartMonth: z.number().int().min(1).max(12).nullable().optional(),
    timezone: timeZone.nullable().optional(),
    autoMatch: z.boolean().optional().meta({ description: 'Link receipts to transactions without asking when the match is near certain.' }),
    learnedCategoryThreshold: z.number().min(0).max(1).optional().meta({
      description:
        'From this confidence a learned category is applied to new transactions; below it, only suggested. 1 only ever suggests.',
      example: 0.85,
    }),
    invoiceReminderDays: z
      .array(z.number().int().min(1).max(365))
      .max(10)
      .refine((days) => new Set(days).size === days.length, 'each day once')
      .optional()
      .meta({ description: 'Days after the due date for reminders, e.g. [3, 7, 14]; [] turns reminders off for the whole team.' }),
    invoicePrefix: z
      .string()
      .max(20)
      .regex(/^[^\d\s]*$/, 'letters and punctuation, no digits or spaces')
      .optional()
      .meta({ description: 'e.g. `INV-`, `2026/`, or empty for plain numbers.' }),
    invoiceNextNumber: z.number().int().min(1).max(999_999_999).nullable().optional(),
    logoDocumentId: z
      .uuid()
      .nullable()
      .optional()
      .meta({ description: 'A document of the team: PNG or JPEG, at most 2 MB (400 otherwise).' }),
    invoicePaymentDetails: z
      .string()
      .trim()
      .max(1000)
      .nullable()
      .optional()
      .meta({ description: 'e.g. "IBAN DE89 3704 0044 0532 0130 00, BIC COBADEFFXXX".' }),
    addressLine1: z.string().trim().max(200).nullable().optional(),
    addressLine2: z.string().trim().max(200).nullable().optional(),
    city: z.string().trim().max(100).nullable().optional(),
    zip: z.string().trim().max(20).nullable().optional(),
    vatNumber: vatIdInput.nullable().optional(),
    taxNumber: z.string().trim().min(1).max(50).nullable().optional(),
    registrationNumber: z.string().trim().min(1).max(100).nullable().optional(),
    phone: z.string().trim().max(50).nullable().optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'give at least one field to change' })
  .meta({ id: 'UpdateTeam' });
export type UpdateTeamBody = z.infer<typeof updateTeamBody>;

const LOGO_TYPES = ['image/png', 'image/jpeg'];
const LOGO_MAX_BYTES = 2 * 1024 * 1024;

/** Changes the caller's own team; the inbox id and plan are not the team's to change. */
export async function updateCurrentTeam(db: Db, teamId: string, inboxDomain: string, body: UpdateTeamBody): Promise<TeamDto> {
  if (body.logoDocumentId) {
    const doc = await Document.query(db).findOne({ teamId, id: body.logoDocumentId }).select('mimeType', 'size');
    if (!doc || !LOGO_TYPES.includes(doc.mimeType) || doc.size > LOGO_MAX_BYTES) {
      throw badRequest('Invalid logo', [{ field: 'logoDocumentId', message: 'a PNG or JPEG document of your team, at most 2 MB' }]);
    }
  }
  const team = (
    await Team.query(db)
      .patch({ ...body, updatedAt: new Date() })
      .where({ id: teamId })
      .returning('*')
  ).at(0);
  if (!team) throw notFound('Team not found');
  return toTeamDto(team, inboxDomain);
}
