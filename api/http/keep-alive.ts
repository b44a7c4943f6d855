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

/**
 * Stops accepting, lets requests in flight finish, and closes connections as they go idle, so long
 * keep-alive never holds up a shutdown; whatever is still open after `graceMs` is cut.
 */
export async function closeServer(server: Server, graceMs = 5_000): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  // A connection that finishes its response after this point goes idle and would otherwise wait 65 s.
  const sweep = setInterval(() => server.closeIdleConnections(), 100);
  const cut = setTimeout(() => server.closeAllConnections(), graceMs);
  try {
    await closed;
  } finally {
    clearInterval(sweep);
    clearTimeout(cut);
  }
}
