import t, { type Test } from 'tap';
import {
  applyTemplates,
  createLogger,
  createRange,
  engineUrl,
  indexTemplateName,
  INDEX_KINDS,
  LayoutError,
  readLayout,
  type IndexNaming,
} from '@xle/core';
import { IngestEngine } from '@xle/ingester';
import { createTestIndices, runNodeCli, type CliRun } from '@xle/test-helpers';

/**
 * `templates apply` records the index layout in the cluster's index templates; it gives new
 * indices another shape as a new generation but never changes the range size; the ingester must
 * match the recorded layout; `pnpm ingest ranges` prints it first.
 */
const logger = createLogger('layout-test', 'silent');
const target = await createTestIndices(t, { es: { rangeLedgers: 500_000 } });
const { client, naming } = target;

/** Runs a built CLI with the test's engine and prefix: its exit code, stdout and stderr. */
const runCli = (script: string, args: readonly string[], env: Record<string, string>): Promise<CliRun> =>
  runNodeCli(script, args, {
    ES_URL: engineUrl(target.config),
    ES_INDEX_PREFIX: naming.prefix,
    XLE_NETWORK: naming.network,
    LOG_LEVEL: 'warn',
    ...env,
  });

async function rejection(t: Test, work: Promise<unknown>): Promise<LayoutError | undefined> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  t.type(error, LayoutError);
  return error as LayoutError | undefined;
}

t.test('applying the templates records the layout in every index template', async (t) => {
  t.match(naming.prefix, /^test-/, 'the test runs on its own prefix, whatever its `es` overrides');
  t.same(await readLayout(client, naming), {
    state: 'recorded',
    layout: { generation: 1, rangeLedgers: 500_000, shards: 1, stateShards: 1, replicas: 'auto' },
  });
  const names = INDEX_KINDS.map((kind) => indexTemplateName(naming, kind));
  const found = await client.indices.getIndexTemplate({ name: `${naming.prefix}-${naming.network}-*` });
  const layouts = found.index_templates
    .filter((x) => names.includes(x.name))
    .map((x) => x.index_template._meta?.layout);
  t.equal(layouts.length, INDEX_KINDS.length);
  t.ok(
    layouts.every((l) => (l as { rangeLedgers?: number } | undefined)?.rangeLedgers === 500_000),
    'each carries it',
  );
  const again = await applyTemplates(client, naming, {});
  t.equal(again.layout.generation, 1, 'the same layout again: the same generation');
  t.same(
    again.changes.filter((c) => c.action !== 'unchanged'),
    [],
    'nothing put again',
  );
});

t.test('another range size is refused, by templates apply and by the ingester', async (t) => {
  const other: IndexNaming = { ...naming, rangeLedgers: 1_000_000 };
  const error = await rejection(t, applyTemplates(client, other));
  t.match(
    error?.message,
    `ES_RANGE_LEDGERS is 1000000 but the cluster's ${naming.prefix}-mainnet indices were laid out with 500000 ledgers per range`,
  );
  await rejection(t, new IngestEngine(client, other, logger).applyTemplates());
  const cli = await runCli('packages/core/dist/src/cli.js', ['templates', 'apply'], { ES_RANGE_LEDGERS: '12345' });
  t.equal(cli.code, 78, '`pnpm templates apply` exits EX_CONFIG');
  t.match(cli.stderr, /error LAYOUT_MISMATCH: ES_RANGE_LEDGERS is 12345 .* 500000 ledgers per range/);
  t.equal((await readLayout(client, naming)).state, 'recorded');
  t.match(await readLayout(client, naming), { layout: { rangeLedgers: 500_000, generation: 1 } }, 'unchanged');
});

t.test('another shape: a new generation by templates apply, a refusal for the ingester', async (t) => {
  const wider = { shards: 2, stateShards: 1, replicas: 0 };
  const error = await rejection(t, new IngestEngine(client, naming, logger, wider).applyTemplates());
  t.match(error?.message, /ES_SHARDS is 2 but .* 1 primary shard\(s\) per range index \(layout generation 1\)/);
  const applied = await applyTemplates(client, naming, { layout: wider });
  t.same(applied.layout, { generation: 2, rangeLedgers: 500_000, shards: 2, stateShards: 1, replicas: 0 });
  const template = await client.indices.getIndexTemplate({ name: indexTemplateName(naming, 'transactions') });
  t.match(template.index_templates[0]?.index_template.template?.settings, { index: { number_of_shards: 2 } });
  await new IngestEngine(client, naming, logger, wider).applyTemplates();
  t.pass('the ingester with the recorded shape applies the templates');
});

t.test('`pnpm ingest ranges` prints the layout before the ranges, and in --json', async (t) => {
  const env = { ES_RANGE_LEDGERS: '500000', ES_SHARDS: '2', ES_REPLICAS: '0' };
  const text = await runCli('packages/ingester/dist/src/cli.js', ['ranges'], env);
  t.equal(text.code, 0, text.stderr);
  const lines = text.stdout.trim().split('\n');
  t.equal(
    lines[0],
    'layout generation 2: 500000 ledgers per range, 2 shard(s) per range index, 1 per state index, replicas 0',
  );
  t.match(lines[1], new RegExp(`^${naming.prefix}-mainnet-transactions-0000000000-g1 `));
  const json = await runCli('packages/ingester/dist/src/cli.js', ['ranges', '--json', '--kind', 'ledgers'], env);
  t.equal(json.code, 0, json.stderr);
  t.match(JSON.parse(json.stdout), {
    layout: { generation: 2, rangeLedgers: 500_000, shards: 2, stateShards: 1, replicas: 0 },
    ranges: [{ kind: 'ledgers', index: `${naming.prefix}-mainnet-ledgers-0000000000-g1` }],
  });
  // What the refusals point to shows the layout with another configuration too, and says how it differs.
  const differing = await runCli('packages/ingester/dist/src/cli.js', ['ranges'], { ES_RANGE_LEDGERS: '12345' });
  t.equal(differing.code, 0);
  t.match(differing.stdout, /^layout generation 2: 500000 ledgers per range/);
  t.match(differing.stderr, /ES_RANGE_LEDGERS is 12345 .* 500000 ledgers per range/);
});

t.test('templates from before layouts were recorded: adopted only when the ranges fit', async (t) => {
  const { client, naming } = await createTestIndices(t, { es: { rangeLedgers: 500_000 } });
  await createRange(client, naming, 'ledgers', 500_000);
  // The ledgers template as an older release put it: no layout (here no `_meta` at all).
  const name = indexTemplateName(naming, 'ledgers');
  const current = (await client.indices.getIndexTemplate({ name })).index_templates[0]?.index_template;
  const { _meta: _, ...older } = current ?? {};
  await client.indices.putIndexTemplate({ name, ...older } as Parameters<typeof client.indices.putIndexTemplate>[0]);
  t.same(await readLayout(client, naming), { state: 'unrecorded' });
  const error = await rejection(t, applyTemplates(client, { ...naming, rangeLedgers: 1_000_000 }));
  t.match(
    error?.message,
    /ES_RANGE_LEDGERS is 1000000 .* range index \S+-ledgers-0000500000-g1 does not start at a multiple of it/,
  );
  const adopted = await applyTemplates(client, naming);
  t.same(adopted.layout, { generation: 1, rangeLedgers: 500_000, shards: 1, stateShards: 1, replicas: 'auto' });
});
