import http from 'node:http';
import { listenForOperator } from '../operator-listener';

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/** What a scrape answers: Prometheus's text format. */
export type Scrape = () => Promise<{ contentType: string; body: string }>;

/**
 * `GET /metrics` on a listener of its own, away from the public API: what it tells (operations,
 * backlogs, pool use) is for the operator's Prometheus, and a scrape must not spend the clients'
 * rate limit or wait behind their requests. Nothing else answers there.
 */
export async function serveMetrics(opts: { host: string; port: number; scrape: Scrape }): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Not Found: GET /metrics only\n');
      return;
    }
    answerScrape(res, opts.scrape);
  });
  const listener = await listenForOperator(server, opts.host, opts.port);
  return { url: `${listener.origin}/metrics`, close: listener.close };
}

/** Answers one scrape (the worker's probe server serves /metrics with this too). */
export function answerScrape(res: http.ServerResponse, scrape: Scrape): void {
  scrape().then(
    ({ contentType, body }) => {
      res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
      res.end(body);
    },
    (err: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`metrics could not be collected: ${(err as Error).message}\n`);
    },
  );
}
