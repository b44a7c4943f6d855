import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { traceFetch } from '../../shared/tracing/fetch-spans';

// A provider's calls are fetches: each inside a trace is a client span of it, and the provider gets the traceparent.
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();
let untrace: () => void;
let server: http.Server;
const received: (string | undefined)[] = [];
let url: string;

beforeAll(async () => {
  untrace = traceFetch();
  server = http.createServer((req, res) => {
    received.push(req.headers.traceparent as string | undefined);
    res.writeHead(req.url?.startsWith('/fail') ? 503 : 200).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  untrace();
  await new Promise((r) => server.close(r));
  await provider.shutdown();
});
beforeEach(() => {
  exporter.reset();
  received.length = 0;
});

describe('fetch spans', () => {
  it('a fetch inside a trace is its child, passes the traceparent on, and keeps no query string', async () => {
    const tracer = trace.getTracer('test');
    const parent = await tracer.startActiveSpan('activity', async (span) => {
      await (await fetch(`${url}/v1/items?api_key=secret-value`)).text();
      await (await fetch(`${url}/fail`)).text();
      span.end();
      return span.spanContext();
    });
    const calls = exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.CLIENT);
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call.spanContext().traceId).toBe(parent.traceId);
      expect(call.parentSpanId).toBe(parent.spanId);
    }
    expect(calls[0].attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.full': `${url}/v1/items`,
      'http.response.status_code': 200,
    });
    expect(JSON.stringify(calls.map((c) => c.attributes))).not.toContain('secret-value');
    expect(calls[1].attributes['http.response.status_code']).toBe(503);
    expect(calls[1].status.code).toBe(2); // ERROR
    // The provider sees the client span as the parent of whatever it does.
    expect(received).toEqual(calls.map((c) => `00-${parent.traceId}-${c.spanContext().spanId}-01`));
  });

  it('a fetch outside any trace makes no span and sends no traceparent', async () => {
    await (await fetch(`${url}/background`)).text();
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(received).toEqual([undefined]);
  });
});
