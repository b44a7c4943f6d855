import { z } from 'zod';

/** An ISO 4217 currency code in upper case, as every money field in the API carries. */
export const currencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/, 'ISO 4217, upper case')
  .meta({ description: 'ISO 4217 code, upper case.', example: 'EUR' });
