import type { Db } from '../../shared/db/knex';
import type { Principal } from '../../shared/domain/auth/principal';
import { claimIdempotencyKey, completeIdempotencyKey, credentialOf, releaseIdempotencyKey } from '../../shared/domain/idempotency/keys';

/** An answer as it is kept for a replay: REST's status and body, or a tRPC call's value (200). */
export interface Outcome {
  status: number;
  body: unknown;
}

/**
 * Runs a mutation at most once per Idempotency-Key (Stripe's rules), for either door: the first
 * request runs and its successful answer is kept for 24 hours; the same key with the same request
 * (`fingerprint`) replays it; with a different request it is 422; while the first still runs, 409,
 * until its lease runs out. A failure keeps nothing, so the client can retry with the same key.
 */
export async function idempotently(
  db: Db,
  principal: Principal,
  claim: { key: string; fingerprint: string; leaseMs: number },
  run: () => Promise<Outcome>,
): Promise<Outcome & { replayed: boolean }> {
  const claimed = await claimIdempotencyKey(db, {
    teamId: principal.teamId,
    credential: credentialOf(principal),
    key: claim.key,
    requestHash: claim.fingerprint,
    leaseMs: claim.leaseMs,
  });
  if (claimed.kind === 'replay') return { status: claimed.status, body: claimed.body, replayed: true };
  try {
    const outcome = await run();
    await completeIdempotencyKey(db, claimed.id, outcome.status, outcome.body);
    return { ...outcome, replayed: false };
  } catch (err) {
    await releaseIdempotencyKey(db, claimed.id).catch(() => undefined);
    throw err;
  }
}
