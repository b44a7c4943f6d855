import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP collector receives it, flattened: the attributes as plain values. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  /** Empty for a trace's root. */
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, unknown>;
}

export interface OtlpSink {
  /** What a process gets as OTEL_EXPORTER_OTLP_ENDPOINT. */
  endpoint: string;
  spans: ReceivedSpan[];
  /** Export requests received (one per batch). */
  batches: number;
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      spans?: { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: OtlpAttribute[] }[];
    }[];
  }[];
}

const valueOf = (v: OtlpValue) => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.doubleValue ?? v.boolValue));
const attributesOf = (list: OtlpAttribute[] = []) => Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));

/**
 * A stand-in OTLP collector: accepts `POST /v1/traces` in OTLP/JSON (what the HTTP exporter sends) and keeps
 * the spans, or with `keep: false` only counts the batches (the bench, where thousands arrive).
 */
export async function startOtlpSink(opts: { keep?: boolean } = {}): Promise<OtlpSink> {
  const keep = opts.keep ?? true;
  const sink = { spans: [] as ReceivedSpan[], batches: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      sink.batches += 1;
      if (keep) {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
        for (const rs of body.resourceSpans ?? []) {
          const service = String(attributesOf(rs.resource?.attributes)['service.name'] ?? '');
          for (const ss of rs.scopeSpans ?? [])
            for (const s of ss.spans ?? [])
              sink.spans.push({
                service,
                traceId: s.traceId,
                spanId: s.spanId,
                parentSpanId: s.parentSpanId ?? '',
                name: s.name,
                kind: s.kind,
                attributes: attributesOf(s.attributes),
              });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(sink, {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
