import http from 'node:http';
import type { UntypedJson } from '../support/untyped-json';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  /** The request's JSON (its raw text when it is not JSON). */
  body: UntypedJson;
}
export type FakeRoute = (req: FakeRequest) => { status?: number; body: unknown } | Promise<{ status?: number; body: unknown }>;

export interface InjectedFailure {
  status: number;
  body: unknown;
  times: number;
}

/** A tiny JSON HTTP server on loopback for provider fakes, with failure injection per path. */
export async function startHttpFake(route: FakeRoute) {
  const failures = new Map<string, InjectedFailure>();
  const calls: FakeRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    const respond = async () => {
      const url = new URL(req.url!, 'http://fake');
      const raw = Buffer.concat(chunks).toString('utf8');
      const fr: FakeRequest = {
        method: req.method!,
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: raw ? safeJson(raw) : undefined,
      };
      calls.push(fr);
      const failure = failures.get(url.pathname);
      let out: { status?: number; body: unknown };
      if (failure && failure.times > 0) {
        failure.times--;
        out = { status: failure.status, body: failure.body };
      } else {
        try {
          out = await route(fr);
        } catch (err) {
          out = { status: 500, body: { error: String(err) } };
        }
      }
      res.writeHead(out.status ?? 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(out.body));
    };
    // respond() catches what the route throws, so its promise has nothing left to report.
    req.on('end', () => void respond());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    calls,
    /** The next `times` requests to `path` get this answer instead. */
    fail(path: string, status: number, body: unknown, times = 1) {
      failures.set(path, { status, body, times });
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

function safeJson(raw: string): UntypedJson {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
