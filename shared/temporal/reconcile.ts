/** What a pass over many items did: how many it called for, how many of those failed, and the first failure. */
export interface Reconciled {
  checked: number;
  failed: number;
  firstError?: unknown;
}

/** Temporal calls in flight at once: enough to hide each call's round trip, few enough not to crowd the frontend. */
const AT_ONCE = 16;

/**
 * One idempotent Temporal call per item (a schedule made or brought in line, an outbox row's run
 * started), several at a time and each on its own: a failure is counted, not the end of the pass.
 * Items not yet called when `signal` aborts (the worker stopping) are left for the next pass.
 */
export async function reconcileEach<T>(
  items: readonly T[],
  call: (item: T) => Promise<unknown>,
  signal?: AbortSignal,
): Promise<Reconciled> {
  // ESM-only: a dynamic import loads it from this CommonJS code.
  const { default: pLimit } = await import('p-limit');
  const limit = pLimit(AT_ONCE);
  let skipped = 0;
  const once = async (item: T) => {
    if (signal?.aborted) skipped++;
    else await call(item);
  };
  const outcomes = await Promise.allSettled(items.map((item) => limit(() => once(item))));
  const failures = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
  return {
    checked: items.length - skipped,
    failed: failures.length,
    ...(failures.length ? { firstError: failures[0].reason } : {}),
  };
}
