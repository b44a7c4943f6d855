import { fetchedAhead } from '../../activities/banking/fetch-ahead';

/** A provider whose pages answer only when the test says so, recording when each was asked for. */
function provider(pages: number) {
  const asked: number[] = [];
  const answers = new Map<number, { resolve: (n: number) => void; reject: (e: Error) => void }>();
  const fetch = (n: number) => {
    asked.push(n);
    return new Promise<number>((resolve, reject) => answers.set(n, { resolve, reject }));
  };
  const next = (n: number) => (n < pages ? fetch(n + 1) : undefined);
  return {
    asked,
    fetch,
    next,
    answer: (n: number) => answers.get(n)!.resolve(n),
    fail: (n: number, e: Error) => answers.get(n)!.reject(e),
  };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('fetchedAhead', () => {
  it('asks for the next page while the one before is being stored, never two ahead, and yields every page in order', async () => {
    const p = provider(3);
    const stored: number[] = [];
    let storing: (() => void) | undefined;
    const done = (async () => {
      for await (const page of fetchedAhead(p.fetch(1), p.next)) {
        await new Promise<void>((r) => (storing = r));
        stored.push(page);
      }
    })();
    p.answer(1);
    await tick();
    // Page 1 is being stored and page 2 is already asked for; page 3 is not.
    expect(p.asked).toEqual([1, 2]);
    expect(stored).toEqual([]);
    p.answer(2);
    await tick();
    expect(p.asked).toEqual([1, 2]);
    storing!();
    await tick();
    expect(p.asked).toEqual([1, 2, 3]);
    storing!();
    p.answer(3);
    await tick();
    storing!();
    await done;
    expect(stored).toEqual([1, 2, 3]);
    expect(p.asked).toEqual([1, 2, 3]);
  });

  it('a page that fails reaches the consumer when it gets to that page, after the ones before it are stored', async () => {
    const p = provider(3);
    const stored: number[] = [];
    const done = (async () => {
      for await (const page of fetchedAhead(p.fetch(1), p.next)) stored.push(page);
    })();
    p.answer(1);
    await tick();
    p.fail(2, new Error('provider said 500'));
    await expect(done).rejects.toThrow('provider said 500');
    expect(stored).toEqual([1]);
    expect(p.asked).toEqual([1, 2]);
  });

  it('a consumer that stops (storing failed) leaves the page in flight to fail unreported', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const p = provider(3);
      const done = (async () => {
        for await (const page of fetchedAhead(p.fetch(1), p.next)) throw new Error(`storing page ${page} failed`);
      })();
      p.answer(1);
      await expect(done).rejects.toThrow('storing page 1 failed');
      p.fail(2, new Error('provider said 500'));
      await tick();
      await tick();
      expect(unhandled).toEqual([]);
      expect(p.asked).toEqual([1, 2]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
