import http from 'node:http';
import https from 'node:https';
import { assertPublicHost, guardedLookup } from './url-guard';

export interface AttemptResult {
  statusCode: number | null;
  responseBody: string | null;
  durationMs: number;
  error: string | null;
}

const SNIPPET_CHARS = 1000;
/** What is read of an answer at most: enough for the snippet; a huge answer is cut off, not downloaded. */
const READ_LIMIT_BYTES = 16 * 1024;

/**
 * One POST of a webhook. Never throws: every outcome (2xx, another status, a timeout, a refused
 * address, a reset connection) comes back as a result to record. Redirects are not followed (a
 * 3xx is a failure), so a public endpoint cannot bounce us to a private one.
 */
export async function postWebhook(req: {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
}): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const url = new URL(req.url);
    if (!req.allowPrivate) assertPublicHost(url);
    const { statusCode, text } = await send(url, req);
    const ok = statusCode >= 200 && statusCode < 300;
    return {
      statusCode,
      responseBody: text.slice(0, SNIPPET_CHARS) || null,
      durationMs: elapsed(),
      error: ok ? null : `HTTP ${statusCode}`,
    };
  } catch (err) {
    return { statusCode: null, responseBody: null, durationMs: elapsed(), error: err instanceof Error ? err.message : String(err) };
  }
}

function send(url: URL, req: { headers: Record<string, string>; body: string; timeoutMs: number; allowPrivate: boolean }) {
  return new Promise<{ statusCode: number; text: string }>((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: {
          ...req.headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(req.body)),
          'user-agent': 'finops-webhooks/1',
        },
        lookup: req.allowPrivate ? undefined : guardedLookup,
        signal: AbortSignal.timeout(req.timeoutMs),
        // One connection per attempt: a pooled socket would skip the address check.
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => resolve({ statusCode: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= READ_LIMIT_BYTES) {
            res.destroy();
            done();
          }
        });
        res.on('end', done);
        res.on('error', reject);
      },
    );
    request.on('error', (err) => reject(err.name === 'AbortError' ? new Error(`timed out after ${req.timeoutMs} ms`) : err));
    request.end(req.body);
  });
}
