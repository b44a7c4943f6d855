import { minorUnitsOf } from '../currencies/money';

/**
 * The arithmetic of splitting a transaction, exact: amounts are compared and divided as integers of
 * the ten-thousandths `numeric(19,4)` stores, never as floats, so parts that sum to the whole in the
 * database sum to it here, and a percentage split hands out every minor unit of the whole.
 */
const SCALE = 4;
const ONE = 10n ** BigInt(SCALE);
/** Percentages are scaled like amounts: 100 % is 100 × 10^4. */
const HUNDRED_PERCENT = 100n * ONE;

/** A JSON number as ten-thousandths (toFixed writes the decimal digits exactly, below 10^21). */
export function toScaled(value: number): bigint {
  return BigInt(value.toFixed(SCALE).replace('.', ''));
}

/** Ten-thousandths back to the nearest JSON number. */
export function fromScaled(value: bigint): number {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(SCALE + 1, '0');
  return Number(`${negative ? '-' : ''}${digits.slice(0, -SCALE)}.${digits.slice(-SCALE)}`);
}

/**
 * The smallest step a part of this whole may take, in ten-thousandths: the currency's minor unit
 * (0.01 EUR, 1 JPY, 0.001 BHD), or the finest step when the whole itself is written finer than that
 * (a bank that books in tenths of a cent), since parts on the coarser grid could never add up to it.
 */
export function stepOf(total: bigint, currency: string): bigint {
  const step = 10n ** BigInt(SCALE - Math.min(minorUnitsOf(currency), SCALE));
  return total % step === 0n ? step : 1n;
}

/**
 * Why these parts cannot split this whole, per part (`index` null for the sum), or an empty list:
 * every part must be money of the whole's sign (a purchase splits into expenses), in the currency's
 * minor units, and together they must make the whole exactly.
 */
export function splitProblems(total: number, currency: string, amounts: readonly number[]): { index: number | null; message: string }[] {
  const whole = toScaled(total);
  if (whole === 0n) return [{ index: null, message: 'a transaction of amount 0 cannot be split' }];
  const step = stepOf(whole, currency);
  const problems: { index: number | null; message: string }[] = [];
  let sum = 0n;
  amounts.forEach((amount, index) => {
    const part = toScaled(amount);
    sum += part;
    if (part === 0n || part < 0n !== whole < 0n) {
      problems.push({ index, message: `must be ${whole < 0n ? 'negative' : 'positive'}, as the transaction's amount is` });
    } else if (part % step !== 0n || Math.abs(amount - fromScaled(part)) > 1e-9 * Math.max(1, Math.abs(amount))) {
      problems.push({ index, message: `has more decimals than ${currency} has (${minorUnitsOf(currency)})` });
    }
  });
  if (sum !== whole) {
    problems.push({ index: null, message: `the parts sum to ${fromScaled(sum)} ${currency}, not the transaction's ${total} ${currency}` });
  }
  return problems;
}

/**
 * The whole divided by percentages that add to 100 (each > 0, up to 4 decimals), each part rounded
 * down to the currency's minor unit and the units left over handed one each to the parts that lost
 * the most to rounding (the earlier on a tie), so the parts sum to the whole exactly. Null when the
 * percentages do not add to 100 or a part would come to nothing (0.01 EUR in three).
 */
export function splitByPercentages(total: number, currency: string, percentages: readonly number[]): number[] | null {
  const scaled = percentages.map(toScaled);
  if (scaled.some((p) => p <= 0n) || scaled.reduce((a, b) => a + b, 0n) !== HUNDRED_PERCENT) return null;
  const whole = toScaled(total);
  const sign = whole < 0n ? -1n : 1n;
  const step = stepOf(whole, currency);
  const units = (whole * sign) / step;
  const shares = scaled.map((p, index) => ({ index, base: (units * p) / HUNDRED_PERCENT, lost: (units * p) % HUNDRED_PERCENT }));
  let left = units - shares.reduce((a, s) => a + s.base, 0n);
  const byLoss = [...shares].sort((a, b) => (a.lost === b.lost ? a.index - b.index : a.lost > b.lost ? -1 : 1));
  for (const share of byLoss) {
    if (left === 0n) break;
    share.base += 1n;
    left -= 1n;
  }
  if (shares.some((s) => s.base === 0n)) return null;
  return shares.map((s) => fromScaled(s.base * step * sign));
}

/**
 * Fixed parts (absolute amounts, taking the whole's sign) and, when `remainder`, what is left of the
 * whole as a last part (left out when nothing is left). Null when they do not fit: more than the
 * whole, finer than the currency's minor unit, short of the whole without a remainder, or fewer than
 * two parts in all.
 */
export function splitByAmounts(total: number, currency: string, amounts: readonly number[], remainder: boolean): number[] | null {
  const whole = toScaled(total);
  if (whole === 0n) return null;
  const sign = whole < 0n ? -1n : 1n;
  const step = stepOf(whole, currency);
  const parts = amounts.map(toScaled);
  if (parts.some((p) => p <= 0n || p % step !== 0n)) return null;
  const rest = whole * sign - parts.reduce((a, b) => a + b, 0n);
  if (rest < 0n || (rest > 0n && !remainder)) return null;
  if (rest > 0n) parts.push(rest);
  if (parts.length < 2) return null;
  return parts.map((p) => fromScaled(p * sign));
}
