import type { Db } from '../../db/knex';
import { Notification } from '../../db/models';
import { toIso } from '../../db/timestamps';
import { enqueueNotificationEmails } from './delivery';
import type { NotificationMetadata, NotificationType } from './types';

export interface NewNotification<T extends NotificationType> {
  teamId: string;
  /** Omitted: for the whole team. */
  userId?: string | null;
  type: T;
  /** 1 (most urgent) to 10; system notices default to 3. */
  priority?: number;
  metadata: NotificationMetadata[T];
}

/**
 * The one writer of notification rows: every producer (webhooks, syncs, receipts) comes here. The
 * emails members asked for are queued in the same statement's transaction (see delivery.ts), so a
 * notification is never stored without them nor mailed without being stored. Returns its id.
 */
export async function notify<T extends NotificationType>(db: Db, n: NewNotification<T>): Promise<string> {
  const metadata: Record<string, unknown> = n.metadata;
  const write = async (trx: Db) => {
    const row = await Notification.query(trx).insert({
      teamId: n.teamId,
      userId: n.userId ?? null,
      type: n.type,
      priority: n.priority ?? 3,
      metadata,
    });
    await enqueueNotificationEmails(trx, { id: row.id, teamId: n.teamId, userId: n.userId ?? null, type: n.type });
    return row.id;
  };
  return db.isTransaction ? write(db) : db.transaction(write);
}

export interface StoredNotification<T extends NotificationType> {
  id: string;
  type: T;
  userId: string | null;
  priority: number;
  status: Notification['status'];
  metadata: NotificationMetadata[T];
  createdAt: string;
}

/** A team's notifications of one type, newest first. */
export async function notificationsOf<T extends NotificationType>(db: Db, teamId: string, type: T): Promise<StoredNotification<T>[]> {
  const rows = await Notification.query(db).where({ teamId, type }).orderBy('createdAt', 'desc').orderBy('id', 'desc');
  return rows.map((r) => ({
    id: r.id,
    type,
    userId: r.userId,
    priority: r.priority,
    status: r.status,
    // Only notify() writes rows, and it types metadata by `type`.
    metadata: r.metadata as NotificationMetadata[T],
    createdAt: toIso(r.createdAt),
  }));
}
