import http from 'node:http';
import { keepConnectionsLongerThanClients } from '../../api/http/keep-alive';

/**
 * Serves a bench's bare comparator: `answer` settles every request itself, failures included, so
 * nothing is left for the server to await. Idle connections are kept as long as the API keeps them:
 * with Node's default the bare program alone lost requests under load (the race of a socket reused by
 * the client as the server closes it). Tells the bench it is ready, and exits on the bench's SIGTERM
 * rather than being killed by it, so that a CPU profile (BENCH_CPU_PROF) is written.
 */
export function serveBare(port: number, answer: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>): void {
  keepConnectionsLongerThanClients(http.createServer((req, res) => void answer(req, res))).listen(port, '127.0.0.1', () =>
    process.send?.('ready'),
  );
  process.on('SIGTERM', () => process.exit(0));
}
