/**
 * The token `score` of the spec's "Token score" section, computed over the whole token set.
 * The spec fixes the holdingWallets weight (0.4), the epsilon, both thresholds and both penalty
 * sizes; the other five weights are ours, chosen so the weights sum to 1 and overridable.
 */
export const SCORE_METRICS = ['amms', 'trustlines', 'holdingWallets', 'totalSupply', 'price', 'marketCap'] as const;
export type ScoreMetric = (typeof SCORE_METRICS)[number];
export type ScoreInput = Record<ScoreMetric, number>;

export interface ScoreConfig {
  weights: Record<ScoreMetric, number>;
  /** Added before log10 so a zero does not become -Infinity. */
  epsilon: number;
  centralizationThreshold: number;
  maxCentralizationPenalty: number;
  highMarketCapThreshold: number;
  highMarketCapPenaltyPercentage: number;
}

export const DEFAULT_SCORE_CONFIG: ScoreConfig = {
  weights: { amms: 0.1, trustlines: 0.15, holdingWallets: 0.4, totalSupply: 0.05, price: 0.1, marketCap: 0.2 },
  epsilon: 1e-9,
  centralizationThreshold: 1000,
  maxCentralizationPenalty: 0.3,
  highMarketCapThreshold: 10_000_000_000,
  highMarketCapPenaltyPercentage: 0.4,
};

/**
 * Scores in input order (pure):
 * 1. each metric → log10(value + epsilon);
 * 2. min-max normalised over all tokens, 0.5 when every token has the same value;
 * 3. baseScore = Σ weight × normalised value;
 * 4. centralisation penalty below the holder threshold: max × (1 − holders / threshold);
 * 5. high market cap penalty above the threshold: percentage × baseScore;
 * 6. score = baseScore − both penalties, floored at 0.
 */
export function computeTokenScores(
  tokens: readonly ScoreInput[],
  config: ScoreConfig = DEFAULT_SCORE_CONFIG,
): number[] {
  const logs = tokens.map((t) => SCORE_METRICS.map((m) => Math.log10(Math.max(0, t[m]) + config.epsilon)));
  const ranges = SCORE_METRICS.map((_, i) => {
    const column = logs.map((row) => row[i] as number);
    return { min: Math.min(...column), max: Math.max(...column) };
  });
  return tokens.map((token, row) => {
    const base = SCORE_METRICS.reduce((sum, metric, i) => {
      const { min, max } = ranges[i] as { min: number; max: number };
      const value = logs[row]?.[i] as number;
      const normalised = max === min ? 0.5 : (value - min) / (max - min);
      return sum + config.weights[metric] * normalised;
    }, 0);
    const centralization =
      token.holdingWallets < config.centralizationThreshold
        ? config.maxCentralizationPenalty * (1 - token.holdingWallets / config.centralizationThreshold)
        : 0;
    const highMarketCap =
      token.marketCap > config.highMarketCapThreshold ? config.highMarketCapPenaltyPercentage * base : 0;
    return Math.max(0, base - centralization - highMarketCap);
  });
}
