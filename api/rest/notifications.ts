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
import {
  getNotification,
  listNotifications,
  setNotificationsStatus,
  setNotificationStatus,
  unreadNotifications,
} from '../../shared/domain/notifications/reading';
import { notificationSettings, updateNotificationSetting } from '../../shared/domain/notifications/settings';
import type { ApiDeps } from '../deps';
import { defineRoute } from './define';
import { all, one, page } from './replies';

const tag = 'Notifications';

/** The caller's notifications in the team: their own and the team's, each read or archived per member. */
export const notificationRoutes = ({ db }: Pick<ApiDeps, 'db'>) => [
  defineRoute({
    method: 'get',
    path: '/notifications',
    scopes: ['notifications.read'],
    tag,
    summary: 'List notifications',
    description:
      "Newest first, keyset-paginated: the team's notifications and the caller's own, without the types the caller turned off in the app. The status is the caller's.",
    query: listNotificationsQuery,
    reply: page(notificationSchema),
    handler: ({ principal, query }) => listNotifications(db, principal, query),
  }),
  defineRoute({
    method: 'get',
    path: '/notifications/unread-count',
    scopes: ['notifications.read'],
    tag,
    summary: 'Count unread notifications',
    description: 'What a badge shows: the notifications the list would show as `unread`.',
    reply: one(unreadCountSchema),
    handler: ({ principal }) => unreadNotifications(db, principal),
  }),
  defineRoute({
    method: 'get',
    path: '/notifications/settings',
    scopes: ['notifications.read'],
    tag,
    summary: "List the caller's notification settings",
    description: 'One entry per type, in the app and by email; a type never changed shows the defaults (in the app, not by email).',
    reply: all(notificationSettingSchema),
    handler: ({ principal }) => notificationSettings(db, principal),
  }),
  defineRoute({
    method: 'put',
    path: '/notifications/settings/:type',
    scopes: ['notifications.write'],
    tag,
    summary: 'Change a notification setting',
    description: 'For the caller in this team. Email is sent by the NotificationDelivery workflow for notifications created from now on.',
    params: notificationTypeParams,
    body: updateNotificationSettingBody,
    reply: one(notificationSettingSchema),
    handler: ({ principal, params, body }) => updateNotificationSetting(db, principal, params.type, body),
  }),
  defineRoute({
    method: 'post',
    path: '/notifications/status',
    scopes: ['notifications.write'],
    tag,
    summary: 'Mark several or all notifications',
    description:
      'Sets the status of the given ids (up to 500), or of every notification the caller sees with `all: true`. Ids the caller does not see are passed over; `updated` counts the ones that changed.',
    body: bulkNotificationStatusBody,
    reply: one(bulkStatusResultSchema),
    handler: ({ principal, body }) => setNotificationsStatus(db, principal, body),
  }),
  defineRoute({
    method: 'get',
    path: '/notifications/:id',
    scopes: ['notifications.read'],
    tag,
    summary: 'Get a notification',
    params: notificationIdParams,
    reply: one(notificationSchema),
    handler: ({ principal, params }) => getNotification(db, principal, params.id),
  }),
  defineRoute({
    method: 'patch',
    path: '/notifications/:id',
    scopes: ['notifications.write'],
    tag,
    summary: 'Mark a notification',
    description: 'Read, unread or archived, for the caller only.',
    params: notificationIdParams,
    body: notificationStatusBody,
    reply: one(notificationSchema),
    handler: ({ principal, params, body }) => setNotificationStatus(db, principal, params.id, body.status),
  }),
];
