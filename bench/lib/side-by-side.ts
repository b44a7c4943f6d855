import type autocannon from 'autocannon';
import { median } from './latency';
import { load } from './load';
import { processCpuMs } from './process-cpu';

export interface Contender {
  /** The server's process: its CPU is read from /proc. */
  process: { pid?: number };
  /** The load for one round; its `duration` is set here. */
  options: autocannon.Options;
}

export interface MaxLoad {
  /** Requests per second over all rounds. */
  perSecond: number;
  /** The median of the rounds' p99. */
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** The server's CPU (user + system) over all rounds, per request answered. */
  cpuPerRequestMs: number;
}

/**
 * Maximum load on two servers in alternating rounds (ours, the bare one, ours, …), so that both
 * meet the same machine: on a shared machine a minute can be slower than the next, and one long
 * run each would put that difference into their ratio.
 */
export async function maxLoadSideBySide(
  ours: Contender,
  bare: Contender,
  opts: { rounds: number; roundS: number },
): Promise<{ ours: MaxLoad; bare: MaxLoad }> {
  const rounds = { ours: [] as Round[], bare: [] as Round[] };
  for (let i = 0; i < opts.rounds; i++) {
    rounds.ours.push(await round(ours, opts.roundS));
    rounds.bare.push(await round(bare, opts.roundS));
  }
  return { ours: summed(rounds.ours, opts.roundS), bare: summed(rounds.bare, opts.roundS) };
}

interface Round {
  result: autocannon.Result;
  cpuMs: number;
}

async function round(contender: Contender, seconds: number): Promise<Round> {
  const { pid } = contender.process;
  if (pid === undefined) throw new Error('the process under test is not running');
  const before = processCpuMs(pid);
  const result = await load({ ...contender.options, duration: seconds });
  return { result, cpuMs: processCpuMs(pid) - before };
}

function summed(rounds: Round[], roundS: number): MaxLoad {
  const requests = rounds.reduce((n, r) => n + r.result.requests.total, 0);
  return {
    perSecond: requests / (rounds.length * roundS),
    p99: median(rounds.map((r) => r.result.latency.p99)),
    requests,
    non2xx: rounds.reduce((n, r) => n + r.result.non2xx, 0),
    errors: rounds.reduce((n, r) => n + r.result.errors, 0),
    cpuPerRequestMs: rounds.reduce((n, r) => n + r.cpuMs, 0) / requests,
  };
}
