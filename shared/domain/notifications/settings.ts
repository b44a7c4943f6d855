import type { Db } from '../../db/knex';
import type { Reader } from './reading';
import type { NotificationSettingDto, UpdateNotificationSettingBody } from './schema';
import { NOTIFICATION_TYPE_DESCRIPTIONS, NOTIFICATION_TYPES, type NotificationType } from './types';

/** Until a member chooses: everything in the app, nothing by email. */
const DEFAULTS = { inApp: true, email: false };

interface SettingRow {
  type: string;
  inApp: boolean;
  email: boolean;
}

/** The reader's choice for every type, defaults filled in. */
export async function notificationSettings(db: Db, reader: Reader): Promise<NotificationSettingDto[]> {
  const rows = await db('notification_settings')
    .where({ teamId: reader.teamId, userId: reader.userId })
    .select<SettingRow[]>('type', 'in_app', 'email');
  const chosen = new Map(rows.map((r) => [r.type, r]));
  return NOTIFICATION_TYPES.map((type) => settingOf(type, chosen.get(type)));
}

export async function updateNotificationSetting(
  db: Db,
  reader: Reader,
  type: NotificationType,
  body: UpdateNotificationSettingBody,
): Promise<NotificationSettingDto> {
  const insert = {
    teamId: reader.teamId,
    userId: reader.userId,
    type,
    inApp: body.inApp ?? DEFAULTS.inApp,
    email: body.email ?? DEFAULTS.email,
  };
  const [row] = await db('notification_settings')
    .insert(insert)
    .onConflict(['team_id', 'user_id', 'type'])
    .merge({
      ...(body.inApp !== undefined && { inApp: body.inApp }),
      ...(body.email !== undefined && { email: body.email }),
      updatedAt: db.fn.now(),
    })
    .returning<SettingRow[]>(['type', 'in_app', 'email']);
  return settingOf(type, row);
}

const settingOf = (type: NotificationType, row: SettingRow | undefined): NotificationSettingDto => ({
  type,
  description: NOTIFICATION_TYPE_DESCRIPTIONS[type],
  inApp: row?.inApp ?? DEFAULTS.inApp,
  email: row?.email ?? DEFAULTS.email,
});
