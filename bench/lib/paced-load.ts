import http from 'node:http';
import { percentile } from './latency';

export interface PacedRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface PacedResult {
  total: number;
  non2xx: number;
  errors: number;
  /** What went wrong, a few of each kind: `HTTP 409`, `ECONNRESET`…, with how many. */
  failures: Record<string, number>;
  /** Milliseconds from when each request was due to when its answer had arrived, ascending. */
  latencies: number[];
  p50: number;
  p99: number;
  max: number;
}

/**
 * Open-loop load at a steady rate: request i is due at start + i/rate and goes out then, whether or
 * not earlier ones have been answered, and its latency counts from when it was due (a late send
 * counts against the server, as a real client would see it). autocannon's `overallRate` is no such
 * thing: each connection sends its share of a second back to back and then waits for the next
 * second, so "200 req/s" arrives as a burst of 20 concurrent requests every second, and its latency
 * percentiles measure that queue.
 */
export async function pacedLoad(opts: {
  url: string;
  rate: number;
  durationS: number;
  request: (i: number) => PacedRequest;
  /** Sockets kept open; a request waits for a free one only when this many are busy. */
  sockets?: number;
}): Promise<PacedResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.sockets ?? 64 });
  const base = new URL(opts.url);
  const count = Math.round(opts.rate * opts.durationS);
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const failures: Record<string, number> = {};
  const failed = (what: string) => (failures[what] = (failures[what] ?? 0) + 1);
  const send = (r: PacedRequest, due: number) =>
    new Promise<void>((resolve) => {
      const req = http.request(
        { host: base.hostname, port: base.port, method: r.method, path: r.path, headers: r.headers, agent },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - due);
            if (!res.statusCode || res.statusCode < 200 || res.statusCode > 299) {
              non2xx += 1;
              failed(`HTTP ${res.statusCode}`);
            }
            resolve();
          });
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => {
        errors += 1;
        failed(err.code ?? err.message);
        resolve();
      });
      req.end(r.body);
    });

  const start = performance.now() + 10;
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = start + (i * 1000) / opts.rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    inFlight.push(send(opts.request(i), due));
  }
  await Promise.all(inFlight);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    total: count,
    non2xx,
    errors,
    failures,
    latencies,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? NaN,
  };
}
