import { validationError } from '../../../errors';
import { currencyCode } from '../../common/currency';
import { reportQuery, type ReportQuery } from '../../reports/schema';
import type { Period } from '../period';
import { periodInput, periodOf } from './define';

/** What every report tool takes: a range and, optionally, a currency. */
export const reportInput = {
  ...periodInput,
  currency: currencyCode.optional().meta({ description: "ISO 4217. Default: the team's base currency, else its most used one." }),
};

/** The report query for a tool's input, validated as the REST report endpoints validate theirs. */
export function reportQueryOf(
  input: { from?: string; to?: string; currency?: string },
  today: string,
  fallback?: Period,
): ReportQuery & { label: string } {
  const period = periodOf(input, today, fallback);
  const parsed = reportQuery.safeParse({ from: period.from, to: period.to, currency: input.currency });
  if (!parsed.success) throw validationError(parsed.error, 'period');
  return { ...parsed.data, label: period.label };
}
