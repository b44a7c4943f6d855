import {
  getNotification,
  listNotifications,
  setNotificationsStatus,
  setNotificationStatus,
  unreadNotifications,
} from '../../shared/domain/notifications/reading';
import {
  bulkNotificationStatusBody,
  bulkStatusResultSchema,
  listNotificationsQuery,
  notificationIdParams,
  notificationSchema,
  notificationSettingSchema,
  notificationStatusBody,
  notificationTypeParams,
  unreadCountSchema,
  updateNotificationSettingBody,
} from '../../shared/domain/notifications/schema';
import { notificationSettings, updateNotificationSetting } from '../../shared/domain/notifications/settings';
import { mutation, query } from './declare';
import { all, one, page } from './output';

/** The caller's notifications in the team: their own and the team's, each read or archived per member. */
export const notifications = [
  query('notifications.get', {
    rest: 'GET /notifications',
    scopes: ['notifications.read'],
    summary: 'List notifications',
    description:
      "Newest first, keyset-paginated: the team's notifications and the caller's own, without the types the caller turned off in the app. The status is the caller's.",
    input: listNotificationsQuery,
    output: page(notificationSchema),
    run: ({ principal, input }, { db }) => listNotifications(db, principal, input),
  }),
  query('notifications.settings', {
    rest: 'GET /notifications/settings',
    scopes: ['notifications.read'],
    summary: "List the caller's notification settings",
    description: 'One entry per type, in the app and by email; a type never changed shows the defaults (in the app, not by email).',
    output: all(notificationSettingSchema),
    run: ({ principal }, { db }) => notificationSettings(db, principal),
  }),
  query('notifications.getById', {
    rest: 'GET /notifications/:id',
    scopes: ['notifications.read'],
    summary: 'Get a notification',
    input: notificationIdParams,
    output: one(notificationSchema),
    run: ({ principal, input }, { db }) => getNotification(db, principal, input.id),
  }),
  query('notifications.unreadCount', {
    rest: 'GET /notifications/unread-count',
    scopes: ['notifications.read'],
    summary: 'Count unread notifications',
    description: 'What a badge shows: the notifications the list would show as `unread`.',
    output: one(unreadCountSchema),
    run: ({ principal }, { db }) => unreadNotifications(db, principal),
  }),
  mutation('notifications.updateStatus', {
    rest: 'PATCH /notifications/:id',
    scopes: ['notifications.write'],
    summary: 'Mark a notification',
    description: 'Read, unread or archived, for the caller only.',
    input: notificationIdParams.extend(notificationStatusBody.shape).strict(),
    output: one(notificationSchema),
    run: ({ principal, input }, { db }) => setNotificationStatus(db, principal, input.id, input.status),
  }),
  mutation('notifications.updateManyStatus', {
    rest: 'POST /notifications/status',
    scopes: ['notifications.write'],
    summary: 'Mark several or all notifications',
    description:
      'Sets the status of the given ids (up to 500), or of every notification the caller sees with `all: true`. Ids the caller does not see are passed over; `updated` counts the ones that changed.',
    input: bulkNotificationStatusBody,
    output: one(bulkStatusResultSchema),
    run: ({ principal, input }, { db }) => setNotificationsStatus(db, principal, input),
  }),
  mutation('notifications.updateSetting', {
    rest: 'PUT /notifications/settings/:type',
    body: 'data',
    scopes: ['notifications.write'],
    summary: 'Change a notification setting',
    description: 'For the caller in this team. Email is sent by the NotificationDelivery workflow for notifications created from now on.',
    input: notificationTypeParams.extend({ data: updateNotificationSettingBody }),
    output: one(notificationSettingSchema),
    run: ({ principal, input }, { db }) => updateNotificationSetting(db, principal, input.type, input.data),
  }),
];
