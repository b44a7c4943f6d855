import { z } from 'zod';
import { PROJECT_STATUSES } from '../../db/models';
import { isoDate, isoTimestamp, pageSize } from '../common/query';
import { currencyCode } from '../common/currency';

const currency = currencyCode;

export const projectSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    status: z.enum(PROJECT_STATUSES),
    billable: z.boolean(),
    rate: z.number().nullable().meta({ description: 'Hourly rate.' }),
    currency: z.string().nullable(),
    estimateHours: z.number().nullable(),
    customer: z.object({ id: z.uuid(), name: z.string() }).nullable(),
    totalDuration: z.number().meta({ description: 'Seconds tracked on finished entries.' }),
    totalAmount: z.number().meta({ description: "Billable value of the tracked time at each entry's rate (or the project rate)." }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'TrackerProject', description: 'A project time is tracked against.' });

export type ProjectDto = z.infer<typeof projectSchema>;

const projectFields = {
  description: z.string().max(5000).nullable().optional(),
  status: z.enum(PROJECT_STATUSES).optional(),
  billable: z.boolean().optional(),
  rate: z.number().min(0).max(1e9).nullable().optional(),
  currency: currency.nullable().optional(),
  estimateHours: z.number().int().min(0).max(1e6).nullable().optional(),
  customerId: z.uuid().nullable().optional(),
};

export const createProjectBody = z
  .object({ name: z.string().trim().min(1).max(200), ...projectFields })
  .strict()
  .meta({ id: 'CreateTrackerProject' });
export const updateProjectBody = z
  .object({ name: z.string().trim().min(1).max(200).optional(), ...projectFields })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'give at least one field to change' })
  .meta({ id: 'UpdateTrackerProject' });

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

export const listProjectsQuery = z.object({
  cursor: z.string().optional(),
  pageSize,
  status: z.enum(PROJECT_STATUSES).optional(),
});

export const idParams = z.object({ id: z.uuid() });

/** An unpaginated range of entries carries its range and the sum of the finished entries' durations. */
export const entryRangeMetaSchema = z.object({
  totalDuration: z.number().meta({ description: 'Seconds, finished entries only.' }),
  from: z.string(),
  to: z.string(),
});
