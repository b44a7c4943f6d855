import { CURRENCIES } from './iso-4217';
import type { CurrencyDto } from './schema';

/** Every ISO 4217 currency in use, by code. Reference data: the same for every team, read from no table. */
export function listCurrencies(): Promise<CurrencyDto[]> {
  return Promise.resolve(CURRENCIES.map((c) => ({ ...c })));
}
