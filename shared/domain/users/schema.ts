import { z } from 'zod';
import { timeZone } from '../common/time-zone';

export const DATE_FORMATS = ['dd/MM/yyyy', 'MM/dd/yyyy', 'yyyy-MM-dd', 'dd.MM.yyyy'] as const;

const isLocale = (s: string) => {
  try {
    return Intl.getCanonicalLocales(s).length === 1;
  } catch {
    return false;
  }
};

export const userSchema = z
  .object({
    id: z.uuid(),
    email: z.string().meta({ description: 'From the identity provider; change it there.' }),
    fullName: z.string().nullable(),
    avatarUrl: z.string().nullable(),
    locale: z.string().meta({ description: 'BCP 47, e.g. `en` or `de-AT`.' }),
    timezone: z.string().nullable().meta({ description: 'IANA time zone; the assistant reads "last month" there.' }),
    dateFormat: z.enum(DATE_FORMATS).nullable(),
    weekStartsOnMonday: z.boolean(),
    timeFormat: z.union([z.literal(12), z.literal(24)]).nullable(),
    teamId: z.uuid().nullable().meta({ description: 'The current team: where a session acts unless it sends `x-team-id`.' }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'User' });
export type UserDto = z.infer<typeof userSchema>;

export const updateUserBody = z
  .object({
    fullName: z.string().trim().min(1).max(200).nullable().optional(),
    avatarUrl: z
      .url({ protocol: /^https$/, hostname: z.regexes.domain })
      .max(2000)
      .nullable()
      .optional()
      .meta({ description: 'https URL of the picture.' }),
    locale: z.string().max(35).refine(isLocale, 'a BCP 47 language tag such as en or de-AT').optional(),
    timezone: timeZone.nullable().optional(),
    dateFormat: z.enum(DATE_FORMATS).nullable().optional(),
    weekStartsOnMonday: z.boolean().optional(),
    timeFormat: z
      .union([z.literal(12), z.literal(24)])
      .nullable()
      .optional(),
    teamId: z.uuid().optional().meta({ description: 'Switch the current team (a team you belong to; needs your own session).' }),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'give at least one field to change' })
  .meta({ id: 'UpdateUser' });
export type UpdateUserBody = z.infer<typeof updateUserBody>;

export const switchTeamBody = z.object({ teamId: z.uuid() }).strict().meta({ id: 'SwitchTeam' });
