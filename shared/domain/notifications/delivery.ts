import type { Db } from '../../db/knex';
import type { NotificationType } from './types';

/**
 * The email outbox of notifications. notify() adds a `pending` row per member who wants the type by
 * email, in the notification's own transaction; the relay claims due rows (`started`) and starts one
 * NotificationDelivery workflow per notification; its activity takes each row to `sending`, sends,
 * and marks it `sent`. A row that is `sent` is never sent again, whatever the workflow retries.
 */

/** Adds the email deliveries of a new notification: members of the team (or the one member) who turned email on for its type. */
export async function enqueueNotificationEmails(
  db: Db,
  n: { id: string; teamId: string; userId: string | null; type: NotificationType },
): Promise<number> {
  const result = await db.raw<{ rowCount: number }>(
    `insert into notification_deliveries (notification_id, team_id, user_id)
     select ?, m.team_id, m.user_id
       from team_members m
       join notification_settings ns on ns.team_id = m.team_id and ns.user_id = m.user_id and ns.type = ? and ns.email
      where m.team_id = ? and (?::uuid is null or m.user_id = ?::uuid)
     on conflict do nothing`,
    [n.id, n.type, n.teamId, n.userId, n.userId],
  );
  return result.rowCount;
}

/** Adds the email of a notification to an address outside the team (an accountant an export is shared with). */
export async function enqueueNotificationEmailTo(db: Db, n: { id: string; teamId: string }, email: string): Promise<void> {
  await db('notification_deliveries').insert({ notificationId: n.id, teamId: n.teamId, email }).onConflict().ignore();
}

export interface DueNotification {
  notificationId: string;
  teamId: string;
  /** What the notice is about, for its run's summary. */
  type: NotificationType;
}

/**
 * Claims the notifications with deliveries nobody has started a workflow for (or whose start was
 * claimed over `staleAfterS` ago and may have been lost with its process). Skip-locked: several
 * relays never claim the same rows.
 */
export async function claimDueNotificationEmails(db: Db, opts: { limit: number; staleAfterS: number }): Promise<DueNotification[]> {
  const { rows } = await db.raw<{ rows: { notification_id: string; team_id: string; type: NotificationType }[] }>(
    `with due as (
       select id from notification_deliveries
        where status = 'pending' or (status = 'started' and claimed_at < now() - make_interval(secs => ?))
        order by created_at
        limit ?
        for update skip locked)
     update notification_deliveries d set status = 'started', claimed_at = now()
       from due where d.id = due.id
     returning d.notification_id, d.team_id,
       (select n.type from notifications n where n.id = d.notification_id and n.team_id = d.team_id) as type`,
    [opts.staleAfterS, opts.limit],
  );
  const byId = new Map(rows.map((r) => [r.notification_id, { notificationId: r.notification_id, teamId: r.team_id, type: r.type }]));
  return [...byId.values()];
}

/** A claimed start that failed: due again at the next pass. */
export async function releaseNotificationEmails(db: Db, notificationId: string): Promise<void> {
  await db('notification_deliveries').where({ notificationId, status: 'started' }).update({ status: 'pending', claimedAt: null });
}

/** The deliveries of a notification that are not done, for its workflow to send one by one. */
export async function unsentNotificationEmails(db: Db, notificationId: string): Promise<string[]> {
  return db('notification_deliveries')
    .where({ notificationId })
    .whereIn('status', ['pending', 'started', 'sending'])
    .orderBy('created_at')
    .pluck('id');
}

export interface EmailToSend {
  deliveryId: string;
  to: string;
  /** The delivery goes to an address outside the team, not to a member. */
  external: boolean;
  teamId: string;
  fullName: string | null;
  teamName: string;
  type: NotificationType;
  metadata: Record<string, unknown>;
}

/** Takes a delivery to `sending` and returns what to send; null when it was sent already (or failed for good). */
export async function beginNotificationEmail(db: Db, deliveryId: string): Promise<EmailToSend | null> {
  return db.transaction(async (trx) => {
    const row = await trx('notification_deliveries as d')
      .join('notifications as n', 'n.id', 'd.notification_id')
      .leftJoin('users as u', 'u.id', 'd.user_id')
      .join('teams as t', 't.id', 'd.team_id')
      .where('d.id', deliveryId)
      .whereNotIn('d.status', ['sent', 'failed'])
      .forUpdate('d')
      .first<EmailToSend | undefined>(
        'd.id as delivery_id',
        trx.raw('coalesce(d.email, u.email) as "to"'),
        trx.raw('d.email is not null as external'),
        'd.team_id',
        'u.full_name',
        't.name as team_name',
        'n.type',
        'n.metadata',
      );
    if (!row) return null;
    await trx('notification_deliveries')
      .where({ id: deliveryId })
      .update({ status: 'sending', attempts: trx.raw('attempts + 1') });
    return row;
  });
}

export async function finishNotificationEmail(db: Db, deliveryId: string, messageId: string): Promise<void> {
  await db('notification_deliveries').where({ id: deliveryId }).update({ status: 'sent', messageId, sentAt: db.fn.now(), error: null });
}

export async function failNotificationEmail(db: Db, deliveryId: string, error: string): Promise<void> {
  await db('notification_deliveries').where({ id: deliveryId }).whereNot({ status: 'sent' }).update({ status: 'failed', error });
}
