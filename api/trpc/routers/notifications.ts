import { z } from 'zod';
import { pageOf } from '../../../shared/domain/common/page';
import {
  getNotification,
  listNotifications,
  setNotificationsStatus,
  setNotificationStatus,
  unreadNotifications,
} from '../../../shared/domain/notifications/reading';
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
} from '../../../shared/domain/notifications/schema';
import { notificationSettings, updateNotificationSetting } from '../../../shared/domain/notifications/settings';
import type { ApiDeps } from '../../deps';
import { procedure, router } from '../trpc';

export const notificationsRouter = ({ db }: Pick<ApiDeps, 'db'>) =>
  router({
    get: procedure('notifications.read')
      .input(listNotificationsQuery.prefault({}))
      .output(pageOf(notificationSchema))
      .query(({ ctx, input }) => listNotifications(db, ctx.principal, input)),
    getById: procedure('notifications.read')
      .input(notificationIdParams)
      .output(notificationSchema)
      .query(({ ctx, input }) => getNotification(db, ctx.principal, input.id)),
    unreadCount: procedure('notifications.read')
      .output(unreadCountSchema)
      .query(({ ctx }) => unreadNotifications(db, ctx.principal)),
    updateStatus: procedure('notifications.write')
      .input(notificationIdParams.extend(notificationStatusBody.shape))
      .output(notificationSchema)
      .mutation(({ ctx, input }) => setNotificationStatus(db, ctx.principal, input.id, input.status)),
    updateManyStatus: procedure('notifications.write')
      .input(bulkNotificationStatusBody)
      .output(bulkStatusResultSchema)
      .mutation(({ ctx, input }) => setNotificationsStatus(db, ctx.principal, input)),
    settings: procedure('notifications.read')
      .output(z.array(notificationSettingSchema))
      .query(({ ctx }) => notificationSettings(db, ctx.principal)),
    updateSetting: procedure('notifications.write')
      .input(notificationTypeParams.extend({ data: updateNotificationSettingBody }))
      .output(notificationSettingSchema)
      .mutation(({ ctx, input }) => updateNotificationSetting(db, ctx.principal, input.type, input.data)),
  });
