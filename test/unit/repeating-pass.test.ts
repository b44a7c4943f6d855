import { repeatingPass } from '../../api/outbox/repeating-pass';
import type { Logger } from '../../shared/logger';

const log = { warn: () => undefined } as unknown as Logger;

/**
 * An outbox whose pass looks for rows first and then takes a while over what it found (as the
 * relays claim, then start workflows): the test decides when each pass finishes.
 */
function outbox() {
  const rows: string[] = [];
  const taken: string[][] = [];
  const finish: (() => void)[] = [];
  const pass = async () => {
    const found = rows.splice(0);
    taken.push(found);
    await new Promise<void>((r) => finish.push(r));
    return found.length;
  };
  return { rows, taken, finish, pass, finishNext: () => finish.shift()!() };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('repeatingPass', () => {
  it('a wake-up during a pass that has already looked gets one more pass, which takes the row it was woken for', async () => {
    const o = outbox();
    const relay = repeatingPass(o.pass, { intervalMs: 3_600_000, log, what: 'test' });
    o.rows.push('a');
    const first = relay.runOnce();
    await tick();
    // Committed after the pass looked: its NOTIFY wakes the relay while the pass is still going.
    o.rows.push('b');
    const woken = relay.runOnce();
    o.finishNext();
    expect(await first).toBe(1);
    await tick();
    o.finishNext();
    expect(await woken).toBe(1);
    expect(o.taken).toEqual([['a'], ['b']]);
    await relay.stop();
  });

  it('every call made during one pass shares the one pass after it', async () => {
    const o = outbox();
    const relay = repeatingPass(o.pass, { intervalMs: 3_600_000, log, what: 'test' });
    const first = relay.runOnce();
    await tick();
    o.rows.push('b', 'c');
    const calls = [relay.runOnce(), relay.runOnce(), relay.runOnce()];
    o.finishNext();
    await first;
    await tick();
    o.finishNext();
    expect(await Promise.all(calls)).toEqual([2, 2, 2]);
    expect(o.taken).toEqual([[], ['b', 'c']]);
    await relay.stop();
  });

  it('stop waits for the pass under way and starts no other', async () => {
    const o = outbox();
    const relay = repeatingPass(o.pass, { intervalMs: 3_600_000, log, what: 'test' });
    void relay.runOnce();
    await tick();
    const after = relay.runOnce();
    const stopped = relay.stop();
    o.finishNext();
    await stopped;
    expect(await after).toBe(0);
    expect(o.taken).toHaveLength(1);
  });
});
