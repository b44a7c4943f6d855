import type { Db } from '../../db/knex';
import { SentMessage } from '../../db/models';
import { dbNow } from '../../db/timestamps';

/**
 * A message sent at most once per activity (sendOnce, activities/messaging/send-once.ts) is claimed
 * before it goes out and marked sent after. The claim is this attempt's (true) when it is the first,
 * or when an earlier claim was never marked sent and is older than `leaseSeconds`; otherwise an
 * earlier attempt holds it or sent the message (false).
 */
export async function claimSend(db: Db, activityKey: string, leaseSeconds: number): Promise<boolean> {
  const { rows } = await db.raw<{ rows: unknown[] }>(
    `insert into sent_messages (activity_key, claimed_at) values (?, now())
     on conflict (activity_key) do update set claimed_at = now()
      where sent_messages.sent_at is null and sent_messages.claimed_at < now() - make_interval(secs => ?)
     returning 1`,
    [activityKey, leaseSeconds],
  );
  return rows.length > 0;
}

/** Whether an earlier attempt marked the message sent. */
export async function wasSent(db: Db, activityKey: string): Promise<boolean> {
  const row = await SentMessage.query(db).findById(activityKey).select('sentAt');
  return Boolean(row?.sentAt);
}

/** The claim given up (the provider certainly did not take the message), unless the message was marked sent meanwhile. */
export async function releaseSendClaim(db: Db, activityKey: string): Promise<void> {
  await SentMessage.query(db).findById(activityKey).whereNull('sentAt').delete();
}

/** The message went out: every later attempt finds it sent. */
export async function markSent(db: Db, activityKey: string): Promise<void> {
  await SentMessage.query(db).findById(activityKey).patch({ sentAt: dbNow() });
}
