import BigNumber from 'bignumber.js';

/**
 * Exact sums of token amounts by the engine's own aggregations. An issued amount has at most 16
 * significant digits (rippled's STAmount: a mantissa in [10^15, 10^16) and an exponent in
 * [-96, 80], https://xrpl.org/docs/references/protocol/binary-format#token-amount-format), so a
 * positive amount is m × 10^e with that normalised m; m is stored as two integers below 10^8
 * (`hi` = ⌊m / 10^8⌋, `lo` = m mod 10^8) beside e. The engine sums integers in doubles, exactly
 * while every partial sum stays below 2^53: 10^8 per line leaves room for 90 million lines per
 * exponent. Summing `hi` and `lo` per exponent and recombining them in decimal gives the exact sum
 * that a sum of doubles of the values only approaches.
 */
export interface AmountParts {
  /** Exponent of the normalised mantissa. */
  e: number;
  hi: number;
  lo: number;
}

const SPLIT = 1e8;
const MANTISSA_DIGITS = 16;

/** The parts of a positive decimal of at most 16 significant digits; undefined for 0, a negative or a wider value. */
export function amountParts(value: string | BigNumber): AmountParts | undefined {
  const amount = BigNumber.isBigNumber(value) ? value : new BigNumber(value);
  if (!amount.isFinite() || !amount.gt(0)) return undefined;
  const digits = amount.precision();
  if (digits > MANTISSA_DIGITS) return undefined;
  // amount.e is the exponent of its first digit: m = amount × 10^(15 − amount.e).
  const e = (amount.e ?? 0) - (MANTISSA_DIGITS - 1);
  // At most 16 digits from 10^(e+15) down: an integer below 10^16.
  const mantissa = amount.shiftedBy(-e);
  const hi = mantissa.dividedToIntegerBy(SPLIT).toNumber();
  const lo = mantissa.modulo(SPLIT).toNumber();
  return { e, hi, lo };
}

/** Summed parts of one exponent, as an aggregation bucket gives them (sums of `hi` and of `lo`). */
export type PartSums = AmountParts;

/** The exact decimal sum of amounts from their per-exponent sums. */
export function sumOfParts(sums: Iterable<PartSums>): BigNumber {
  let total = new BigNumber(0);
  for (const { e, hi, lo } of sums) {
    if (!Number.isSafeInteger(hi) || !Number.isSafeInteger(lo))
      throw new RangeError(`a partial sum beyond 2^53 at exponent ${e}: the engine's double lost digits`);
    total = total.plus(new BigNumber(hi).times(SPLIT).plus(lo).shiftedBy(e));
  }
  return total;
}

/** Exponents one token's holdings span at most (rippled's exponent range is 177 wide). */
const EXPONENTS = 180;

/**
 * The sub-aggregations that sum a set of trust lines' holdings exactly (over the `_holding_e`,
 * `_holding_hi`, `_holding_lo` fields trustLineFields writes); `holdingSumOf` reads their result.
 */
export const HOLDING_SUM_AGGS = {
  exponents: {
    terms: { field: '_holding_e', size: EXPONENTS },
    aggs: { hi: { sum: { field: '_holding_hi' } }, lo: { sum: { field: '_holding_lo' } } },
  },
} as const;

interface ExponentBucket {
  key: number;
  hi: { value: number };
  lo: { value: number };
}

/** The exact sum from a bucket holding HOLDING_SUM_AGGS' result. */
export function holdingSumOf(bucket: unknown): BigNumber {
  const exponents = (bucket as { exponents?: { buckets?: ExponentBucket[] } } | undefined)?.exponents?.buckets ?? [];
  return sumOfParts(exponents.map((b) => ({ e: Number(b.key), hi: b.hi.value, lo: b.lo.value })));
}
