import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { leasedBudget, type Budget } from '../../api/http/leased-budget';

/** One shared store (as PostgreSQL or Redis is for every API process) that counts its round trips. */
function sharedStore(points: number): Budget & { trips: number } {
  const limiter = new RateLimiterMemory({ points, duration: 60 });
  const store = {
    trips: 0,
    consume(key: string, n: number) {
      store.trips++;
      return limiter.consume(key, n);
    },
  };
  return store;
}

/** Spends one point at a time from alternating processes until both are refused. */
async function spendAll(processes: Budget[]) {
  let allowed = 0;
  const refused = new Set<number>();
  let lastRemaining = Infinity;
  for (let i = 0; refused.size < processes.length && i < 10_000; i++) {
    const p = i % processes.length;
    if (refused.has(p)) continue;
    try {
      lastRemaining = (await processes[p].consume('client', 1)).remainingPoints;
      allowed++;
    } catch (err) {
      expect(err).toBeInstanceOf(RateLimiterRes);
      refused.add(p);
    }
  }
  return { allowed, lastRemaining };
}

describe('the leased request budget', () => {
  it('costs a round trip per block while the client is far from its limit', async () => {
    const store = sharedStore(600);
    const [a, b] = [leasedBudget(store, 600), leasedBudget(store, 600)];
    for (let i = 0; i < 300; i++) await (i % 2 ? a : b).consume('client', 1);
    expect(store.trips).toBeLessThan(300 / 10 + 10);
  });

  it('never lets two processes together past the limit, and wastes at most a block each', async () => {
    const store = sharedStore(600);
    const { allowed, lastRemaining } = await spendAll([leasedBudget(store, 600), leasedBudget(store, 600)]);
    expect(allowed).toBeLessThanOrEqual(600);
    expect(allowed).toBeGreaterThanOrEqual(600 - 2 * 10);
    expect(lastRemaining).toBeLessThan(2 * 10);
  });

  it('counts a request of several points (a tRPC batch) in full', async () => {
    const store = sharedStore(600);
    const budget = leasedBudget(store, 600);
    let allowed = 0;
    for (;;) {
      try {
        await budget.consume('client', 7);
        allowed += 7;
      } catch {
        break;
      }
    }
    expect(allowed).toBeLessThanOrEqual(600);
    expect(allowed).toBeGreaterThan(600 - 3 * 10);
  });

  it('leaves small limits to the store: every request is a round trip', async () => {
    const store = sharedStore(60);
    const budget = leasedBudget(store, 60);
    const { allowed } = await spendAll([budget]);
    expect(allowed).toBe(60);
    expect(store.trips).toBe(61);
  });
});
