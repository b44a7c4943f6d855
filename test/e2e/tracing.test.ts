import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { freePort, tcpAnswers } from '../../scripts/lib/ports';
import { buildWorkflowBundle } from '../../scripts/build-workflow-bundle';
import { tracedBundlePath } from '../../worker/create-worker';
import { invoiceLifecycleContract } from '../../shared/temporal/invoice-lifecycle/contract';
import { startOtlpSink, type OtlpSink, type ReceivedSpan } from '../fakes/otlp-sink';
import { startSmtpSink, type SmtpSink } from '../fakes/smtp-sink';
import { testConfig } from '../support/api';
import { withTestDatabase } from '../support/database';
import { eventuallyValue } from '../support/eventually';
import { createTeamAndOwner } from '../support/fixtures';
import { killHard, spawnTs } from '../support/processes';

/**
 * The API and a worker run as real processes with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a stand-in
 * collector, which keeps every span they export. Sending an invoice must make ONE trace, from the HTTP
 * request through the workflow and its activity down to the activity's SQL and the SMTP conversation.
 */
let smtp: SmtpSink;
let otlp: OtlpSink;
const processes: ChildProcess[] = [];
let output = '';

const tdb = withTestDatabase({
  setUp: async () => {
    smtp = await startSmtpSink();
    otlp = await startOtlpSink();
    // The traced bundle beside the plain one the global setup built: the worker picks it because tracing is on.
    await buildWorkflowBundle(tracedBundlePath(process.env.WORKFLOW_BUNDLE_PATH!), { traced: true });
  },
  tearDown: async () => {
    await Promise.all(processes.map((p) => killHard(p)));
    await smtp?.close();
    await otlp?.close();
  },
});

function startProcess(script: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawnTs(script, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  processes.push(child);
  return child;
}

/** Whether `span` descends from `ancestor` within the trace's spans. */
function descendsFrom(spans: ReceivedSpan[], span: ReceivedSpan, ancestor: ReceivedSpan): boolean {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  for (let at = byId.get(span.parentSpanId); at; at = byId.get(at.parentSpanId)) if (at.spanId === ancestor.spanId) return true;
  return false;
}

describe('traces', () => {
  it('POST /invoices/{id}/send → InvoiceLifecycle → its email activity → SQL and SMTP: one trace, the request id its id', async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      AUTH_JWT_SECRET: testConfig().AUTH_JWT_SECRET,
      DATABASE_URL: tdb.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      WORKER_HEALTH_PORT: '0',
      SMTP_URL: smtp.url,
      PUBLIC_URL: 'https://finops.example',
      TEMPORAL_TASK_QUEUE: `tracing-${randomBytes(4).toString('hex')}`,
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
      // The SDK's batches leave every 5 s by default; the test need not wait that long.
      OTEL_BSP_SCHEDULE_DELAY: '200',
    };
    startProcess('worker/main.ts', env);
    const apiProcess = startProcess('api/main.ts', env);
    for (let i = 0; !(await tcpAnswers(`127.0.0.1:${port}`)); i++) {
      if (i > 1800 || apiProcess.exitCode !== null) throw new Error(`the API did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const url = `http://127.0.0.1:${port}`;
    const acme = await createTeamAndOwner(tdb.db, 'Acme');
    const json = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(url + path, {
        method,
        headers: { authorization: `Bearer ${acme.sessionToken}`, 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return {
        status: res.status,
        requestId: res.headers.get('x-request-id'),
        body: (await res.json()) as { data: Record<string, string> },
      };
    };

    const email = `billing-${Date.now()}@customer.example`;
    const customer = await json('POST', '/customers', { name: 'Kunde GmbH', billingEmail: email });
    expect(customer.status).toBe(201);
    // Without a caller's trace the request starts one, and its id is the trace's: 32 hex digits, not a UUID.
    expect(customer.requestId).toMatch(/^[0-9a-f]{32}$/);
    const invoice = await json('POST', '/invoices', {
      invoiceNumber: 'TR-1',
      currency: 'EUR',
      customerId: customer.body.data.id,
      lineItems: [{ name: 'Consulting', quantity: 1, price: 100, vatRate: 19 }],
    });
    expect(invoice.status).toBe(201);

    // A caller's traceparent is continued: its trace id is the request's id.
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const sent = await json('POST', `/invoices/${invoice.body.data.id}/send`, undefined, {
      traceparent: `00-${traceId}-${callerSpanId}-01`,
    });
    expect(sent.status).toBe(200);
    expect(sent.requestId).toBe(traceId);
    await smtp.waitFor((m) => m.to.includes(email), 60_000);
    // The run's span ends with the run: paid ends it.
    expect((await json('POST', `/invoices/${invoice.body.data.id}/mark-paid`, { paymentReference: 'SEPA-1' })).status).toBe(200);

    // The whole chain has reached the collector once the run's span (the last to end) is there.
    const runName = `RunWorkflow:${invoiceLifecycleContract.workflowType}`;
    const trace = await eventuallyValue(
      () => {
        const spans = otlp.spans.filter((s) => s.traceId === traceId);
        return Promise.resolve(spans.some((s) => s.name === runName) ? spans : undefined);
      },
      60_000,
      'the run span in the trace',
    );
    const one = (match: (s: ReceivedSpan) => boolean, what: string) => {
      const found = trace.filter(match);
      // On a failure, the trace's spans are in the message.
      if (found.length !== 1)
        expect({
          what,
          found: found.length,
          trace: [...new Set(trace.map((s) => `${s.service} ${s.name.startsWith('pg.') ? 'pg' : s.name}`))],
        }).toBeUndefined();
      return found[0];
    };
    const request = one((s) => s.service === 'finops-api' && s.kind === 2 && s.attributes['http.method'] === 'POST', 'the request');
    expect(request.parentSpanId).toBe(callerSpanId);
    const start = one(
      (s) => s.service === 'finops-api' && s.name === `SignalWithStartWorkflow:${invoiceLifecycleContract.workflowType}`,
      'the workflow start',
    );
    // A worker that replays the run (its cache evicted it, as a busy machine does) opens the run's span
    // again: each is the start's child, and the activity hangs under one of them.
    const runs = trace.filter((s) => s.service === 'finops-worker' && s.name === runName);
    expect(runs.length).toBeGreaterThan(0);
    const activity = one((s) => s.name === 'RunActivity:performInvoiceStep', 'the sending activity');
    const run = runs.find((r) => descendsFrom(trace, activity, r)) ?? runs[0];
    const mail = one((s) => s.name === 'smtp send', 'the SMTP send');
    const sql = trace.filter((s) => s.attributes['db.system'] === 'postgresql' && descendsFrom(trace, s, activity));

    expect(descendsFrom(trace, start, request)).toBe(true);
    for (const r of runs) expect(descendsFrom(trace, r, start)).toBe(true);
    expect(descendsFrom(trace, activity, run)).toBe(true);
    expect(descendsFrom(trace, activity, request)).toBe(true);
    expect(descendsFrom(trace, mail, activity)).toBe(true);
    expect(mail.attributes['server.address']).toBe('127.0.0.1');
    // The activity reads the invoice and records the delivery.
    expect(sql.length).toBeGreaterThan(0);
    expect(sql.map((s) => String(s.attributes['db.statement']))).toEqual(expect.arrayContaining([expect.stringMatching(/^select/i)]));
    // Nothing of a query's values travels: statements only, with their placeholders.
    expect(sql.every((s) => s.attributes['db.postgresql.values'] === undefined)).toBe(true);

    // The access log line of the send carries the trace id as its request id.
    const line = await eventuallyValue(
      () =>
        Promise.resolve(
          output
            .split('\n')
            .filter((l) => l.startsWith('{'))
            .map((l) => JSON.parse(l) as { msg?: string; path?: string; requestId?: string })
            .find((l) => l.msg === 'request' && l.path === `/invoices/${invoice.body.data.id}/send`),
        ),
      10_000,
      'the access log line of the send',
    );
    expect(line.requestId).toBe(traceId);
  }, 480_000);
});
