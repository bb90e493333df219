import t, { type Test } from 'tap';
import { errors } from '@elastic/elasticsearch';
import {
  applyCommandFor,
  compareLayout,
  composeTemplates,
  configuredLayout,
  judgeLayout,
  LayoutError,
  layoutReadOutcome,
  loadTemplateSet,
  misfitRanges,
  nextLayout,
  planLayout,
  type Config,
  type ConfiguredLayout,
  type LayoutRecord,
} from '../../src/index.js';

const naming = { prefix: 'xrpl', network: 'mainnet', rangeLedgers: 12345 } as const;
const recorded: LayoutRecord = { generation: 1, rangeLedgers: 1_000_000, shards: 1, stateShards: 1, replicas: 'auto' };
const same: ConfiguredLayout = { rangeLedgers: 1_000_000, shards: 1, stateShards: 1, replicas: 'auto' };

/** The LayoutError a call throws (fails the test when it throws none or another error). */
function refusal(t: Test, call: () => unknown): LayoutError | undefined {
  try {
    call();
  } catch (error) {
    if (error instanceof LayoutError) return error;
    t.fail(`threw ${String(error)}`);
    return undefined;
  }
  t.fail('did not refuse');
  return undefined;
}

t.test('the configured layout: replicas unset are auto', async (t) => {
  const es = { rangeLedgers: 5000, shards: 3, stateShards: 2 } as Config['es'];
  t.same(configuredLayout({ es }), { rangeLedgers: 5000, shards: 3, stateShards: 2, replicas: 'auto' });
  t.same(configuredLayout({ es: { ...es, replicas: 0 } }).replicas, 0);
});

t.test('compareLayout: the same layout differs in nothing, for every role', async (t) => {
  for (const role of ['serve', 'ingest', 'apply'] as const) t.same(compareLayout(recorded, same, role), [], role);
});

t.test('compareLayout: a range size refuses every role; a shape refuses only the ingester', async (t) => {
  const range = { ...same, rangeLedgers: 12345 };
  for (const role of ['serve', 'ingest', 'apply'] as const)
    t.same(
      compareLayout(recorded, range, role),
      [{ variable: 'ES_RANGE_LEDGERS', configured: 12345, recorded: 1_000_000, refuses: true }],
      role,
    );
  const shape: ConfiguredLayout = { ...same, shards: 3, stateShards: 2, replicas: 1 };
  const differences = (role: 'serve' | 'ingest' | 'apply') =>
    compareLayout(recorded, shape, role).map((d) => [d.variable, d.configured, d.recorded, d.refuses]);
  t.same(differences('serve'), [
    ['ES_SHARDS', 3, 1, false],
    ['ES_STATE_SHARDS', 2, 1, false],
    ['ES_REPLICAS', 1, 'auto', false],
  ]);
  t.same(differences('apply'), [
    ['ES_SHARDS', 3, 1, false],
    ['ES_STATE_SHARDS', 2, 1, false],
    ['ES_REPLICAS', 1, 'auto', false],
  ]);
  t.same(differences('ingest'), [
    ['ES_SHARDS', 3, 1, true],
    ['ES_STATE_SHARDS', 2, 1, true],
    ['ES_REPLICAS', 1, 'auto', true],
  ]);
});

t.test('judgeLayout: a different range size names the variable and both values', async (t) => {
  const error = refusal(t, () =>
    judgeLayout({ state: 'recorded', layout: recorded }, naming, { ...same, rangeLedgers: 12345 }, 'serve'),
  );
  t.equal(error?.code, 'LAYOUT_MISMATCH');
  t.equal(error?.exitCode, 78);
  t.match(
    error?.message,
    "ES_RANGE_LEDGERS is 12345 but the cluster's xrpl-mainnet indices were laid out with 1000000 ledgers per range " +
      '(pnpm ingest ranges shows the layout)',
  );
});

t.test('judgeLayout: a different shape is a warning for a server, a refusal for the ingester', async (t) => {
  const shape = { ...same, shards: 3 };
  const served = judgeLayout({ state: 'recorded', layout: recorded }, naming, shape, 'serve');
  t.same(served.layout, recorded);
  t.equal(served.warnings.length, 1);
  t.match(served.warnings[0], /^ES_SHARDS is 3 but the cluster's xrpl-mainnet indices are laid out with 1 primary/);
  const error = refusal(t, () => judgeLayout({ state: 'recorded', layout: recorded }, naming, shape, 'ingest'));
  t.match(error?.message, /ES_SHARDS is 3 .* 1 primary shard\(s\) per range index \(layout generation 1\)/);
  t.match(error?.message, /pnpm templates apply/);
  t.same(judgeLayout({ state: 'recorded', layout: recorded }, naming, same, 'ingest').warnings, []);
});

t.test('judgeLayout: no layout names the command that creates it, with the network', async (t) => {
  const testnet = { prefix: 'xrpl', network: 'testnet' } as const;
  const missing = refusal(t, () => judgeLayout({ state: 'missing' }, testnet, same, 'serve'));
  t.equal(missing?.code, 'LAYOUT_MISSING');
  t.match(missing?.message, /no xrpl-testnet indices/);
  t.match(missing?.message, '`XLE_NETWORK=testnet pnpm templates apply`');
  const unrecorded = refusal(t, () => judgeLayout({ state: 'unrecorded' }, testnet, same, 'serve'));
  t.match(unrecorded?.message, /record no index layout.*XLE_NETWORK=testnet pnpm templates apply/);
  t.equal(
    applyCommandFor({ prefix: 'test-1a2b', network: 'mainnet' }),
    'ES_INDEX_PREFIX=test-1a2b XLE_NETWORK=mainnet pnpm templates apply',
  );
});

t.test('planLayout: what applying the templates records', async (t) => {
  t.same(planLayout({ state: 'missing' }, naming, same, 'apply'), { generation: 1, ...same }, 'a fresh cluster');
  t.same(planLayout({ state: 'missing' }, naming, same, 'ingest'), { generation: 1, ...same }, 'the ingester too');
  t.same(planLayout({ state: 'unrecorded' }, naming, same, 'apply'), { generation: 1, ...same }, 'older templates');
  t.equal(planLayout({ state: 'recorded', layout: recorded }, naming, same, 'apply'), recorded, 'unchanged');
  t.same(
    planLayout({ state: 'recorded', layout: recorded }, naming, { ...same, shards: 3 }, 'apply'),
    { ...recorded, shards: 3, generation: 2 },
    'another shape of new indices: the next generation',
  );
  const range = refusal(t, () =>
    planLayout({ state: 'recorded', layout: recorded }, naming, { ...same, rangeLedgers: 12345, shards: 3 }, 'apply'),
  );
  t.match(range?.message, /^ES_RANGE_LEDGERS is 12345 .* 1000000 ledgers per range/);
  t.notMatch(range?.message, /ES_SHARDS/, 'only the refusing difference is said');
  refusal(t, () => planLayout({ state: 'recorded', layout: recorded }, naming, { ...same, shards: 3 }, 'ingest'));
  t.same(nextLayout(recorded, same), recorded);
});

t.test('misfitRanges: ranges that do not start at a multiple of the size', async (t) => {
  const indices = [
    'xrpl-mainnet-ledgers-0000000000-g1',
    'xrpl-mainnet-ledgers-0094000000-g2',
    'xrpl-mainnet-ledgers-0094500000-g1',
  ];
  t.same(misfitRanges(indices, 500_000), []);
  t.same(misfitRanges(indices, 1_000_000), ['xrpl-mainnet-ledgers-0094500000-g1']);
});

t.test('the index templates carry the recorded layout, and their hash sees it', async (t) => {
  const set = loadTemplateSet();
  const without = composeTemplates(set, naming);
  const withRecord = composeTemplates(set, naming, undefined, recorded);
  const next = composeTemplates(set, naming, undefined, { ...recorded, generation: 2 });
  for (const [i, composed] of withRecord.indices.entries()) {
    t.same((composed.body._meta as { layout?: unknown }).layout, recorded, composed.kind);
    t.equal(composed.hash, without.indices[i]?.hash, 'the mappings hash (recorded in indices) does not change');
    t.not(composed.bodyHash, next.indices[i]?.bodyHash, 'a new generation puts the template again');
  }
});

t.test('a failed layout read at start: refuse, run unchecked, or ask again', async (t) => {
  t.equal(layoutReadOutcome(new LayoutError('LAYOUT_MISSING', 'none')), 'refuse');
  const answer = (statusCode: number) =>
    new errors.ResponseError({ statusCode, body: {}, headers: {}, warnings: null, meta: {} as never });
  t.equal(layoutReadOutcome(answer(403)), 'unchecked');
  t.equal(layoutReadOutcome(answer(401)), 'unchecked');
  t.equal(layoutReadOutcome(answer(503)), 'retry');
  t.equal(layoutReadOutcome(new errors.ConnectionError('refused')), 'retry');
  t.equal(layoutReadOutcome(new errors.TimeoutError('slow')), 'retry');
});
