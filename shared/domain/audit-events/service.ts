import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import type { Db } from '../../db/knex';
import { AuditCheckpoint, TeamMember } from '../../db/models';
import { forbidden } from '../../errors';
import type { Principal } from '../auth/principal';
import { decodeCursor, encodeCursor, type Page } from '../common/cursor';
import type { AuditEventDto, AuditVerification, ListAuditEventsQuery } from './schema';

/** The trail is the owners' to read: what every member did, with addresses and request ids. */
export async function assertAuditReader(db: Db, principal: Principal): Promise<void> {
  const member = await TeamMember.query(db).where({ teamId: principal.teamId, userId: principal.userId }).first().select('role');
  if (member?.role !== 'owner') throw forbidden('Only owners of the team can read its audit trail');
}

/**
 * Links the team's entries of ended transactions into its chain (migration 0088's `audit_seal`, which
 * runs as the table's owner). Returns how many it sealed.
 */
export async function sealAuditTrail(db: Db, teamId: string): Promise<number> {
  const { rows } = await db.raw<{ rows: { sealed: number }[] }>('select audit_seal(?) as sealed', [teamId]);
  return rows[0].sealed;
}

interface AuditRow {
  id: string;
  occurredAt: Date;
  cursorAt: string;
  operation: string;
  actorKind: AuditEventDto['actor']['kind'];
  actorId: string | null;
  credentialKind: AuditEventDto['credential']['kind'];
  credentialId: string | null;
  requestId: string | null;
  ip: string | null;
  targetType: string;
  targetId: string | null;
  action: AuditEventDto['action'];
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  chainPos: number | null;
  prevHash: string | null;
  hash: string | null;
}

const toDto = (r: AuditRow): AuditEventDto => ({
  id: r.id,
  occurredAt: r.occurredAt.toISOString(),
  operation: r.operation,
  actor: { kind: r.actorKind, id: r.actorId },
  credential: { kind: r.credentialKind, id: r.credentialId },
  target: { type: r.targetType, id: r.targetId },
  action: r.action,
  before: r.before,
  after: r.after,
  requestId: r.requestId,
  ip: r.ip,
  chain: r.chainPos === null ? null : { position: r.chainPos, prevHash: r.prevHash ?? '', hash: r.hash ?? '' },
});

/** Newest first, keyset-paged on (occurred_at, id); entries are listed whether or not they are sealed yet. */
export async function listAuditEvents(db: Db, principal: Principal, query: ListAuditEventsQuery): Promise<Page<AuditEventDto>> {
  await assertAuditReader(db, principal);
  await sealAuditTrail(db, principal.teamId);
  const q = db('audit_events as a')
    .where('a.teamId', principal.teamId)
    .select<AuditRow[]>(
      'a.id',
      'a.occurredAt',
      db.raw('a.occurred_at::text as cursor_at'),
      'a.operation',
      'a.actorKind',
      'a.actorId',
      'a.credentialKind',
      'a.credentialId',
      'a.requestId',
      'a.ip',
      'a.targetType',
      'a.targetId',
      'a.action',
      'a.before',
      'a.after',
      'a.chainPos',
      db.raw(`encode(a.prev_hash, 'hex') as prev_hash`),
      db.raw(`encode(a.hash, 'hex') as hash`),
    )
    .orderBy([
      { column: 'a.occurredAt', order: 'desc' },
      { column: 'a.id', order: 'desc' },
    ])
    .limit(query.pageSize + 1);
  if (query.actorId) q.where('a.actorId', query.actorId);
  if (query.credentialKind) q.where('a.credentialKind', query.credentialKind);
  if (query.targetType) q.where('a.targetType', query.targetType);
  if (query.targetId) q.where('a.targetId', query.targetId);
  if (query.operation) q.where('a.operation', query.operation);
  if (query.from) q.where('a.occurredAt', '>=', query.from);
  if (query.to) q.where('a.occurredAt', '<', query.to);
  if (query.cursor) {
    const [at, id] = decodeCursor(query.cursor, ['timestamp', 'uuid']);
    q.whereRaw('(a.occurred_at, a.id) < (?::timestamptz, ?::uuid)', [at, id]);
  }
  const rows = await q;
  const hasNextPage = rows.length > query.pageSize;
  const page = rows.slice(0, query.pageSize);
  const last = page.at(-1);
  return { data: page.map(toDto), meta: { cursor: hasNextPage && last ? encodeCursor([last.cursorAt, last.id]) : null, hasNextPage } };
}

/** The server's checkpoint key from its 32-byte seed (AUDIT_SIGNING_KEY); never logged. */
export function auditSigningKey(seedHex: string): { privateKey: KeyObject; publicKey: KeyObject; keyId: string } {
  // PKCS#8 of an Ed25519 key is a fixed 16-byte prefix and the seed.
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(seedHex, 'hex')]);
  const privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey);
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  return { privateKey, publicKey, keyId: `ed25519:${raw.toString('base64url')}` };
}

const checkpointMessage = (teamId: string, day: string, position: number, hash: Buffer) =>
  Buffer.from(`finops-audit-checkpoint\n${teamId}\n${day}\n${position}\n${hash.toString('hex')}`);

/** The UTC day before `now`'s, YYYY-MM-DD: the day a checkpoint run just after midnight seals. */
export const previousUtcDay = (now: Date): string => new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);

/**
 * Seals what can be sealed and signs, as the checkpoint of `day` (UTC), the hash of the last sealed
 * entry written before the day ended (once per team and day: a repeat returns the first). Null when
 * the team had no sealed entry by then.
 */
export async function checkpointAuditTrail(
  db: Db,
  teamId: string,
  day: string,
  seedHex: string,
): Promise<{ day: string; position: number; hash: string } | null> {
  await sealAuditTrail(db, teamId);
  const existing = await AuditCheckpoint.query(db).where({ teamId, day }).first();
  if (existing) return { day, position: existing.chainPos, hash: existing.hash.toString('hex') };
  const last = await db('audit_events')
    .where({ teamId })
    .whereNotNull('chainPos')
    .where('occurredAt', '<', db.raw(`(?::date + 1)::timestamp at time zone 'UTC'`, [day]))
    .orderBy('chainPos', 'desc')

    .first<{ chainPos: number; hash: Buffer } | undefined>('chainPos', 'hash');
  if (!last) return null;
  const key = auditSigningKey(seedHex);
  const signature = sign(null, checkpointMessage(teamId, day, last.chainPos, last.hash), key.privateKey);
  await db('audit_checkpoints')
    .insert({ teamId, day, chainPos: last.chainPos, hash: last.hash, keyId: key.keyId, signature })
    .onConflict(['teamId', 'day'])
    .ignore();
  const kept = await AuditCheckpoint.query(db).where({ teamId, day }).first();
  return kept ? { day, position: kept.chainPos, hash: kept.hash.toString('hex') } : null;
}

/** How many entries a stretch of the chain has, and its first broken link if any. */
interface Stretch {
  entries: number;
  brokenPos: number | null;
  brokenId: string | null;
  reason: 'hash' | 'link' | 'missing' | null;
}

// The walk is cut into stretches of chain positions checked side by side on their own connections, so
// a long chain uses more than one core of the database; each stretch reads the entry before it too,
// to check its first link.
const STRETCH = 50_000;
const STRETCHES_AT_ONCE = 4;

/**
 * One stretch [lo, hi], in one scan of the chain index: each entry's hash is recomputed by the same
 * SQL function that sealed it (migration 0102, inlined into this statement) and its link compared
 * with the entry before it. One row comes back, so nothing per entry reaches Node; the count comes
 * from the walk itself, as counting the team's entries apart would read its rows a second time.
 */
async function walkStretch(db: Db, teamId: string, lo: number, hi: number): Promise<Stretch> {
  const { rows } = await db.raw<{ rows: Stretch[] }>(
    `select cast(count(*) as int) as entries,
            min(chain_pos) filter (where reason is not null) as "brokenPos",
            (array_agg(id order by chain_pos) filter (where reason is not null))[1] as "brokenId",
            (array_agg(reason order by chain_pos) filter (where reason is not null))[1] as reason
       from (
         select e.id, e.chain_pos,
                case when e.chain_pos <> coalesce(lag(e.chain_pos) over w, 0) + 1 then 'missing'
                     when e.prev_hash is distinct from coalesce(lag(e.hash) over w, cast('\\x0000000000000000000000000000000000000000000000000000000000000000' as bytea)) then 'link'
                     when e.hash is distinct from audit_entry_hash(e, e.chain_pos, e.prev_hash) then 'hash'
                end as reason
           from audit_events e
          where e.team_id = :teamId and e.chain_pos between :lo - 1 and :hi
         window w as (order by e.chain_pos)
       ) walk
      where chain_pos >= :lo`,
    { teamId, lo, hi },
  );
  return rows[0];
}

/** The whole chain, stretch by stretch, a few at once; the first broken link of all. */
async function walkChain(db: Db, teamId: string, stretch: number): Promise<Stretch & { unsealed: number }> {
  const { rows } = await db.raw<{ rows: { last: number | null; unsealed: number }[] }>(
    `select cast((select max(chain_pos) from audit_events where team_id = :teamId and chain_pos is not null) as int) as last,
            cast((select count(*) from audit_events where team_id = :teamId and chain_pos is null) as int) as unsealed`,
    { teamId },
  );
  const { unsealed } = rows[0];
  const last = rows[0].last ?? 0;
  const starts: number[] = [];
  for (let lo = 1; lo <= last; lo += stretch) starts.push(lo);
  const stretches: Stretch[] = [];
  let next = 0;
  const worker = async () => {
    while (next < starts.length) {
      const lo = starts[next++];
      stretches.push(await walkStretch(db, teamId, lo, Math.min(lo + stretch - 1, last)));
    }
  };
  await Promise.all(Array.from({ length: Math.min(STRETCHES_AT_ONCE, starts.length) }, worker));
  const broken = stretches.filter((w) => w.brokenPos !== null).sort((a, b) => (a.brokenPos ?? 0) - (b.brokenPos ?? 0));
  const entries = stretches.reduce((n, w) => n + w.entries, 0);
  if (!broken.length) return { entries, unsealed, brokenPos: null, brokenId: null, reason: null };
  return { ...broken[0], entries, unsealed };
}

/**
 * Re-walks the team's chain: every sealed entry's hash is recomputed from its content and the hash
 * before it, and must be the next position; then every checkpoint must name an entry that is still
 * there with the hash it signed, under the server's key. Reports the first broken link.
 */
export async function verifyAuditTrail(
  db: Db,
  teamId: string,
  seedHex: string,
  { stretch = STRETCH }: { stretch?: number } = {},
): Promise<AuditVerification> {
  await sealAuditTrail(db, teamId);
  const walk = await walkChain(db, teamId, stretch);
  let brokenAt: AuditVerification['brokenAt'] =
    walk.brokenPos === null ? null : { position: walk.brokenPos, id: walk.brokenId, reason: walk.reason ?? 'hash' };

  const checkpoints = await AuditCheckpoint.query(db).where({ teamId }).orderBy('chainPos');
  if (checkpoints.length) {
    const key = auditSigningKey(seedHex);
    const hashes = new Map(
      (
        await db('audit_events')
          .where({ teamId })
          .whereIn(
            'chainPos',
            checkpoints.map((c) => c.chainPos),
          )
          .select<{ id: string; chainPos: number; hash: Buffer }[]>('id', 'chainPos', 'hash')
      ).map((r) => [String(r.chainPos), r]),
    );
    for (const c of checkpoints) {
      const entry = hashes.get(String(c.chainPos));
      const good =
        entry?.hash.equals(c.hash) &&
        c.keyId === key.keyId &&
        verify(null, checkpointMessage(teamId, c.day, c.chainPos, c.hash), key.publicKey, c.signature);
      if (!good) {
        const position = c.chainPos;
        if (!brokenAt || position < brokenAt.position) brokenAt = { position, id: entry?.id ?? null, reason: 'checkpoint' };
        break;
      }
    }
  }
  return { ok: brokenAt === null, entries: walk.entries, unsealed: walk.unsealed, checkpoints: checkpoints.length, brokenAt };
}
