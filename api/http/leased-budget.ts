import { RateLimiterRes } from 'rate-limiter-flexible';

/** The one call of a rate limiter the request budget uses. */
export interface Budget {
  consume(key: string, points: number): Promise<RateLimiterRes>;
}

/**
 * The shared store answers every request with a round trip. While a client is far from its limit,
 * this process takes points from the store in blocks (a lease) and spends them locally, so most
 * requests cost no round trip; near the limit it asks for exactly what each request needs, so the
 * limit is enforced as precisely as before. A lease never lets a client past its limit: leased
 * points are already counted in the store, and unspent ones expire with the window. A block is at
 * most 1/60 of the limit (10 of 600 per minute), and limits under 120 are never leased.
 */
export function leasedBudget(store: Budget, limit: number): Budget {
  const block = Math.floor(limit / 60);
  if (block < 2) return store;
  // "Far" means the store's last answer left at least this many points.
  const far = 4 * block;
  const leases = new Map<string, { left: number; storeRemaining: number; until: number }>();

  const sweep = (now: number) => {
    if (leases.size < 10_000) return;
    for (const [key, lease] of leases) if (lease.until <= now) leases.delete(key);
  };

  return {
    async consume(key, points) {
      const now = Date.now();
      const lease = leases.get(key);
      if (lease && lease.until > now && lease.left >= points) {
        lease.left -= points;
        return new RateLimiterRes(lease.storeRemaining + lease.left, lease.until - now, limit - lease.storeRemaining - lease.left);
      }
      const current = lease && lease.until > now ? lease : undefined;
      // What is left of the lease pays for part of this request; the store is asked for the rest.
      const held = current?.left ?? 0;
      const need = points - held;
      const take = current && current.storeRemaining >= far ? Math.max(need, block) : need;
      try {
        const res = await store.consume(key, take);
        sweep(now);
        const left = held + take - points;
        leases.set(key, { left, storeRemaining: res.remainingPoints, until: now + res.msBeforeNext });
        return new RateLimiterRes(res.remainingPoints + left, res.msBeforeNext, res.consumedPoints - left);
      } catch (rejected) {
        leases.delete(key);
        throw rejected;
      }
    },
  };
}
