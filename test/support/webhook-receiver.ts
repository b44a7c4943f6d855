import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  /** The status this receiver answered. */
  status: number;
}

/**
 * A customer's webhook endpoint on loopback: records every request and answers each with the next
 * status of `statuses` (then `otherwise`), so a test can make it fail a few times and then succeed.
 * `holdFirst` leaves the first request unanswered; `answerAfterMs` makes every answer wait (a slow endpoint).
 */
export async function startWebhookReceiver(
  opts: { statuses?: number[]; otherwise?: number; holdFirst?: boolean; answerAfterMs?: number } = {},
) {
  const statuses = [...(opts.statuses ?? [])];
  let hold = opts.holdFirst ?? false;
  const received: ReceivedWebhook[] = [];
  const state = { arrived: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.arrived++;
      if (opts.answerAfterMs) setTimeout(answer, opts.answerAfterMs);
      else answer();
    });
    const answer = () => {
      // Received, never answered: the sender is cut off mid-request (the status recorded is 0).
      if (hold) {
        hold = false;
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status: 0 });
        return;
      }
      const status = statuses.shift() ?? opts.otherwise ?? 200;
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), status });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'thanks' : `nope ${received.length}`);
    };
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    /** Requests whose body has arrived, answered or not yet. */
    get arrived() {
      return state.arrived;
    },
    /** Answers the next requests with these statuses. */
    answer(...next: number[]) {
      statuses.push(...next);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
