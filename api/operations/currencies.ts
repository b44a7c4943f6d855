import { currencySchema } from '../../shared/domain/currencies/schema';
import { listCurrencies } from '../../shared/domain/currencies/service';
import { all, query } from './declare';

export const currencies = [
  // Reference data, the same for every team; money fields are read with `transactions.read`, so it asks for that.
  query('currencies.get', 'GET /currencies', ['transactions.read'], {
    summary: 'List currencies',
    description:
      'Every ISO 4217 currency in use, by code, with its minor units: the decimal digits an amount in it is written with (not paginated).',
    output: all(currencySchema),
    run: () => listCurrencies(),
  }),
];
