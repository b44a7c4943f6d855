import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import Koa from 'koa';
import Router from '@koa/router';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { requestId } from '../../api/http/request-id';
import type { AppState } from '../../api/http/state';

// With tracing on, the request-id middleware is the API's server span: one per request, its trace id the request's id.
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();
let server: Server;
let url: string;

beforeAll(async () => {
  const router = new Router<AppState>();
  router.get('/things/:id', async (ctx) => {
    // Work done while the request runs (a query, a workflow start) is the request span's child.
    await trace.getTracer('test').startActiveSpan('inner', async (span) => {
      await new Promise((r) => setImmediate(r));
      span.end();
    });
    ctx.body = { id: ctx.params.id, requestId: ctx.state.requestId };
  });
  router.get('/boom', () => {
    throw new Error('boom');
  });
  router.get('/livez', (ctx) => {
    ctx.body = 'ok';
  });
  const app = new Koa<AppState>().use(requestId({ traced: true })).use(router.routes());
  app.silent = true;
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await provider.shutdown();
});
beforeEach(() => exporter.reset());

describe('the request span', () => {
  it("continues the caller's trace, is named by the route template with bounded attributes, and parents what the request does", async () => {
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const res = await fetch(`${url}/things/42?token=secret`, { headers: { traceparent: `00-${traceId}-${callerSpanId}-01` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe(traceId);
    expect(((await res.json()) as { requestId: string }).requestId).toBe(traceId);

    const spans = exporter.getFinishedSpans();
    const request = spans.find((s) => s.kind === SpanKind.SERVER)!;
    const inner = spans.find((s) => s.name === 'inner')!;
    expect(spans).toHaveLength(2);
    expect(request.name).toBe('GET /things/:id');
    expect(request.spanContext().traceId).toBe(traceId);
    expect(request.parentSpanId).toBe(callerSpanId);
    // No id, query string or header reaches the span: only these three, each of few values.
    expect(request.attributes).toEqual({ 'http.request.method': 'GET', 'http.route': '/things/:id', 'http.response.status_code': 200 });
    expect(inner.spanContext().traceId).toBe(traceId);
    expect(inner.parentSpanId).toBe(request.spanContext().spanId);
  });

  it('starts a trace of its own without a caller, and marks a failure as an error', async () => {
    const res = await fetch(`${url}/boom`);
    expect(res.status).toBe(500);
    // (Koa's own handler answers the throw here, dropping the headers; the API's envelope keeps the id.)
    const [span] = exporter.getFinishedSpans();
    expect(span.parentSpanId).toBeUndefined();
    expect(span.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(span.name).toBe('GET /boom');
    expect(span.attributes['http.response.status_code']).toBe(500);
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('makes no span for probes, nor for a method a client made up, beyond the word OTHER', async () => {
    const probe = await fetch(`${url}/livez`, { headers: { 'x-request-id': 'probe-1' } });
    expect(probe.headers.get('x-request-id')).toBe('probe-1');
    expect(exporter.getFinishedSpans()).toHaveLength(0);

    await fetch(`${url}/things/1`, { method: 'PURGE' });
    const [span] = exporter.getFinishedSpans();
    expect(span.name).toBe('OTHER');
    expect(span.attributes['http.request.method']).toBe('OTHER');
  });
});
