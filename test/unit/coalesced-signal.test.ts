import type { TemporalGateway } from '../../shared/temporal/client';
import { coalescedSignal } from '../../shared/temporal/coalesced-signal';

/** A send whose answers the test gives by hand, in order. */
function manualSend() {
  const sent: { args: string[]; answer(err?: Error): void }[] = [];
  const send = (_t: TemporalGateway, args: string[]) =>
    new Promise<string>((resolve, reject) =>
      sent.push({ args, answer: (err) => (err ? reject(err) : resolve(`answered ${args.join('+')}`)) }),
    );
  return { sent, signal: coalescedSignal<string[]>(send, (queued, more) => [...queued, ...more]) };
}

const temporal = {} as TemporalGateway;
const tick = () => new Promise((r) => setImmediate(r));

describe('coalescedSignal', () => {
  it('sends the first request at once and every request made while it is on its way as one signal after it', async () => {
    const { sent, signal } = manualSend();
    const first = signal(temporal, 'wf-1', ['a']);
    const second = signal(temporal, 'wf-1', ['b']);
    const third = signal(temporal, 'wf-1', ['c']);
    await tick();
    // Not joined to the signal on its way: the run may already have acted on it.
    expect(sent.map((s) => s.args)).toEqual([['a']]);
    sent[0].answer();
    await expect(first).resolves.toBe('answered a');
    await tick();
    expect(sent.map((s) => s.args)).toEqual([['a'], ['b', 'c']]);
    sent[1].answer();
    await expect(second).resolves.toBe('answered b+c');
    await expect(third).resolves.toBe('answered b+c');
  });

  it('keeps workflow ids apart and starts afresh once a lane is idle', async () => {
    const { sent, signal } = manualSend();
    const one = signal(temporal, 'wf-1', ['a']);
    const other = signal(temporal, 'wf-2', ['x']);
    await tick();
    expect(sent.map((s) => s.args)).toEqual([['a'], ['x']]);
    sent.forEach((s) => s.answer());
    await Promise.all([one, other]);
    const again = signal(temporal, 'wf-1', ['d']);
    await tick();
    expect(sent.map((s) => s.args)).toEqual([['a'], ['x'], ['d']]);
    sent[2].answer();
    await expect(again).resolves.toBe('answered d');
  });

  it('fails only the callers of a failed signal; the queued ones still go', async () => {
    const { sent, signal } = manualSend();
    const first = signal(temporal, 'wf-1', ['a']);
    const queued = signal(temporal, 'wf-1', ['b']);
    await tick();
    sent[0].answer(new Error('busy'));
    await expect(first).rejects.toThrow('busy');
    await tick();
    expect(sent.map((s) => s.args)).toEqual([['a'], ['b']]);
    sent[1].answer();
    await expect(queued).resolves.toBe('answered b');
  });
});
