import type { Db } from '../../db/knex';
import type { NOTIFICATION_STATUSES } from '../../db/models';
import { toIso } from '../../db/timestamps';
import { notFound } from '../../errors';
import { newestFirstPage, type CursorRow, type Page } from '../common/cursor';
import { messageOf } from './messages';
import type { BulkNotificationStatusBody, ListNotificationsQuery, NotificationDto } from './schema';
import type { NotificationMetadata, NotificationType } from './types';

/** Whose notifications: a member of a team. Team-wide ones are everyone's; each member reads and archives them for themself. */
export interface Reader {
  teamId: string;
  userId: string;
}

type Status = (typeof NOTIFICATION_STATUSES)[number];

interface NotificationRow extends CursorRow {
  type: NotificationType;
  priority: number;
  userId: string | null;
  metadata: Record<string, unknown>;
  createdAt: Date;
  status: Status;
}

// The member's status: no row of theirs means they have not touched it yet.
const STATUS = `coalesce(s.status, 'unread')`;

/** What the reader sees: the team's notices and their own, without the types they turned off in the app. */
function visible(db: Db, reader: Reader) {
  return db('notifications as n')
    .leftJoin('notification_states as s', (j) => {
      j.on('s.notification_id', '=', 'n.id').andOn('s.user_id', '=', db.raw('?', [reader.userId]));
    })
    .where('n.team_id', reader.teamId)
    .where((w) => {
      w.whereNull('n.user_id').orWhere('n.user_id', reader.userId);
    })
    .whereNotExists(
      db('notification_settings as ns')
        .select(db.raw('1'))
        .whereRaw('ns.team_id = n.team_id and ns.type = n.type and ns.user_id = ? and not ns.in_app', [reader.userId]),
    );
}

function selectNotifications(db: Db, reader: Reader) {
  return visible(db, reader).select<NotificationRow[]>(
    'n.id',
    'n.type',
    'n.priority',
    'n.user_id',
    'n.metadata',
    'n.created_at',
    db.raw(`${STATUS} as status`),
    db.raw('n.created_at::text as cursor_created_at'),
  );
}

function toDto(row: NotificationRow): NotificationDto {
  // Only notify() writes rows, and it types metadata by `type`.
  const { title } = messageOf(row.type, row.metadata as NotificationMetadata[typeof row.type]);
  return {
    id: row.id,
    type: row.type,
    title,
    priority: row.priority,
    status: row.status,
    audience: row.userId ? 'user' : 'team',
    metadata: row.metadata,
    createdAt: toIso(row.createdAt),
  };
}

export async function listNotifications(db: Db, reader: Reader, query: ListNotificationsQuery): Promise<Page<NotificationDto>> {
  const statuses = query.status ?? ['unread', 'read'];
  const q = selectNotifications(db, reader).whereRaw(`${STATUS} in (${statuses.map(() => '?').join(', ')})`, statuses);
  if (query.type) q.whereIn('n.type', query.type);
  if (query.maxPriority !== undefined) q.where('n.priority', '<=', query.maxPriority);
  return newestFirstPage(q, 'n', query, toDto);
}

export async function getNotification(db: Db, reader: Reader, id: string): Promise<NotificationDto> {
  const row = (await selectNotifications(db, reader).where('n.id', id)).at(0);
  if (!row) throw notFound(`Notification ${id} not found`);
  return toDto(row);
}

export async function unreadNotifications(db: Db, reader: Reader): Promise<{ unread: number }> {
  const row = await visible(db, reader).whereRaw(`${STATUS} = 'unread'`).first<{ n: number }>(db.raw('count(*)::int as n'));
  return { unread: row.n }; // count(*) always answers one row
}

/**
 * Sets the reader's status on the notifications the filter leaves (only ones they see, and only those
 * whose status differs); returns how many changed. One statement: an insert-or-update per notification.
 */
async function setStatus(db: Db, reader: Reader, status: Status, only: (q: ReturnType<typeof visible>) => void): Promise<number> {
  const targets = visible(db, reader)
    .whereRaw(`${STATUS} <> ?`, [status])
    .select('n.id', db.raw('?::uuid', [reader.userId]), 'n.team_id', db.raw('?', [status]));
  only(targets);
  const result = await db.raw<{ rowCount: number }>(
    `insert into notification_states (notification_id, user_id, team_id, status) ?
     on conflict (notification_id, user_id) do update set status = excluded.status, updated_at = now()`,
    [targets],
  );
  return result.rowCount;
}

export async function setNotificationStatus(db: Db, reader: Reader, id: string, status: Status): Promise<NotificationDto> {
  const before = await getNotification(db, reader, id); // 404 for anyone else's
  if (before.status !== status) {
    await setStatus(db, reader, status, (q) => {
      q.where('n.id', id);
    });
  }
  return { ...before, status };
}

export async function setNotificationsStatus(db: Db, reader: Reader, body: BulkNotificationStatusBody): Promise<{ updated: number }> {
  const updated = await setStatus(db, reader, body.status, (q) => {
    // Ids the reader does not see are passed over, like ids that are already in that status.
    if (body.ids) q.whereIn('n.id', body.ids);
  });
  return { updated };
}
