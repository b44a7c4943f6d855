import { z } from 'zod';

/**
 * Money as every write path takes it: a JSON number whose magnitude fits numeric(19,4) (below 10^15).
 * Larger values, NaN and infinities are 400s, never a database error.
 */
export const MONEY_LIMIT = 1e15;

export const moneyAmount = z
  .number()
  .refine((n) => Math.abs(n) < MONEY_LIMIT, 'must be below 10^15 in magnitude')
  .meta({ description: 'Signed amount: negative is an expense, positive is income.', example: -42.5 });
