import { startEcbFake } from '../fakes/ecb';
import { testConfig } from '../support/api';
import { withTestDatabase } from '../support/database';
import { startTestWorker, uniqueTaskQueue, type TestWorker } from '../support/worker';
import { convert, ratesOn } from '../../shared/domain/exchange-rates/service';
import { createEcbRatesClient } from '../../shared/providers/exchange-rates';
import { ensureExchangeRateSchedule } from '../../shared/temporal/schedules';
import { syncExchangeRatesContract, type SyncExchangeRatesWorkflow } from '../../shared/temporal/sync-exchange-rates/contract';

let worker: TestWorker;
let ecb: Awaited<ReturnType<typeof startEcbFake>>;

const tdb = withTestDatabase({
  setUp: async () => {
    ecb = await startEcbFake({ '2026-11-19': { USD: 1.05, GBP: 0.83 }, '2026-11-20': { USD: 1.0512, GBP: 0.8321, JPY: 162.3 } });
    worker = await startTestWorker(testConfig({ FX_RATES_URL: ecb.url, TEMPORAL_TASK_QUEUE: uniqueTaskQueue('fx') }), tdb.db);
  },
  tearDown: async () => {
    await worker?.stop();
    await ecb?.close();
  },
});

describe('exchange rates', () => {
  it('reads the ECB document, and refuses an error page or a document without rates', async () => {
    const client = createEcbRatesClient({ url: ecb.url });
    expect(await client.fetchRates()).toEqual(
      expect.arrayContaining([
        { date: '2026-11-20', currency: 'JPY', rate: 162.3 },
        { date: '2026-11-19', currency: 'USD', rate: 1.05 },
      ]),
    );
    ecb.state.status = 503;
    await expect(client.fetchRates()).rejects.toThrow('exchange rates answered 503');
    ecb.state.status = 200;
    const saved = ecb.state.days;
    ecb.state.days = {};
    await expect(client.fetchRates()).rejects.toThrow('holds no rates');
    ecb.state.days = saved;
  });

  it('SyncExchangeRates stores the rates on the real server, and a rerun corrects rather than duplicates', async () => {
    const run = () =>
      worker.client.workflow.execute<SyncExchangeRatesWorkflow>(syncExchangeRatesContract.workflowType, {
        taskQueue: worker.taskQueue,
        workflowId: `sync-exchange-rates-${Date.now()}`,
      });
    expect(await run()).toEqual({ rates: 5, latestDate: '2026-11-20' });
    ecb.state.days = { ...ecb.state.days, '2026-11-20': { USD: 1.06, GBP: 0.8321, JPY: 162.3 } };
    await run();
    expect(await tdb.db('exchange_rates').count('* as n').first()).toEqual({ n: 5 });
    const rates = await ratesOn(tdb.db, '2026-11-22'); // a Sunday: Friday's rates apply
    expect(rates.get('USD')).toBe(1.06);
    expect(convert(106, 'USD', 'EUR', rates)).toBeCloseTo(100, 6);
    expect(convert(100, 'USD', 'GBP', rates)).toBeCloseTo((100 / 1.06) * 0.8321, 6);
    expect(convert(100, 'USD', 'CHF', rates)).toBeNull();
    expect((await ratesOn(tdb.db, '2026-12-31')).has('USD')).toBe(false); // too old to trust for that day
  });

  it('keeps a daily schedule that runs at once when created and is updated, not duplicated, on the next start', async () => {
    const before = ecb.state.requests;
    const scheduleId = `exchange-rates-daily-${worker.taskQueue}`; // the dev server is shared by the whole suite
    expect(await ensureExchangeRateSchedule(worker.client, worker.taskQueue, scheduleId)).toBe('created');
    const handle = worker.client.schedule.getHandle(scheduleId);
    try {
      const deadline = Date.now() + 20_000;
      while (ecb.state.requests === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(ecb.state.requests).toBeGreaterThan(before); // the immediate first run fetched the rates
      // A later start on another task queue moves the schedule there rather than adding a second one.
      expect(await ensureExchangeRateSchedule(worker.client, `${worker.taskQueue}-moved`, scheduleId)).toBe('updated');
      expect((await handle.describe()).action).toMatchObject({ taskQueue: `${worker.taskQueue}-moved` });
      await ensureExchangeRateSchedule(worker.client, worker.taskQueue, scheduleId);
      const desc = await handle.describe();
      expect(desc.spec.calendars).toEqual([
        expect.objectContaining({ hour: [{ start: 15, end: 15, step: 1 }], minute: [{ start: 30, end: 30, step: 1 }] }),
      ]);
      expect(desc.action).toMatchObject({
        type: 'startWorkflow',
        workflowType: syncExchangeRatesContract.workflowType,
        taskQueue: worker.taskQueue,
      });
      expect(desc.policies.overlap).toBe('SKIP');
    } finally {
      await handle.delete();
    }
  });
});
