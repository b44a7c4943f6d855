/**
 * E-invoices: how long an issued invoice of 10 lines takes to come out as Factur-X (the PDF as PDF/A-3
 * with its CII inside), read from the database as the download reads it, beside the plain PDF of the
 * same invoice (the comparator: what Factur-X adds is the XML, the embedding and the metadata). The
 * UBL and CII downloads are timed too. Goal: Factur-X p99 under 150 ms.
 *
 * Incoming: a supplier's XRechnung of about 1 MB (some 2,500 lines, written by our own UBL writer)
 * read structurally as the inbox reads it, DTD check and totals check included. Goal: under 100 ms.
 *
 *   npx tsx bench/e-invoices.ts
 *   BENCH_DATABASE=finops_bench_mine …   (a database of your own on a server others bench on too)
 */
import { performance } from 'node:perf_hooks';
import type { Db } from '../shared/db/knex';
import { Invoice, Team } from '../shared/db/models';
import { invoiceEInvoice } from '../shared/domain/e-invoices/service';
import type { EInvoiceFormat } from '../shared/domain/e-invoices/document';
import { invoicePdfFile } from '../shared/domain/invoices/pdf';
import { createInvoice } from '../shared/domain/invoices/service';
import { createUserWithTeam } from '../shared/domain/teams/service';
import { benchDatabase } from './lib/database';
import { reportFigure } from './lib/figures';
import { ms, percentile } from './lib/latency';
import { runMain } from './lib/run-main';
import { readEInvoice } from '../shared/domain/e-invoices/incoming/read';
import { supplierUbl } from '../test/support/supplier-e-invoice';

const RUNS = Number(process.env.RENDERS ?? 200);
const PARSES = Number(process.env.PARSES ?? 50);

async function seed(db: Db) {
  const { team, user } = await createUserWithTeam(db, { email: `bench-e-invoices-${Date.now()}@example.com`, teamName: 'Bench GmbH' });
  await Team.query(db).findById(team.id).patch({
    countryCode: 'DE',
    email: 'billing@bench.example',
    addressLine1: 'Torstraße 1',
    city: 'Berlin',
    zip: '10119',
    vatNumber: 'DE123456789',
    phone: '+49 30 1234567',
    invoicePaymentDetails: 'IBAN DE89 3704 0044 0532 0130 00, BIC COBADEFFXXX',
  });
  const [customer] = await db('customers')
    .insert({
      teamId: team.id,
      name: 'Kunde AG',
      billingEmail: 'ap@kunde.example',
      addressLine_1: 'Hauptstraße 1',
      city: 'Hamburg',
      zip: '20095',
      countryCode: 'DE',
      vatNumber: 'DE987654321',
      buyerReference: '991-12345-67',
    })
    .returning<{ id: string }[]>('id');
  const invoice = await createInvoice(db, team.id, user.id, {
    currency: 'EUR',
    customerId: customer.id,
    issueDate: '2026-11-02',
    dueDate: '2026-12-02',
    lineItems: Array.from({ length: 10 }, (_, i) => ({
      name: `Consulting, week ${i + 1}`,
      quantity: 1 + (i % 5),
      price: 95.5 + i,
      vatRate: i % 4 ? 19 : 7,
    })),
  });
  // Issued in place: what is timed is the download of an issued invoice, not its lifecycle.
  await Invoice.query(db)
    .where({ teamId: team.id, id: invoice.id })
    .patch({ status: 'unpaid', invoiceNumber: `E-${Date.now()}` });
  return { teamId: team.id, invoiceId: invoice.id };
}

async function timed(runs: number, work: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 10; i++) await work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await work();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b);
}

async function main() {
  const bench = await benchDatabase(process.env.BENCH_DATABASE ?? 'finops_bench_e_invoices');
  try {
    const { teamId, invoiceId } = await seed(bench.db);
    const download = (format: EInvoiceFormat) => () => invoiceEInvoice(bench.db, teamId, invoiceId, format);
    const pdf = await timed(RUNS, () => invoicePdfFile(bench.db, teamId, invoiceId));
    const facturx = await timed(RUNS, download('facturx'));
    console.log(`Factur-X, 10 lines: p50 ${ms(percentile(facturx, 50))}, p99 ${ms(percentile(facturx, 99))}`);
    console.log(`plain PDF, 10 lines: p50 ${ms(percentile(pdf, 50))}, p99 ${ms(percentile(pdf, 99))}`);
    reportFigure({
      name: 'Factur-X, 10 lines, p50',
      value: percentile(facturx, 50),
      unit: 'ms',
      comparator: { name: 'the plain invoice PDF', value: percentile(pdf, 50) },
    });
    reportFigure({ name: 'Factur-X, 10 lines, p99', value: percentile(facturx, 99), unit: 'ms', budget: { on: 'value', atMost: 150 } });
    for (const format of ['ubl', 'cii'] as const) {
      const xml = await timed(RUNS, download(format));
      console.log(`${format}, 10 lines: p50 ${ms(percentile(xml, 50))}, p99 ${ms(percentile(xml, 99))}`);
      reportFigure({ name: `${format} XML, 10 lines, p99`, value: percentile(xml, 99), unit: 'ms' });
    }
  } finally {
    await bench.close();
  }
  await incoming();
}

/** A 1 MB incoming XRechnung, parsed and checked as `extractReceipt` does it. */
async function incoming() {
  const lines = Array.from({ length: 2600 }, (_, i) => ({
    name: `Spare part ${i + 1}, batch ${String(i).padStart(5, '0')}`,
    quantity: 1 + (i % 9),
    price: 3.5 + (i % 40),
    vatRate: i % 5 ? 19 : 7,
  }));
  const xml = Buffer.from(supplierUbl({ number: 'BIG-1', lines }), 'utf8');
  const read = await readEInvoice(xml, 'application/xml');
  if (read.kind !== 'read') throw new Error(`the bench's XRechnung was not read: ${JSON.stringify(read)}`);
  const times = await timed(PARSES, () => readEInvoice(xml, 'application/xml'));
  const size = `${(xml.length / 1_048_576).toFixed(2)} MB, ${lines.length} lines`;
  console.log(`incoming XRechnung (${size}): p50 ${ms(percentile(times, 50))}, p99 ${ms(percentile(times, 99))} (target < 100 ms)`);
  reportFigure({
    name: 'incoming XRechnung 1 MB parse, p50',
    value: percentile(times, 50),
    unit: 'ms',
    budget: { on: 'value', atMost: 100 },
  });
  reportFigure({
    name: 'incoming XRechnung 1 MB parse, p99',
    value: percentile(times, 99),
    unit: 'ms',
    budget: { on: 'value', atMost: 100 },
  });
}

runMain(main);
