import * as reading from '../../shared/domain/notifications/reading';
import * as schema from '../../shared/domain/notifications/schema';
import { notificationSettings, updateNotificationSetting } from '../../shared/domain/notifications/settings';
import { all, mutation, one, page, query } from './declare';

/** The caller's notifications in the team: their own and the team's, each read or archived per member. */
export const notifications = [
  query('notifications.get', 'GET /notifications', ['notifications.read'], {
    summary: 'List notifications',
    description:
      "Newest first, keyset-paginated: the team's notifications and the caller's own, without the types the caller turned off in the app. The status is the caller's.",
    input: schema.listNotificationsQuery,
    output: page(schema.notificationSchema),
    run: ({ principal, input }, { db }) => reading.listNotifications(db, principal, input),
  }),
  query('notifications.settings', 'GET /notifications/settings', ['notifications.read'], {
    summary: "List the caller's notification settings",
    description: 'One entry per type, in the app and by email; a type never changed shows the defaults (in the app, not by email).',
    output: all(schema.notificationSettingSchema),
    run: ({ principal }, { db }) => notificationSettings(db, principal),
  }),
  query('notifications.getById', 'GET /notifications/:id', ['notifications.read'], {
    summary: 'Get a notification',
    input: schema.notificationIdParams,
    output: one(schema.notificationSchema),
    run: ({ principal, input }, { db }) => reading.getNotification(db, principal, input.id),
  }),
  query('notifications.unreadCount', 'GET /notifications/unread-count', ['notifications.read'], {
    summary: 'Count unread notifications',
    description: 'What a badge shows: the notifications the list would show as `unread`.',
    output: one(schema.unreadCountSchema),
    run: ({ principal }, { db }) => reading.unreadNotifications(db, principal),
  }),
  mutation('notifications.updateStatus', 'PATCH /notifications/:id', ['notifications.write'], {
    summary: 'Mark a notification',
    description: 'Read, unread or archived, for the caller only.',
    input: schema.notificationIdParams.extend(schema.notificationStatusBody.shape).strict(),
    output: one(schema.notificationSchema),
    run: ({ principal, input }, { db }) => reading.setNotificationStatus(db, principal, input.id, input.status),
  }),
  mutation('notifications.updateManyStatus', 'POST /notifications/status', ['notifications.write'], {
    summary: 'Mark several or all notifications',
    description:
      'Sets the status of the given ids (up to 500), or of every notification the caller sees with `all: true`. Ids the caller does not see are passed over; `updated` counts the ones that changed.',
    input: schema.bulkNotificationStatusBody,
    output: one(schema.bulkStatusResultSchema),
    run: ({ principal, input }, { db }) => reading.setNotificationsStatus(db, principal, input),
  }),
  mutation('notifications.updateSetting', 'PUT /notifications/settings/:type', ['notifications.write'], {
    body: 'data',
    summary: 'Change a notification setting',
    description: 'For the caller in this team. Email is sent by the NotificationDelivery workflow for notifications created from now on.',
    input: schema.notificationTypeParams.extend({ data: schema.updateNotificationSettingBody }),
    output: one(schema.notificationSettingSchema),
    run: ({ principal, input }, { db }) => updateNotificationSetting(db, principal, input.type, input.data),
  }),
];
