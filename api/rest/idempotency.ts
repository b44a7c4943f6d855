import type { Context } from 'koa';
import type { Db } from '../../shared/db/knex';
import type { Principal } from '../../shared/domain/auth/principal';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  credentialOf,
  releaseIdempotencyKey,
  requestFingerprint,
} from '../../shared/domain/idempotency/keys';

interface Outcome {
  status: number;
  body: unknown;
}

/**
 * Runs a POST at most once per Idempotency-Key (Stripe's rules): the first request runs and its
 * successful response is kept for 24 hours; the same key with the same request replays it; with a
 * different request it is 422; while the first still runs, 409. A failure keeps nothing, so the
 * client can retry with the same key.
 */
export async function idempotently(
  db: Db,
  ctx: Context,
  principal: Principal,
  key: string,
  run: () => Promise<Outcome>,
): Promise<Outcome & { replayed: boolean }> {
  const claim = await claimIdempotencyKey(db, {
    teamId: principal.teamId,
    credential: credentialOf(principal),
    key,
    requestHash: requestFingerprint(ctx.method, ctx.path, (ctx.request as { body?: unknown }).body),
  });
  if (claim.kind === 'replay') return { status: claim.status, body: claim.body, replayed: true };
  try {
    const outcome = await run();
    await completeIdempotencyKey(db, claim.id, outcome.status, outcome.body);
    return { ...outcome, replayed: false };
  } catch (err) {
    await releaseIdempotencyKey(db, claim.id).catch(() => undefined);
    throw err;
  }
}
