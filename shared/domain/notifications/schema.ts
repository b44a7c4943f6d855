import { z } from 'zod';
import { NOTIFICATION_STATUSES } from '../../db/models';
import { multi, pageSize } from '../common/query';
import { NOTIFICATION_TYPES } from './types';

const status = z.enum(NOTIFICATION_STATUSES);
const type = z.enum(NOTIFICATION_TYPES);

export const notificationSchema = z
  .object({
    id: z.uuid(),
    type,
    title: z.string().meta({ description: 'One line for a person, in English.' }),
    priority: z.number().int().min(1).max(10).meta({ description: '1 is the most urgent; 1–3 are shown to people.' }),
    status: status.meta({ description: "The caller's own: a team-wide notification read by one member stays unread for the others." }),
    audience: z.enum(['team', 'user']).meta({ description: '`team`: every member sees it; `user`: only the caller.' }),
    metadata: z.record(z.string(), z.unknown()).meta({ description: 'The ids and figures behind it; its fields depend on `type`.' }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Notification', description: 'Something that happened in the team that a member should know.' });
export type NotificationDto = z.infer<typeof notificationSchema>;

export const listNotificationsQuery = z.object({
  cursor: z.string().optional().meta({ description: "Opaque cursor from the previous page's `meta.cursor`." }),
  pageSize,
  status: multi(status).meta({ description: 'One or more statuses; by default `unread` and `read` (archived ones are left out).' }),
  type: multi(type).meta({ description: 'One or more types.' }),
  maxPriority: z.coerce.number().int().min(1).max(10).optional().meta({ description: 'Only this urgent or more (3: what people see).' }),
});
export type ListNotificationsQuery = z.infer<typeof listNotificationsQuery>;

export const notificationIdParams = z.object({ id: z.uuid() });

export const notificationStatusBody = z.object({ status }).strict().meta({ id: 'NotificationStatus' });

export const bulkNotificationStatusBody = z
  .object({
    status,
    ids: z.array(z.uuid()).min(1).max(500).optional().meta({ description: 'The notifications to change (up to 500).' }),
    all: z.literal(true).optional().meta({ description: 'Every notification the caller sees, as of now.' }),
  })
  .strict()
  .refine((b) => (b.ids === undefined) !== (b.all === undefined), { message: 'give either ids or all: true', path: ['ids'] })
  .meta({ id: 'BulkNotificationStatus' });
export type BulkNotificationStatusBody = z.infer<typeof bulkNotificationStatusBody>;

export const bulkStatusResultSchema = z
  .object({ updated: z.number().int().meta({ description: 'How many notifications changed status.' }) })
  .meta({ id: 'BulkNotificationStatusResult' });

export const unreadCountSchema = z.object({ unread: z.number().int() }).meta({ id: 'UnreadNotifications' });

export const notificationSettingSchema = z
  .object({
    type,
    description: z.string(),
    inApp: z.boolean().meta({ description: 'Shown in the list and counted as unread.' }),
    email: z.boolean().meta({ description: 'Also sent by email (NotificationDelivery workflow).' }),
  })
  .meta({ id: 'NotificationSetting', description: "The caller's choice for one type, in this team." });
export type NotificationSettingDto = z.infer<typeof notificationSettingSchema>;

export const notificationTypeParams = z.object({ type });
export const updateNotificationSettingBody = z
  .object({ inApp: z.boolean().optional(), email: z.boolean().optional() })
  .strict()
  .refine((b) => b.inApp !== undefined || b.email !== undefined, { message: 'give inApp, email or both' })
  .meta({ id: 'UpdateNotificationSetting' });
export type UpdateNotificationSettingBody = z.infer<typeof updateNotificationSettingBody>;
