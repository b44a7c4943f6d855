/**
 * Invoices: how long the PDF takes to render, and how long an invoice takes to reach the
 * customer's mailbox once it is due to go.
 *
 * 1. PDF: one invoice of 10 lines and one of 60 lines (two pages) rendered 200 times each, beside the
 *    bare comparator: pdfkit writing the same text as plain lines in the same font, without the layout. Goal: p99
 *    under 200 ms per PDF.
 * 2. Delivery, on a real Temporal dev server with a worker and a real SMTP server on loopback: 10
 *    invoices sent now (the call → the email received, PDF attached) and 10 scheduled 1 s ahead (the
 *    scheduled time → the email received).
 *
 *   npx tsx bench/invoices.ts
 */
import { performance } from 'node:perf_hooks';
import PDFDocument from 'pdfkit';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { NativeConnection } from '@temporalio/worker';
import { closeActivityDeps, createActivityDeps } from '../activities';
import { loadConfig } from '../shared/config';
import type { Db } from '../shared/db/knex';
import { Team } from '../shared/db/models';
import { scheduleInvoice, sendInvoice } from '../shared/domain/invoices/lifecycle';
import { invoiceForPdf, renderInvoicePdf, type InvoiceParties } from '../shared/domain/invoices/pdf';
import type { InvoiceDto } from '../shared/domain/invoices/schema';
import { useUnicodeFonts } from '../shared/domain/invoices/fonts';
import { createInvoice } from '../shared/domain/invoices/service';
import { createUserWithTeam } from '../shared/domain/teams/service';
import { createTemporalGateway } from '../shared/temporal/client';
import { localDevServer } from '../scripts/lib/temporal-cli';
import { startSmtpSink } from '../test/fakes/smtp-sink';
import { createWorker } from '../worker/create-worker';
import { benchDatabase } from './lib/database';
import { reportFigure } from './lib/figures';
import { ms, percentile } from './lib/latency';
import { runMain } from './lib/run-main';

const RENDERS = Number(process.env.RENDERS ?? 200);
const DELIVERIES = Number(process.env.DELIVERIES ?? 10);

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

async function seed(db: Db) {
  const { team, user } = await createUserWithTeam(db, { email: `bench-invoices-${Date.now()}@example.com`, teamName: 'Bench GmbH' });
  await Team.query(db).findById(team.id).patch({ countryCode: 'DE', email: 'billing@bench.example' });
  const [customer] = await db('customers')
    .insert({
      teamId: team.id,
      name: 'Kunde AG',
      billingEmail: 'ap@kunde.example',
      addressLine_1: 'Hauptstraße 1',
      city: 'Berlin',
      zip: '10115',
      countryCode: 'DE',
      vatNumber: 'DE123456789',
    })
    .returning<{ id: string }[]>('id');
  const lines = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      name: `Consulting, week ${i + 1}`,
      quantity: 1 + (i % 5),
      price: 95.5 + i,
      vatRate: i % 4 ? 19 : 7,
    }));
  let drafted = 0;
  // Numbered by hand, so the email that carries it is known before it is issued (a scheduled one is numbered when it goes).
  const draft = async (n: number) =>
    (await createInvoice(db, team.id, user.id, {
      invoiceNumber: `B-${team.id.slice(0, 8)}-${++drafted}`,
      currency: 'EUR',
      customerId: customer.id,
      lineItems: lines(n),
      note: 'Zahlbar innerhalb von 30 Tagen.',
    })) as InvoiceDto & { invoiceNumber: string };
  return { teamId: team.id, userId: user.id, customerId: customer.id, draft };
}

/** The bare comparator: pdfkit writing the invoice's text as plain lines, with no layout. */
function barePdf({ invoice, team, customer }: { invoice: InvoiceDto } & InvoiceParties): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 50 });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  // The same font as the invoice: embedding it is part of the work either way.
  useUnicodeFonts(doc);
  doc.text(`${team.name} Invoice ${invoice.invoiceNumber}`);
  doc.text(customer?.name ?? '');
  for (const l of invoice.lineItems) doc.text(`${l.name} ${l.quantity} ${l.price} ${l.vatRate ?? ''} ${l.quantity * l.price}`);
  doc.text(`Total ${invoice.amount}`);
  doc.end();
  return done;
}

async function timeRenders(render: () => Promise<Buffer>): Promise<number[]> {
  for (let i = 0; i < 10; i++) await render(); // warm up fonts and the JIT
  const times: number[] = [];
  for (let i = 0; i < RENDERS; i++) {
    const started = performance.now();
    await render();
    times.push(performance.now() - started);
  }
  return sorted(times);
}

async function main() {
  const bench = await benchDatabase('finops_bench_invoices');
  const smtp = await startSmtpSink();
  const env = await TestWorkflowEnvironment.createLocal({
    server: localDevServer(),
  });
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: 'warn',
    DATABASE_URL: bench.url,
    TEMPORAL_ADDRESS: env.address,
    TEMPORAL_TASK_QUEUE: 'bench-invoices',
    SMTP_URL: smtp.url,
    PUBLIC_URL: 'https://finops.example',
  });
  const temporal = createTemporalGateway({ address: env.address, namespace: 'default', taskQueue: config.TEMPORAL_TASK_QUEUE });
  const deps = createActivityDeps(config, bench.db);
  const connection = await NativeConnection.connect({ address: env.address });
  const worker = await createWorker({ connection, namespace: 'default', taskQueue: config.TEMPORAL_TASK_QUEUE, deps });
  try {
    const s = await seed(bench.db);

    console.log(`\nPDF render, ${RENDERS} times each (money and dates for Germany, DejaVu fonts when installed)`);
    for (const lines of [10, 60]) {
      const data = await invoiceForPdf(bench.db, s.teamId, (await s.draft(lines)).id);
      const ours = await timeRenders(() => renderInvoicePdf(data));
      const bare = await timeRenders(() => barePdf(data));
      console.log(
        `  ${lines} lines: p50 ${ms(percentile(ours, 50))}, p99 ${ms(percentile(ours, 99))}; bare text ${ms(percentile(bare, 50))}`,
      );
      reportFigure({
        name: `invoice PDF, ${lines} lines, p50`,
        value: percentile(ours, 50),
        unit: 'ms',
        comparator: { name: 'pdfkit plain text', value: percentile(bare, 50) },
      });
      reportFigure({
        name: `invoice PDF, ${lines} lines, p99`,
        value: percentile(ours, 99),
        unit: 'ms',
        budget: { on: 'value', atMost: 200 },
      });
    }

    await worker.runUntil(async () => {
      const arrived = (invoiceNumber: string) => smtp.waitFor((m) => m.subject.startsWith(`Invoice ${invoiceNumber} `), 60_000);
      const now: number[] = [];
      for (let i = 0; i < DELIVERIES; i++) {
        const invoice = await s.draft(3);
        const started = performance.now();
        await sendInvoice(bench.db, temporal, s.teamId, invoice.id);
        await arrived(invoice.invoiceNumber);
        now.push(performance.now() - started);
      }
      const scheduled: number[] = [];
      for (let i = 0; i < DELIVERIES; i++) {
        const invoice = await s.draft(3);
        const sendAt = Date.now() + 1_000;
        await scheduleInvoice(bench.db, temporal, s.teamId, invoice.id, new Date(sendAt));
        await arrived(invoice.invoiceNumber);
        scheduled.push(Date.now() - sendAt);
      }
      console.log(`\nDelivery, ${DELIVERIES} invoices each, PDF attached`);
      console.log(`  send now: call → email received p50 ${ms(percentile(sorted(now), 50))}, p99 ${ms(percentile(sorted(now), 99))}`);
      console.log(
        `  scheduled: due time → email received p50 ${ms(percentile(sorted(scheduled), 50))}, p99 ${ms(percentile(sorted(scheduled), 99))}`,
      );
      reportFigure({ name: 'invoice sent now → email received p50', value: percentile(sorted(now), 50), unit: 'ms' });
      reportFigure({ name: 'invoice scheduled time → email received p50', value: percentile(sorted(scheduled), 50), unit: 'ms' });
    });
  } finally {
    await temporal.close();
    await connection.close();
    await closeActivityDeps(deps);
    await env.teardown();
    await smtp.close();
    await bench.close();
  }
}

runMain(main);
