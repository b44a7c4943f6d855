import type { Server } from 'node:http';

/**
 * Node closes an idle keep-alive connection after 5 s. A client or load balancer that reuses it at
 * that moment gets ECONNRESET (or a 502); keeping idle connections longer than their pools do
 * (fetch: 4 s, most load balancers: 60 s) leaves closing to them.
 */
export function keepConnectionsLongerThanClients(server: Server): Server {
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
}
