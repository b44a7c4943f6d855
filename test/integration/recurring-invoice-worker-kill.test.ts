import { armInsertFault, type InsertFault } from '../support/insert-fault';
import type { ChildProcess } from 'node:child_process';
import { invoiceSeriesScheduleId, recurringInvoiceProgress } from '../../shared/temporal/invoice-series/contract';
import { postJsonAs, startTestApi, type TestApi } from '../support/api';
import { withTestDatabase } from '../support/database';
import { eventually } from '../support/eventually';
import { createTeamAndOwner } from '../support/fixtures';
import { isAlive, killHard, spawnTs } from '../support/processes';
import { uniqueTaskQueue } from '../support/worker';

let api: TestApi;
let invoiceFault: InsertFault;

const tdb = withTestDatabase({
  setUp: async () => {
    // No series invoice can be written, so issuing keeps being retried until the fault clears.
    invoiceFault = await armInsertFault(tdb.db, 'series_invoice', {
      table: 'invoice_line_items',
      message: 'invoice store unavailable (test fault)',
    });
  },
  tearDown: async () => {
    await api?.stop();
  },
});

describe('RecurringInvoice survives a worker killed mid-run', () => {
  it("killed while issuing a period's invoice, after restart issues it once", async () => {
    const shared = { TEMPORAL_TASK_QUEUE: uniqueTaskQueue('series-kill'), INVOICE_SERIES_INTERVAL: '1h' };
    const env = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: tdb.url, ...shared };
    api = await startTestApi(tdb.db, { env: shared });
    const owner = await createTeamAndOwner(tdb.db);
    const post = postJsonAs(api, owner.sessionToken);
    const customer = (await post('/customers', { name: 'Customer' })).data;

    let first: ChildProcess | undefined = spawnTs('worker/main.ts', { env, stdio: 'ignore' });
    let second: ChildProcess | undefined;
    try {
      // Starting today: the schedule runs the first period at once.
      const series = (
        await post('/invoice-series', {
          name: 'Retainer',
          customerId: customer.id,
          currency: 'EUR',
          lineItems: [{ name: 'Retainer', price: 1000 }],
          frequency: 'monthly',
          delivery: 'finalize',
        })
      ).data;
      const client = await api.deps.temporal.client();
      const schedule = client.schedule.getHandle(invoiceSeriesScheduleId(series.id));
      const workflowId = await (async () => {
        for (;;) {
          const action = (await schedule.describe()).info.recentActions.at(0)?.action;
          if (action) return action.workflow.workflowId;
          await new Promise((r) => setTimeout(r, 250));
        }
      })();
      const handle = client.workflow.getHandle(workflowId);
      await eventually(
        async () => ((await handle.describe()).raw.pendingActivities?.[0]?.attempt ?? 0) >= 2,
        60_000,
        'issuing to be retried',
      );
      expect(await handle.query(recurringInvoiceProgress)).toMatchObject({ stage: 'issuing', invoiceId: null });
      await killHard(first);
      expect(isAlive(first.pid!)).toBe(false);
      first = undefined;

      await invoiceFault.clear();
      second = spawnTs('worker/main.ts', { env, stdio: 'ignore' });
      const result = await handle.result();
      expect(result).toMatchObject({ stage: 'completed', skipped: null, ended: false });

      const invoices = await tdb.db('invoices').where({ seriesId: series.id });
      expect(invoices).toHaveLength(1);
      expect(invoices[0]).toMatchObject({ id: result.invoiceId, amount: 1000 });
      await eventually(
        async () => (await tdb.db('invoices').where({ id: result.invoiceId }).first()).status === 'unpaid',
        20_000,
        'issued',
      );
      expect(await tdb.db('invoice_series').where({ id: series.id }).first()).toMatchObject({ issuedCount: 1, status: 'active' });
    } finally {
      if (first) await killHard(first);
      if (second) await killHard(second);
    }
  }, 120_000);
});
