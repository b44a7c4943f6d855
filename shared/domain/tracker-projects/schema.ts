import { z } from 'zod';
import { PROJECT_STATUSES } from '../../db/models';
import { pageSize } from '../common/query';
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

export const listProjectsQuery = z.object({
  cursor: z.string().optional(),
  pageSize,
  status: z.enum(PROJECT_STATUSES).optional(),
});

export const idParams = z.object({ id: z.uuid() });
