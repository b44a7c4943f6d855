import type { Db } from '../../db/knex';
import { withinTeam } from '../../db/team-wall';
import { conflict } from '../../errors';
import { decodeCursor, encodeCursor } from '../common/cursor';
import type { EventDto, ListEventsQuery } from './schema';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * The team's event feed, in an order a reader can follow without missing anything.
 *
 * A sequence number drawn at insert is not enough: two transactions draw 7 and 8, the one holding
 * 8 commits first, a reader sees 8 and saves it as its position, then 7 commits and is behind every
 * cursor. So each event carries its writer's transaction id (`pg_current_xact_id()`, xid8, the top
 * transaction's even inside a savepoint), the feed is ordered by (xid, seq), and a read serves only
 * events whose transaction is older than its snapshot's xmin: every transaction below xmin had
 * finished (committed or rolled back) when the snapshot was taken, so all its events are visible
 * now, and any transaction still to commit has an xid at or above xmin, which sorts after everything
 * served. A position once read is therefore final: nothing can later appear before it. Events of
 * one transaction are contiguous, in the order they were written.
 *
 * The price is latency, not loss: a long transaction anywhere in the database (an import of a large
 * file) holds xmin back, and the feed waits for it before serving what committed after it began.
 */

/** Before every event: where a reader with no cursor starts. */
const START = ['0', '0'] as const;
const START_CURSOR = encodeCursor([...START]);

interface FeedRow {
  found: boolean;
  held: boolean;
  id: string | null;
  xid: string | null;
  seq: string | null;
  payload: string | null;
}

export interface FeedEvent {
  event: EventDto;
  /** The position after this event. */
  cursor: string;
}

export interface FeedPage {
  events: FeedEvent[];
  cursor: string;
  hasNextPage: boolean;
  /** Events of the team have committed that an older transaction still holds back: worth reading again soon. */
  held: boolean;
}

/**
 * Up to `pageSize` events after `after`, in one statement with the check that `after` is still a
 * position in this team's feed: a cursor whose event the retention sweep removed (or another team's)
 * is a 409, since the events between it and the oldest kept may be gone. The sweep always keeps a
 * team's newest event, so a client that is up to date keeps a valid cursor however quiet the team.
 */
export async function readFeed(db: Db, teamId: string, query: { after?: string; pageSize: number }): Promise<FeedPage> {
  const [xid, seq] = query.after ? decodeCursor(query.after, ['integer', 'integer'], 'after') : START;
  const fromStart = xid === START[0] && seq === START[1];
  // `held` asks for the team's newest xid (one probe at the end of the index), not for any row at or
  // above xmin: with xmin a parameter, the planner reads that as a scan that stops at the first hit,
  // and when there is none it reads the whole table.
  const { rows } = await db.raw<{ rows: FeedRow[] }>(
    `with horizon as (select pg_snapshot_xmin(pg_current_snapshot()) as xmin)
     select f.found, f.held, e.id, e.xid::text as xid, e.seq::text as seq, e.payload
       from (select ?::boolean or exists (select 1 from events where team_id = ? and xid = ?::xid8 and seq = ?::bigint) as found,
                    coalesce((select xid from events where team_id = ? order by xid desc limit 1) >= (select xmin from horizon), false) as held) f
       left join lateral (
         select id, xid, seq, payload from events
          where team_id = ? and (xid, seq) > (?::xid8, ?::bigint)
            and xid < (select xmin from horizon)
          order by xid, seq
          limit ?
       ) e on f.found
      order by e.xid, e.seq`,
    [fromStart, teamId, xid, seq, teamId, teamId, xid, seq, query.pageSize + 1],
  );
  if (!rows[0]?.found)
    throw conflict(
      'This cursor is no longer a position in your event feed: it is older than the feed keeps (EVENTS_RETENTION), so events after it may be gone. Resynchronise, then read again without `after`.',
    );
  const events = rows
    .filter((r): r is FeedRow & { id: string; xid: string; seq: string; payload: string } => r.id !== null)
    .map((r) => ({ event: { id: r.id, ...(JSON.parse(r.payload) as Omit<EventDto, 'id'>) }, cursor: encodeCursor([r.xid, r.seq]) }));
  const hasNextPage = events.length > query.pageSize;
  const page = events.slice(0, query.pageSize);
  return { events: page, cursor: page.at(-1)?.cursor ?? query.after ?? START_CURSOR, hasNextPage, held: rows[0].held };
}

/**
 * Armed at the call: `woken` resolves at the next commit of the team's events, so a commit during a
 * read made after arming still wakes the wait that follows it. `cancel` disarms it.
 */
export type NextCommit = () => { woken: Promise<void>; cancel(): void };

/**
 * A NOTIFY arrives once, at the commit, but an event that an older unrelated transaction holds back
 * becomes servable only when that one ends, which nobody notifies: while the read says events are
 * held, it is made again this often.
 */
const HELD_RECHECK_MS = 100;
/** Read again after this long without a wake-up, in case one was lost (the listener reconnecting). */
const IDLE_RECHECK_MS = 5000;

const waitFor = (page: FeedPage, leftMs: number) => Math.max(0, Math.min(page.held ? HELD_RECHECK_MS : IDLE_RECHECK_MS, leftMs));

/** GET /events: a page, and with `wait` a long poll that answers as soon as an event is ready (or empty at the deadline). */
export async function listEvents(db: Db, teamId: string, query: ListEventsQuery, nextCommit: NextCommit) {
  const deadline = Date.now() + query.wait * 1000;
  for (;;) {
    const commit = query.wait ? nextCommit() : undefined;
    try {
      const page = await readFeed(db, teamId, query);
      if (page.events.length || !commit || Date.now() >= deadline)
        return { data: page.events.map((e) => e.event), meta: { cursor: page.cursor, hasNextPage: page.hasNextPage } };
      await Promise.race([commit.woken, sleep(waitFor(page, deadline - Date.now()))]);
    } finally {
      commit?.cancel();
    }
  }
}

const STREAM_PAGE = 500;

/**
 * GET /events/stream: every event after `after` as it becomes ready, each frame's id its cursor (so
 * an EventSource's `Last-Event-ID` resumes exactly after it), and a `heartbeat` after `heartbeatMs`
 * without one, which keeps proxies from closing an idle stream and tells a dead client from a quiet
 * team. The first page is read before this resolves, so a bad or expired cursor is an error status,
 * not an error event in a stream already answered 200. The stream runs until the client goes.
 */
export async function followEvents(
  db: Db,
  teamId: string,
  after: string | undefined,
  nextCommit: NextCommit,
  opts: { heartbeatMs: number },
) {
  let commit = nextCommit();
  let page: FeedPage;
  try {
    page = await readFeed(db, teamId, { after, pageSize: STREAM_PAGE });
  } catch (err) {
    commit.cancel();
    throw err;
  }
  return (async function* () {
    // Quiet from the start: an empty first page sends a heartbeat at once, so the client has the headers and its position.
    let quietSince = 0;
    for (;;) {
      try {
        for (const e of page.events) yield { id: e.cursor, event: e.event.type, data: e.event };
        if (page.events.length) quietSince = Date.now();
        else if (Date.now() - quietSince >= opts.heartbeatMs) {
          yield { id: page.cursor, event: 'heartbeat' as const, data: { cursor: page.cursor } };
          quietSince = Date.now();
        }
        if (!page.hasNextPage) await Promise.race([commit.woken, sleep(waitFor(page, opts.heartbeatMs - (Date.now() - quietSince)))]);
      } finally {
        commit.cancel();
      }
      commit = nextCommit();
      const cursor = page.cursor;
      page = await withinTeam(teamId, () => readFeed(db, teamId, { after: cursor, pageSize: STREAM_PAGE }));
    }
  })();
}
