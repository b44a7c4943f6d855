import { createHash } from 'node:crypto';
import type { Db } from '../../db/knex';
import { IdempotencyKey } from '../../db/models';
import { AppError, badRequest, conflict } from '../../errors';
import type { Principal } from '../auth/principal';

/** How long a key's outcome is kept: a retry within this window replays it. */
export const IDEMPOTENCY_WINDOW_HOURS = 24;

const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

export type IdempotencyClaim = { kind: 'first'; id: string } | { kind: 'replay'; status: number; body: unknown };

/** Keys are per credential, as Stripe's are: two keys or two users never collide. */
export function credentialOf(p: Principal): string {
  if (p.kind === 'api_key') return `api_key:${p.apiKeyId ?? p.userId}`;
  if (p.kind === 'oauth') return `oauth:${p.oauthApplicationId ?? ''}:${p.userId}`;
  return `session:${p.userId}`;
}

/** What makes two requests "the same": method, path and body (keys sorted, so formatting does not matter). */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : typeof v === 'object' && v !== null
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
          )
        : v;
  return createHash('sha256')
    .update(JSON.stringify([method.toUpperCase(), path, canonical(body) ?? null]))
    .digest('hex');
}

/**
 * Claims a key for a request. The first use runs the request; a later use with the same request
 * gets the stored response; with a different request, 422; while the first is still running, 409.
 * A claim still running after `leaseMs` is taken to have died with its process (a failure that
 * is thrown releases its key at once): the same request may then claim it again.
 */
export async function claimIdempotencyKey(
  db: Db,
  input: { teamId: string; credential: string; key: string; requestHash: string; leaseMs: number },
  attempt = 0,
): Promise<IdempotencyClaim> {
  if (!KEY_SHAPE.test(input.key)) {
    throw badRequest('Invalid Idempotency-Key', [{ field: 'Idempotency-Key', message: 'printable ASCII, 1 to 255 characters' }]);
  }
  const where = { credential: input.credential, key: input.key };
  // A key older than the window is free again.
  await IdempotencyKey.query(db).delete().where(where).whereRaw(`created_at < now() - interval '${IDEMPOTENCY_WINDOW_HOURS} hours'`);
  const inserted = await db('idempotency_keys')
    .insert({ teamId: input.teamId, credential: input.credential, key: input.key, requestHash: input.requestHash })
    .onConflict(['credential', 'key'])
    .ignore()
    .returning<{ id: string }[]>('id');
  const first = inserted.at(0);
  if (first) {
    // Now and then, forget every expired key, not only this one: the table stays a day deep.
    if (Math.random() < 0.002) await pruneIdempotencyKeys(db);
    return { kind: 'first', id: first.id };
  }

  const existing = await IdempotencyKey.query(db).findOne(where);
  if (!existing) {
    // Released between our insert and our read (its request failed): claim it afresh.
    if (attempt < 3) return claimIdempotencyKey(db, input, attempt + 1);
    throw conflict('A request with this Idempotency-Key is still being processed; retry shortly');
  }
  if (existing.requestHash !== input.requestHash) {
    throw new AppError(422, 'Unprocessable Entity', 'This Idempotency-Key was already used with a different request; send a new key');
  }
  if (existing.state === 'in_progress' || existing.responseStatus === null) {
    // One claimant takes an abandoned key over: a second one waits for the first's row lock, and
    // PostgreSQL then checks the condition again against the claim time the first has just set.
    const takenOver = await IdempotencyKey.query(db)
      .patch({ createdAt: db.raw('now()') } as never)
      .where({ id: existing.id, state: 'in_progress' })
      .whereRaw('created_at < now() - make_interval(secs => ?)', [input.leaseMs / 1000]);
    if (takenOver) return { kind: 'first', id: existing.id };
    throw conflict('A request with this Idempotency-Key is still being processed; retry shortly');
  }
  return { kind: 'replay', status: existing.responseStatus, body: existing.responseBody };
}

export async function completeIdempotencyKey(db: Db, id: string, status: number, body: unknown): Promise<void> {
  await IdempotencyKey.query(db)
    .findById(id)
    .patch({ state: 'completed', responseStatus: status, responseBody: body ?? null });
}

/** A request that failed stores nothing: the client may retry with the same key. */
export async function releaseIdempotencyKey(db: Db, id: string): Promise<void> {
  await IdempotencyKey.query(db).deleteById(id);
}

export async function pruneIdempotencyKeys(db: Db): Promise<number> {
  return IdempotencyKey.query(db).delete().whereRaw(`created_at < now() - interval '${IDEMPOTENCY_WINDOW_HOURS} hours'`);
}
