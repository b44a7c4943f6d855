import { createEventSource } from 'eventsource-client';
import type { UntypedJson } from './untyped-json';
import type { TestApi } from './api';

export interface ReceivedEvent {
  event: string;
  data: UntypedJson;
}

/**
 * `POST /chat` read by a real SSE client (eventsource-client, as a browser app would use): every
 * event until the last one (`message` or `error`), then the client closes so it does not reconnect.
 */
export async function chatEvents(api: Pick<TestApi, 'url'>, token: string, body: unknown): Promise<ReceivedEvent[]> {
  const received: ReceivedEvent[] = [];
  const source = createEventSource({
    url: `${api.url}/chat`,
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const timer = setTimeout(() => source.close(), 30_000);
  try {
    for await (const message of source) {
      received.push({ event: message.event ?? 'message', data: JSON.parse(message.data) });
      if (message.event === 'message' || message.event === 'error') break;
    }
  } finally {
    clearTimeout(timer);
    source.close();
  }
  return received;
}

/** The streamed text, joined. */
export const streamedText = (events: ReceivedEvent[]) =>
  events
    .filter((e) => e.event === 'token')
    .map((e) => e.data.text as string)
    .join('');
