import { readTogether, type Db } from '../../shared/db/knex';

/** Reads that note when each starts and ends, each resolving only when the test lets it. */
function tracedReads(n: number) {
  const log: string[] = [];
  const release: (() => void)[] = [];
  const reads = Array.from({ length: n }, (_, i) => () => {
    log.push(`start ${i}`);
    return new Promise<number>((resolve) => {
      release[i] = () => {
        log.push(`end ${i}`);
        resolve(i);
      };
    });
  });
  return { log, release, reads };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('readTogether', () => {
  it('on a transaction, starts each read only once the one before it has answered (one connection, one query at a time)', async () => {
    const { log, release, reads } = tracedReads(3);
    const done = readTogether(
      { isTransaction: true } as unknown as Db,
      reads as [() => Promise<number>, () => Promise<number>, () => Promise<number>],
    );
    for (let i = 0; i < 3; i++) {
      await settle();
      expect(log.at(-1)).toBe(`start ${i}`);
      release[i]();
    }
    expect(await done).toEqual([0, 1, 2]);
    expect(log).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2']);
  });

  it('on a pool, starts every read at once and answers them in the order asked', async () => {
    const { log, release, reads } = tracedReads(3);
    const done = readTogether(
      { isTransaction: false } as unknown as Db,
      reads as [() => Promise<number>, () => Promise<number>, () => Promise<number>],
    );
    await settle();
    expect(log).toEqual(['start 0', 'start 1', 'start 2']);
    release[2]();
    release[0]();
    release[1]();
    expect(await done).toEqual([0, 1, 2]);
  });
});
