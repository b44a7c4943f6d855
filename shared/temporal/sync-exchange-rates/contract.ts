import { workflowContract } from '../contract';

export interface SyncExchangeRatesResult {
  rates: number;
  latestDate: string;
}

export type SyncExchangeRatesWorkflow = () => Promise<SyncExchangeRatesResult>;

export const syncExchangeRatesContract = workflowContract<SyncExchangeRatesWorkflow>('syncExchangeRates');

/** The schedule's runs; the schedule adds the start time to it. */
export const SYNC_EXCHANGE_RATES_ID = 'sync-exchange-rates';
