import { z } from 'zod';
import { currencyCode } from '../common/currency';

export const currencySchema = z
  .object({
    code: currencyCode,
    name: z.string().meta({ description: 'English name.', example: 'Euro' }),
    minorUnits: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'Decimal digits an amount in this currency is written with: 2 for EUR, 0 for JPY, 3 for KWD.', example: 2 }),
  })
  .meta({ id: 'Currency', description: 'An ISO 4217 currency and its minor units, for formatting money.' });

export type CurrencyDto = z.infer<typeof currencySchema>;
