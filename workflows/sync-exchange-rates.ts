import { proxyActivities } from '@temporalio/workflow';
import type { ExchangeRateActivities } from '../activities/exchange-rates/sync';
import type { SyncExchangeRatesWorkflow } from '../shared/temporal/sync-exchange-rates/contract';

const { syncExchangeRates: fetchAndStore } = proxyActivities<ExchangeRateActivities>({
  startToCloseTimeout: '1m',
  // The source may be down for a while; the rates are only needed by the next day's receipts.
  scheduleToCloseTimeout: '6h',
  retry: { initialInterval: '10s', backoffCoefficient: 2, maximumInterval: '15m' },
});

/** SyncExchangeRates: run daily by the `exchange-rates-daily` schedule (and once when the schedule is created). */
export const syncExchangeRates: SyncExchangeRatesWorkflow = async () => fetchAndStore();
