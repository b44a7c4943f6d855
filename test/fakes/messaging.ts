import http from 'node:http';
import { createHmac } from 'node:crypto';
import type { UntypedJson } from '../support/untyped-json';

export interface SentMessage {
  to: string;
  type: string;
  /** The message as our code posted it. */
  body: UntypedJson;
  /** When it arrived (ms since the epoch). */
  at: number;
}

/**
 * messaging (WhatsApp Cloud API) on loopback: records what we send to `/{phone-id}/messages` and
 * serves media as the Graph API does (`GET /{media-id}` → `{url, mime_type}` → bytes, Bearer auth).
 */
export async function startMessagingFake(accessToken: string) {
  const sent: SentMessage[] = [];
  const media = new Map<string, { bytes: Buffer; mimeType: string }>();
  const waiters: Array<() => void> = [];
  let base = '';
  // While unavailable, every call answers 503 and nothing is recorded as sent.
  const state = { unavailable: false, delayMs: 0, dropAnswers: false };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void respond());
    const respond = async () => {
      // A slow provider: the message counts as sent when the answer goes out, as a real API's would.
      if (state.delayMs) await new Promise((r) => setTimeout(r, state.delayMs));
      if (state.unavailable) {
        res.writeHead(503, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: { message: 'Service temporarily unavailable', code: 2 } }));
      }
      if (req.headers.authorization !== `Bearer ${accessToken}`) {
        res.writeHead(401, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: { message: 'Invalid OAuth access token', code: 190 } }));
      }
      const path = new URL(req.url!, 'http://fake').pathname;
      if (req.method === 'POST' && path.endsWith('/messages')) {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        sent.push({ to: body.to, type: body.type, body, at: Date.now() });
        // The message went out, but the answer is lost on the way back (a reset connection).
        if (state.dropAnswers) return req.socket.destroy();
        waiters.splice(0).forEach((w) => w());
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({
            messaging_product: 'whatsapp',
            contacts: [{ input: body.to, wa_id: body.to }],
            messages: [{ id: `wamid.out${sent.length}` }],
          }),
        );
      }
      const bytesMatch = /^\/media-bytes\/(.+)$/.exec(path);
      if (bytesMatch && media.has(bytesMatch[1])) {
        const m = media.get(bytesMatch[1])!;
        res.writeHead(200, { 'content-type': m.mimeType });
        return res.end(m.bytes);
      }
      const id = path.slice(1);
      if (media.has(id)) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({ messaging_product: 'whatsapp', url: `${base}/media-bytes/${id}`, mime_type: media.get(id)!.mimeType, id }),
        );
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'not found' } }));
    };
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url: base,
    sent,
    setUnavailable(unavailable: boolean) {
      state.unavailable = unavailable;
    },
    /** Sends are taken, and the connection breaks before the answer. */
    setDropAnswers(drop: boolean) {
      state.dropAnswers = drop;
    },
    /** Every answer waits this long first. */
    setDelay(ms: number) {
      state.delayMs = ms;
    },
    addMedia(id: string, bytes: Buffer, mimeType: string) {
      media.set(id, { bytes, mimeType });
    },
    waitFor(match: (m: SentMessage) => boolean, timeoutMs = 30_000): Promise<SentMessage> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no matching message; sent so far: ${JSON.stringify(sent.map((s) => s.body))}`)),
          timeoutMs,
        );
        const check = () => {
          const found = sent.find(match);
          if (found) {
            clearTimeout(timer);
            resolve(found);
          } else waiters.push(check);
        };
        check();
      });
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** An inbound delivery as the provider sends it, signed with the app secret. */
export function signedDelivery(appSecret: string, messages: unknown[]) {
  const raw = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'WABA',
        changes: [
          { field: 'messages', value: { messaging_product: 'whatsapp', metadata: { phone_number_id: '000000000000000' }, messages } },
        ],
      },
    ],
  });
  return {
    raw,
    headers: {
      'content-type': 'application/json',
      'x-hub-signature-256': `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`,
    },
  };
}
