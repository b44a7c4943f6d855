import type { Db } from '../../db/knex';

const SWEEP_BATCH = 5000;

/**
 * Deletes events written more than `retentionMs` ago, in batches, across teams; several API
 * processes sweeping at once share the rows out (skip locked). A team's newest event is kept
 * however old, so that a client that has read everything keeps a cursor the feed still knows
 * (shared/domain/events/service.ts answers a cursor whose event is gone with 409). Returns how many
 * were deleted.
 */
export async function sweepExpiredEvents(db: Db, retentionMs: number): Promise<number> {
  let deleted = 0;
  for (;;) {
    const { rowCount } = await db.raw<{ rowCount: number }>(
      `delete from events where id in (
         select e.id from events e
          where e.created_at < now() - make_interval(secs => ?)
            and exists (select 1 from events later where later.team_id = e.team_id and (later.xid, later.seq) > (e.xid, e.seq))
          limit ?
          for update skip locked)`,
      [retentionMs / 1000, SWEEP_BATCH],
    );
    deleted += rowCount;
    if (rowCount < SWEEP_BATCH) return deleted;
  }
}
