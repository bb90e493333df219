import t from 'tap';
import { computeTokenScores, DEFAULT_SCORE_CONFIG, SCORE_METRICS, type ScoreInput } from '../../src/index.js';

const token = (over: Partial<ScoreInput> = {}): ScoreInput => ({
  amms: 1,
  trustlines: 5000,
  holdingWallets: 2000,
  totalSupply: 1e6,
  price: 0.5,
  marketCap: 5e5,
  ...over,
});
/** Scores are sums of floating-point terms: compare to 1e-12. */
const close = (
  t: { ok: (value: boolean, message: string) => void },
  actual: number | undefined,
  expected: number,
  message: string,
): void => {
  t.ok(Math.abs((actual ?? NaN) - expected) < 1e-12, `${message}: ${actual} ≈ ${expected}`);
};

t.test('the default weights sum to 1 and holdingWallets weighs 0.4 as the spec says', async (t) => {
  close(
    t,
    SCORE_METRICS.reduce((s, m) => s + DEFAULT_SCORE_CONFIG.weights[m], 0),
    1,
    'sum',
  );
  t.equal(DEFAULT_SCORE_CONFIG.weights.holdingWallets, 0.4);
});

t.test('every metric equal across tokens: each normalised value is 0.5, so the score is 0.5', async (t) => {
  const scores = computeTokenScores([token(), token(), token()]);
  for (const s of scores) close(t, s, 0.5, 'all equal');
  close(t, computeTokenScores([token()])[0], 0.5, 'a single token');
});

t.test(
  'zero values go through the epsilon, not -Infinity; the lowest normalises to 0 and the highest to 1',
  async (t) => {
    const zero = token({ amms: 0, trustlines: 0, holdingWallets: 1000, totalSupply: 0, price: 0, marketCap: 0 });
    const top = token({ amms: 10, trustlines: 1e5, holdingWallets: 1e5, totalSupply: 1e9, price: 100, marketCap: 1e9 });
    const [low, high] = computeTokenScores([zero, top]);
    t.ok(Number.isFinite(low) && Number.isFinite(high));
    // holdingWallets of `zero` is the column minimum (0) and no penalty applies at exactly 1000.
    close(t, low, 0, 'all minimums');
    close(t, high, 1, 'all maximums');
  },
);

t.test('the centralisation penalty alone', async (t) => {
  // Three tokens differing only in holders: 250, 1000 and 4000 (log10 evenly spaced: 0, 0.5, 1).
  const [few, edge, many] = computeTokenScores([
    token({ holdingWallets: 250 }),
    token({ holdingWallets: 1000 }),
    token({ holdingWallets: 4000 }),
  ]);
  const rest = 0.6 * 0.5; // the five other metrics are equal: 0.5 each
  close(t, many, rest + 0.4 * 1, 'no penalty above the threshold');
  close(t, edge, rest + 0.4 * 0.5, 'no penalty at exactly the threshold');
  close(t, few, rest + 0 - 0.3 * (1 - 250 / 1000), 'max × (1 − holders / threshold)');
});

t.test('the high market cap penalty alone', async (t) => {
  const [small, big] = computeTokenScores([token({ marketCap: 1e9 }), token({ marketCap: 1e11 })]);
  const base = (mc: number): number => 0.8 * 0.5 + 0.2 * mc;
  close(t, small, base(0), 'at or under the threshold: none');
  close(t, big, base(1) * (1 - 0.4), '40 % of the base score above 10,000,000,000');
});

t.test('both penalties together, and the floor at 0', async (t) => {
  const config = { ...DEFAULT_SCORE_CONFIG, maxCentralizationPenalty: 0.3 };
  const [both, other] = computeTokenScores(
    [token({ holdingWallets: 800, marketCap: 2e10 }), token({ holdingWallets: 800, marketCap: 2e10, amms: 50 })],
    config,
  );
  const base = 0.9 * 0.5 + 0.1 * 0; // amms is the column minimum for the first token
  close(t, both, base - 0.3 * (1 - 800 / 1000) - 0.4 * base, 'base − centralisation − market cap');
  t.ok((both ?? 0) > 0, 'above the floor, so both penalties show');
  t.ok((other ?? 0) > (both ?? 0));
  const harsh = { ...DEFAULT_SCORE_CONFIG, maxCentralizationPenalty: 5 };
  const floored = computeTokenScores([token({ holdingWallets: 1 }), token({ holdingWallets: 2 })], harsh);
  t.same(floored, [0, 0], 'never below 0');
});
