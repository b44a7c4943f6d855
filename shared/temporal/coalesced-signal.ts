import type { TemporalGateway } from './client';

/** The signals of one workflow id: the one on its way, and the requests waiting to go after it as one. */
class Lane<A> {
  private running: Promise<unknown> | undefined;
  private next: { args: A; sent: Promise<string> } | undefined;

  constructor(
    private readonly send: (args: A) => Promise<string>,
    private readonly merge: (queued: A, more: A) => A,
    private readonly idle: () => void,
  ) {}

  request(args: A): Promise<string> {
    if (this.next) {
      this.next.args = this.merge(this.next.args, args);
      return this.next.sent;
    }
    if (!this.running) return this.go(args);
    const queued: { args: A; sent: Promise<string> } = { args, sent: this.running.then(() => this.go(queued.args, true)) };
    this.next = queued;
    return queued.sent;
  }

  private go(args: A, wasQueued = false): Promise<string> {
    if (wasQueued) this.next = undefined;
    const sent = this.send(args);
    const settled = sent.then(
      () => undefined,
      () => undefined,
    );
    this.running = settled;
    void settled.then(() => {
      if (this.running !== settled || this.next) return;
      this.running = undefined;
      this.idle();
    });
    return sent;
  }
}

/**
 * Signals to one workflow id from this process, one at a time, as grouped.ts groups statements: the
 * first request goes at once, and every request made while it is on its way joins one signal sent
 * once it has answered, with their arguments merged. Joining the signal already on its way would
 * lose a request: the server may have taken that signal, and the run acted on it, before the
 * request was made. A burst of requests for one workflow then costs Temporal two signals, not one
 * each: every signal is an event in the run's history and a workflow task, and a run signalled
 * faster than it answers refuses more as busy (RESOURCE_EXHAUSTED).
 */
export function coalescedSignal<A>(send: (temporal: TemporalGateway, args: A) => Promise<string>, merge: (queued: A, more: A) => A) {
  const lanes = new WeakMap<TemporalGateway, Map<string, Lane<A>>>();
  return (temporal: TemporalGateway, workflowId: string, args: A): Promise<string> => {
    let byId = lanes.get(temporal);
    if (!byId) lanes.set(temporal, (byId = new Map<string, Lane<A>>()));
    let lane = byId.get(workflowId);
    if (!lane) {
      const ids = byId;
      lane = new Lane<A>(
        (a) => send(temporal, a),
        merge,
        () => ids.delete(workflowId),
      );
      ids.set(workflowId, lane);
    }
    return lane.request(args);
  };
}
