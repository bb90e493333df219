import t from 'tap';
import { composeTemplates, contentHash, INDEX_KINDS, indexName, loadTemplateSet } from '../../src/index.js';

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
  t.same(tx?.body.index_patterns, ['xrpl-mainnet-transactions', 'xrpl-mainnet-transactions-*']);
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
    '_value',
    'currency',
    'issuer',
    'mpt_issuance_id',
    'native',
    'value',
  ]);
});
