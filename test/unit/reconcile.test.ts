import { reconcileEach } from '../../shared/temporal/reconcile';

describe('reconcileEach', () => {
  it('calls every item, a bounded number at once, and counts failures without stopping', async () => {
    let inFlight = 0;
    let most = 0;
    const called: number[] = [];
    const items = Array.from({ length: 50 }, (_, i) => i);
    const result = await reconcileEach(items, async (i) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 2));
      inFlight--;
      called.push(i);
      if (i % 10 === 3) throw new Error(`item ${i}`);
    });
    expect(called.sort((a, b) => a - b)).toEqual(items);
    expect(most).toBe(16);
    expect(result.checked).toBe(50);
    expect(result.failed).toBe(5);
    expect((result.firstError as Error).message).toMatch(/^item \d*3$/);
  });

  it('leaves the items not yet called when the signal aborts', async () => {
    const abort = new AbortController();
    let calls = 0;
    const result = await reconcileEach(
      Array.from({ length: 40 }, (_, i) => i),
      async () => {
        calls++;
        if (calls === 1) abort.abort();
        await new Promise((resolve) => setTimeout(resolve, 1));
      },
      abort.signal,
    );
    // The call under way finishes; every item that comes to its turn after the abort is skipped.
    expect(calls).toBe(1);
    expect(result).toEqual({ checked: 1, failed: 0 });
  });
});
