import { upsertRates } from '../../shared/domain/exchange-rates/service';
import type { ActivityDeps } from '../deps';

export function exchangeRateActivities({ db, exchangeRates, config }: ActivityDeps) {
  return {
    /** Fetches the reference rates and stores them; running it twice stores the same rows. */
    async syncExchangeRates(): Promise<{ rates: number; latestDate: string }> {
      const rates = await exchangeRates.fetchRates();
      const stored = await upsertRates(db, rates, new URL(config.FX_RATES_URL).host);
      return { rates: stored, latestDate: rates.reduce((d, r) => (r.date > d ? r.date : d), '') };
    },
  };
}

export type ExchangeRateActivities = ReturnType<typeof exchangeRateActivities>;
