import { sendJson, type TestApi } from './api';
import type { UntypedJson } from './untyped-json';

export interface FeedRead {
  events: UntypedJson[];
  cursor: string;
}

/**
 * GET /events from `after` (the start when omitted) page by page until at least `atLeast` events
 * have come, long-polling while fewer have: an event is served only once every transaction that
 * began before its own has finished, anywhere on the server, so under other tests' load a change
 * just made can take a moment to show. Then reads on to the end. Fails after `timeoutMs`.
 */
export async function readEvents(
  api: Pick<TestApi, 'fetch'>,
  token: string,
  opts: { after?: string; atLeast?: number; pageSize?: number; timeoutMs?: number } = {},
): Promise<FeedRead> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  const events: UntypedJson[] = [];
  let cursor = opts.after;
  for (;;) {
    const short = events.length < (opts.atLeast ?? 0);
    const query = new URLSearchParams({
      pageSize: String(opts.pageSize ?? 500),
      ...(cursor ? { after: cursor } : {}),
      ...(short ? { wait: '2' } : {}),
    });
    const res = await sendJson(api, 'GET', `/events?${query.toString()}`, token);
    if (res.status !== 200) throw new Error(`GET /events answered ${res.status}: ${await res.text()}`);
    const body = await res.json();
    events.push(...(body.data as UntypedJson[]));
    cursor = body.meta.cursor as string;
    if (body.meta.hasNextPage) continue;
    if (events.length >= (opts.atLeast ?? 0)) return { events, cursor };
    if (Date.now() > deadline) throw new Error(`GET /events gave ${events.length} events, not ${opts.atLeast}, in time`);
  }
}
