import t from 'tap';
import {
  composeTemplates,
  contentHash,
  DEFAULT_LAYOUT,
  INDEX_KINDS,
  indexName,
  layoutOf,
  loadTemplateSet,
  RANGED_KINDS,
  rangeAlias,
  rangeIndexName,
  rangeStart,
  type Config,
  type IndexLayout,
} from '../../src/index.js';

type Json = Record<string, unknown>;

const set = loadTemplateSet();
const naming = { prefix: 'xrpl', network: 'mainnet' } as const;

t.test('there is one index template per document kind', async (t) => {
  t.same([...set.indices.keys()].sort(), [...INDEX_KINDS].sort());
});

t.test('composed names, patterns and components for a prefix and network', async (t) => {
  const composed = composeTemplates(set, naming);
  const tx = composed.indices.find((i) => i.kind === 'transactions');
  t.ok(tx);
  t.equal(tx?.name, 'xrpl-mainnet-transactions');
  // A ranged kind's own name is its read alias: only its range indices match the template.
  t.same(tx?.body.index_patterns, ['xrpl-mainnet-transactions-*']);
  const tokens = composed.indices.find((i) => i.kind === 'tokens');
  t.same(tokens?.body.index_patterns, ['xrpl-mainnet-tokens', 'xrpl-mainnet-tokens-*']);
  t.same(tx?.body.composed_of, ['xrpl-settings', 'xrpl-fields', 'xrpl-amount']);
  const testnet = composeTemplates(set, { prefix: 'xrpl', network: 'testnet' });
  t.equal(
    testnet.indices.find((i) => i.kind === 'transactions')?.index,
    indexName({ prefix: 'xrpl', network: 'testnet' }, 'transactions'),
  );
  t.matchSnapshot(
    composed.indices.map((i) => ({ name: i.name, hash: i.hash })),
    'template hashes change only when content does',
  );
});

t.test('shards and replicas come from the layout: ranges, state, and one shard for the rest', async (t) => {
  const settingsOf = (layout: IndexLayout, kind: string) =>
    (composeTemplates(set, naming, layout).indices.find((i) => i.kind === kind)?.body.template as Json).settings;
  const spread = layoutOf({ es: { shards: 3, stateShards: 2, replicas: 1 } as Config['es'] });
  t.same(spread, { shards: 3, stateShards: 2, replicas: 1 });
  for (const kind of RANGED_KINDS)
    t.match(
      settingsOf(spread, kind),
      { index: { number_of_shards: 3, number_of_replicas: 1, auto_expand_replicas: false } },
      kind,
    );
  for (const kind of ['objects', 'accounts'])
    t.match(settingsOf(spread, kind), { index: { number_of_shards: 2, number_of_replicas: 1 } }, kind);
  for (const kind of ['tokens', 'names', 'ingest-state'])
    t.match(settingsOf(spread, kind), { index: { number_of_shards: 1, number_of_replicas: 1 } }, kind);
  // Replicas unset: none on one node, one as soon as a second node joins.
  const auto = layoutOf({ es: { shards: 1, stateShards: 1 } as Config['es'] });
  t.same(auto, DEFAULT_LAYOUT);
  t.match(settingsOf(auto, 'transactions'), { index: { number_of_shards: 1, auto_expand_replicas: '0-1' } });
  t.notOk('number_of_replicas' in (settingsOf(auto, 'transactions') as { index: Json }).index);
});

t.test('range names: a fixed ledger range per index, ten-digit starts, generations', async (t) => {
  const ranged = { ...naming, rangeLedgers: 1_000_000 };
  t.equal(rangeStart(ranged, 94_084_608), 94_000_000);
  t.equal(rangeStart(ranged, 999_999), 0);
  t.equal(rangeAlias(ranged, 'transactions', 94_084_608), 'xrpl-mainnet-transactions-0094000000');
  t.equal(rangeAlias(ranged, 'ledgers', 1_000_000), 'xrpl-mainnet-ledgers-0001000000');
  t.equal(rangeIndexName(rangeAlias(ranged, 'validations', 5)), 'xrpl-mainnet-validations-0000000000-g1');
  t.equal(rangeIndexName('a-0000000000', 2), 'a-0000000000-g2');
  // Lexical order of the range names is ledger order (as far as 9,999,999,999).
  t.equal(rangeAlias({ ...naming, rangeLedgers: 1000 }, 'ledgers', 9_999_999_999), 'xrpl-mainnet-ledgers-9999999000');
});

t.test('hashes ignore key order but see every change', async (t) => {
  t.equal(contentHash({ a: 1, b: { c: 2, d: 3 } }), contentHash({ b: { d: 3, c: 2 }, a: 1 }));
  t.not(contentHash({ a: 1 }), contentHash({ a: 2 }));
});

type Mapping = { type?: string; dynamic?: unknown; enabled?: boolean; properties?: Record<string, Mapping> };

function walk(properties: Record<string, Mapping>, path: string, visit: (path: string, m: Mapping) => void): void {
  for (const [name, mapping] of Object.entries(properties)) {
    visit(`${path}${name}`, mapping);
    if (mapping.properties) walk(mapping.properties, `${path}${name}.`, visit);
  }
}

t.test('every object mapping sets dynamic deliberately and uses only types the engine has', async (t) => {
  // shared/ENGINE.md: present on every 8.x/9.x cluster, including the embedded node.
  const allowed = new Set([
    'keyword',
    'text',
    'long',
    'double',
    'date',
    'date_nanos',
    'boolean',
    'ip',
    'geo_point',
    'flattened',
    'nested',
    'object',
    'dense_vector',
  ]);
  const bodies = [...set.components.values(), ...set.indices.values()];
  for (const body of bodies) {
    const mappings = (body.template as { mappings?: Mapping } | undefined)?.mappings;
    if (mappings?.properties === undefined) continue;
    walk(mappings.properties, '', (path, m) => {
      const type = m.type ?? 'object';
      if (!allowed.has(type)) t.fail(`${path} uses ${type}`);
      if (type === 'object' && m.enabled !== false && m.dynamic === undefined) t.fail(`${path} has no dynamic setting`);
    });
  }
  for (const [kind, body] of set.indices) {
    const dynamic = (body.template as { mappings: { dynamic?: unknown } }).mappings.dynamic;
    t.ok(dynamic === false || dynamic === 'strict', `${kind}: root dynamic is ${String(dynamic)}`);
  }
});

t.test('every amount field has the one shared amount shape', async (t) => {
  const amount = set.components.get('amount') as { template: { mappings: { properties: Record<string, Mapping> } } };
  const props = amount.template.mappings.properties;
  const { meta, ...top } = props;
  const shapes = [...Object.values(top), ...Object.values(meta?.properties ?? {})];
  t.ok(shapes.length > 20);
  for (const shape of shapes) t.same(shape, props.Amount);
  t.same(Object.keys(props.Amount?.properties ?? {}).sort(), [
    '_currency',
    '_drops',
    '_value',
    'currency',
    'issuer',
    'mpt_issuance_id',
    'native',
    'value',
  ]);
});
