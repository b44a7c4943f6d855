import { z } from 'zod';
import { isoDate, isoTimestamp } from '../common/query';
import { currencyCode } from '../common/currency';

/** Entries are addressed by id as projects are: one path schema for both. */
export { idParams } from '../tracker-projects/schema';

const currency = currencyCode;

/** One entry spans at most a year: longer spans are typing mistakes (and would not fit the stored seconds). */
export const MAX_ENTRY_DAYS = 366;
const withinMaxSpan = (start: string, stop: string) => new Date(stop).getTime() - new Date(start).getTime() <= MAX_ENTRY_DAYS * 86_400_000;

export const entrySchema = z
  .object({
    id: z.uuid(),
    projectId: z.uuid(),
    assignedId: z.uuid().nullable(),
    description: z.string().nullable(),
    date: z.string(),
    start: z.iso.datetime(),
    stop: z.iso.datetime().nullable().meta({ description: 'Null while the timer runs.' }),
    duration: z.number().nullable().meta({ description: 'Seconds; null while the timer runs.' }),
    rate: z.number().nullable(),
    currency: z.string().nullable(),
    billed: z.boolean(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'TrackerEntry', description: 'Time spent on a project; an entry without `stop` is a running timer.' });

export type EntryDto = z.infer<typeof entrySchema>;

export const createEntryBody = z
  .object({
    projectId: z.uuid(),
    start: isoTimestamp,
    stop: isoTimestamp.nullable().optional().meta({ description: 'Omit to start a timer (a running timer of yours is stopped first).' }),
    description: z.string().max(2000).nullable().optional(),
    assignedId: z.uuid().nullable().optional().meta({ description: 'Team member who did the work; default you.' }),
    rate: z.number().min(0).max(1e9).nullable().optional(),
    currency: currency.nullable().optional(),
    billed: z.boolean().optional(),
  })
  .strict()
  .refine((b) => !b.stop || new Date(b.stop) >= new Date(b.start), { message: '`stop` must not be before `start`', path: ['stop'] })
  .refine((b) => !b.stop || withinMaxSpan(b.start, b.stop), { message: `an entry spans at most ${MAX_ENTRY_DAYS} days`, path: ['stop'] })
  .meta({ id: 'CreateTrackerEntry' });

export const updateEntryBody = z
  .object({
    start: isoTimestamp.optional(),
    stop: isoTimestamp.nullable().optional(),
    description: z.string().max(2000).nullable().optional(),
    rate: z.number().min(0).max(1e9).nullable().optional(),
    currency: currency.nullable().optional(),
    billed: z.boolean().optional(),
  })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'give at least one field to change' })
  .meta({ id: 'UpdateTrackerEntry' });

export const listEntriesQuery = z
  .object({
    from: isoDate.meta({ description: 'First day, inclusive.' }),
    to: isoDate.meta({ description: 'Last day, inclusive (at most 366 days after `from`).' }),
    projectId: z.uuid().optional(),
  })
  .refine((q) => q.from <= q.to, { message: '`from` must not be after `to`', path: ['from'] })
  .refine((q) => new Date(q.to).getTime() - new Date(q.from).getTime() <= 366 * 86_400_000, { message: 'at most 366 days', path: ['to'] });

/** An unpaginated range of entries carries its range and the sum of the finished entries' durations. */
export const entryRangeMetaSchema = z.object({
  totalDuration: z.number().meta({ description: 'Seconds, finished entries only.' }),
  from: z.string(),
  to: z.string(),
});
