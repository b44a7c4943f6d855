import type http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A listener for the operator's eyes (probes, metrics), apart from the public API. */
export interface OperatorListener {
  /** `http://host:port`, with an IPv6 host in brackets. */
  origin: string;
  close: () => Promise<void>;
}

/**
 * Starts `server` on `host:port` (0: any free port). A probe or a scrape connects, asks once and
 * goes: an idle connection is no reason to wait at shutdown, so keep-alive is short and closing
 * ends the connections still open.
 */
export async function listenForOperator(server: http.Server, host: string, port: number): Promise<OperatorListener> {
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    origin: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
