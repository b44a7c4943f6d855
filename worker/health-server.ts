import http from 'node:http';
import { downIn, type DependencyCheck } from '../shared/dependency-check';
import { answerScrape, type Scrape } from '../shared/metrics/server';
import { listenForOperator } from '../shared/operator-listener';

export interface WorkerReadiness {
  ready: boolean;
  checks: Record<string, DependencyCheck>;
}

export interface HealthServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The worker's probes, on a port of their own that is not the API's: `/livez` answers 200 while the
 * process serves it, `/readyz` 200 or 503 as `readiness` finds, and `/metrics` what `scrape` reads
 * (Prometheus's text). No framework: three routes, loopback by default, and nothing else answers.
 */
export async function startHealthServer(opts: {
  host: string;
  port: number;
  readiness: () => Promise<WorkerReadiness>;
  scrape?: Scrape;
}): Promise<HealthServer> {
  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, { error: 'Method Not Allowed', description: 'GET only' });
    if (path === '/livez') return send(res, 200, { status: 'ok' });
    if (path === '/metrics' && opts.scrape) return answerScrape(res, opts.scrape);
    if (path === '/readyz') {
      opts.readiness().then(
        ({ ready, checks }) => {
          const description = downIn(checks);
          send(res, ready ? 200 : 503, { status: ready ? 'ok' : 'unavailable', ...(description ? { description } : {}), checks });
        },
        (err: unknown) => send(res, 503, { status: 'unavailable', description: (err as Error).message }),
      );
      return;
    }
    send(res, 404, { error: 'Not Found', description: `No route for ${req.method} ${path}` });
  });
  const listener = await listenForOperator(server, opts.host, opts.port);
  return { url: listener.origin, close: listener.close };
}
