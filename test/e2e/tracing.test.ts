import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { freePort, tcpAnswers } from '../../scripts/lib/ports';
import { buildWorkflowBundle } from '../../scripts/build-workflow-bundle';
import { tracedBundlePath } from '../../worker/create-worker';
import { invoiceLifecycleContract } from '../../shared/temporal/invoice-lifecycle/contract';
import { syncConnectionContract } from '../../shared/temporal/sync-connection/contract';
import { startOtlpSink, type OtlpSink, type ReceivedSpan } from '../fakes/otlp-sink';
import { signBankB, startBankBFake, type BankBFake } from '../fakes/bank-b';
import { startSmtpSink, type SmtpSink } from '../fakes/smtp-sink';
import { testConfig } from '../support/api';
import { withTestDatabase } from '../support/database';
import { eventuallyValue } from '../support/eventually';
import { createTeamAndOwner } from '../support/fixtures';
import { killHard, spawnTs } from '../support/processes';

/**
 * The API and a worker run as real processes with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a stand-in
 * collector, which keeps every span they export in memory. Sending an invoice must make ONE trace, from the
 * HTTP request through the workflow and its activity down to the activity's SQL and the SMTP conversation;
 * a provider's signed webhook ONE trace through the workflow it starts down to its activities' SQL and calls.
 */
let smtp: SmtpSink;
let otlp: OtlpSink;
let bankB: BankBFake;
const BANK_B_SECRET = 'bankb-tracing-secret';
const processes: ChildProcess[] = [];
let output = '';

const tdb = withTestDatabase({
  setUp: async () => {
    smtp = await startSmtpSink();
    otlp = await startOtlpSink();
    bankB = await startBankBFake();
    // The traced bundle beside the plain one the global setup built: the worker picks it because tracing is on.
    await buildWorkflowBundle(tracedBundlePath(process.env.WORKFLOW_BUNDLE_PATH!), { traced: true });
  },
  tearDown: async () => {
    await Promise.all(processes.map((p) => killHard(p)));
    await smtp?.close();
    await otlp?.close();
    await bankB?.close();
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

/** The API and the worker, started once for the file's tests; the API's address. */
let running: Promise<string> | undefined;
function startStack(): Promise<string> {
  return (running ??= (async () => {
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
      BANK_B_API_URL: bankB.url,
      BANK_B_WEBHOOK_SECRETS: BANK_B_SECRET,
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
    return `http://127.0.0.1:${port}`;
  })());
}

async function call(url: string, method: string, body: unknown, headers: Record<string, string>) {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, requestId: res.headers.get('x-request-id'), body: (await res.json()) as { data: Record<string, string> } };
}

/** The spans of trace `traceId` once one named `last` (the span that ends last) has reached the collector. */
function traceWith(traceId: string, last: (s: ReceivedSpan) => boolean, what: string): Promise<ReceivedSpan[]> {
  return eventuallyValue(
    () => {
      const spans = otlp.spans.filter((s) => s.traceId === traceId);
      return Promise.resolve(spans.some(last) ? spans : undefined);
    },
    90_000,
    what,
  );
}

/** The one span of `trace` that matches; on none or several, the trace's spans are in the failure. */
function one(trace: ReceivedSpan[], match: (s: ReceivedSpan) => boolean, what: string): ReceivedSpan {
  const found = trace.filter(match);
  if (found.length !== 1)
    expect({
      what,
      found: found.length,
      trace: [...new Set(trace.map((s) => `${s.service} ${s.name.startsWith('pg.') ? 'pg' : s.name}`))],
    }).toBeUndefined();
  return found[0];
}

describe('traces', () => {
  it('POST /invoices/{id}/send → InvoiceLifecycle → its email activity → SQL and SMTP: one trace, the request id its id', async () => {
    const url = await startStack();
    const acme = await createTeamAndOwner(tdb.db, 'Acme');
    const json = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      call(url + path, method, body, { authorization: `Bearer ${acme.sessionToken}`, ...headers });

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
    const trace = await traceWith(traceId, (s) => s.name === runName, 'the run span in the trace');
    const request = one(trace, (s) => s.service === 'finops-api' && s.kind === 2, 'the request');
    expect(request.parentSpanId).toBe(callerSpanId);
    // Named by its route template, with bounded attributes only: no ids in the name.
    expect(request.name).toBe('POST /invoices/:id/send');
    expect(request.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/invoices/:id/send',
      'http.response.status_code': 200,
    });
    const start = one(
      trace,
      (s) => s.service === 'finops-api' && s.name === `SignalWithStartWorkflow:${invoiceLifecycleContract.workflowType}`,
      'the workflow start',
    );
    // A worker that replays the run (its cache evicted it, as a busy machine does) opens the run's span
    // again: each is the start's child, and the activity hangs under one of them.
    const runs = trace.filter((s) => s.service === 'finops-worker' && s.name === runName);
    expect(runs.length).toBeGreaterThan(0);
    const activity = one(trace, (s) => s.name === 'RunActivity:performInvoiceStep', 'the sending activity');
    const run = runs.find((r) => descendsFrom(trace, activity, r)) ?? runs[0];
    const mail = one(trace, (s) => s.name === 'smtp send', 'the SMTP send');
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

  it('a signed bank-b webhook → SyncConnection → its sync activity → SQL and the provider call: one trace, whose id is the request id', async () => {
    const url = await startStack();
    const acme = await createTeamAndOwner(tdb.db, 'Acme');
    const enrollment = bankB.addEnrollment();
    bankB.addTransactions(enrollment, 3);
    const runName = `RunWorkflow:${syncConnectionContract.workflowType}`;
    const connected = await call(
      `${url}/bank-connections`,
      'POST',
      { provider: 'bank-b', accessToken: enrollment.accessToken, enrollmentId: enrollment.enrollmentId },
      { authorization: `Bearer ${acme.sessionToken}` },
    );
    expect(connected.status).toBe(201);
    // The first sync's run has ended once its span is exported: the webhook then starts a run of its own.
    await traceWith(connected.requestId!, (s) => s.name === runName, 'the first sync run');

    bankB.addTransactions(enrollment, 2);
    const signed = signBankB(
      {
        id: `wh_${randomBytes(4).toString('hex')}`,
        type: 'transactions.processed',
        timestamp: new Date().toISOString(),
        payload: { enrollment_id: enrollment.enrollmentId },
      },
      [BANK_B_SECRET],
    );
    // A provider sends no traceparent: the delivery starts the trace, and answers with its id.
    const delivered = await call(`${url}/webhook/bank-b`, 'POST', signed.raw, signed.headers);
    expect(delivered.status).toBe(200);
    expect(delivered.requestId).toMatch(/^[0-9a-f]{32}$/);

    const trace = await traceWith(delivered.requestId!, (s) => s.name === runName, 'the run the webhook started');
    const request = one(trace, (s) => s.service === 'finops-api' && s.kind === 2, 'the webhook delivery');
    expect(request.parentSpanId).toBe('');
    expect(request.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/webhook/bank-b',
      'http.response.status_code': 200,
    });
    const start = one(
      trace,
      (s) => s.service === 'finops-api' && s.name === `SignalWithStartWorkflow:${syncConnectionContract.workflowType}`,
      'the signal-with-start',
    );
    const runs = trace.filter((s) => s.service === 'finops-worker' && s.name === runName);
    expect(runs.length).toBeGreaterThan(0);
    const activity = one(trace, (s) => s.name === 'RunActivity:syncBankConnection', 'the sync activity');
    const run = runs.find((r) => descendsFrom(trace, activity, r)) ?? runs[0];
    // The delivery's own SQL (recording the event) and the activity's (reading the connection, writing transactions).
    const sql = (under: ReceivedSpan) => trace.filter((s) => s.attributes['db.system'] === 'postgresql' && descendsFrom(trace, s, under));
    const providerCalls = trace.filter((s) => {
      const target = s.attributes['url.full'];
      return s.kind === 3 && typeof target === 'string' && target.startsWith(bankB.url);
    });

    expect(descendsFrom(trace, start, request)).toBe(true);
    for (const r of runs) expect(descendsFrom(trace, r, start)).toBe(true);
    expect(descendsFrom(trace, activity, run)).toBe(true);
    expect(
      sql(request)
        .filter((s) => !descendsFrom(trace, s, activity))
        .map((s) => String(s.attributes['db.statement'])),
    ).toEqual(expect.arrayContaining([expect.stringMatching(/webhook_events/)]));
    expect(sql(activity).map((s) => String(s.attributes['db.statement']))).toEqual(
      expect.arrayContaining([expect.stringMatching(/^select/i), expect.stringMatching(/^insert into "?transactions"?/i)]),
    );
    expect(providerCalls.length).toBeGreaterThan(0);
    for (const c of providerCalls) expect(descendsFrom(trace, c, activity)).toBe(true);
  }, 480_000);
});
