import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { checkEngine, type EngineInfo } from './check.js';
import type { Config } from '../config.js';
import {
  componentTemplateName,
  indexName,
  INDEX_KINDS,
  isRangedKind,
  type IndexKind,
  type IndexNaming,
} from '../index-names.js';
import { ADMIN, createRange, rangeIndices } from './ranges.js';
import {
  configuredOf,
  LayoutError,
  misfitRanges,
  planLayout,
  readLayout,
  type LayoutRecord,
  type LayoutRole,
} from './layout.js';
import { templatesDir as defaultTemplatesDir } from '../paths.js';

/**
 * Index definitions are data: component templates under index-templates/components, one
 * composable index template per document kind under index-templates/indices. This module reads
 * them, names them for a prefix and network, and applies them idempotently: each body carries the
 * hash of its own content in `_meta.content_hash`, so an unchanged template is never rewritten
 * and the report says exactly what changed.
 */
/** A template body, as read from index-templates and sent to the engine. */
type TemplateBody = Record<string, unknown>;

export interface TemplateSet {
  components: Map<string, TemplateBody>;
  indices: Map<IndexKind, TemplateBody & { composed_of?: string[] }>;
}

export function loadTemplateSet(dir: string = defaultTemplatesDir): TemplateSet {
  const readDir = (sub: string): [string, TemplateBody][] =>
    readdirSync(join(dir, sub))
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => [basename(f, '.json'), JSON.parse(readFileSync(join(dir, sub, f), 'utf8')) as TemplateBody]);
  const components = new Map(readDir('components'));
  const indices = new Map<IndexKind, TemplateBody>();
  for (const [name, body] of readDir('indices')) {
    if (!(INDEX_KINDS as readonly string[]).includes(name))
      throw new Error(`index template ${name}.json names no known index kind`);
    indices.set(name as IndexKind, body);
  }
  for (const kind of INDEX_KINDS)
    if (!indices.has(kind)) throw new Error(`index-templates/indices/${kind}.json is missing`);
  for (const [kind, body] of indices) {
    for (const c of (body.composed_of as string[] | undefined) ?? []) {
      if (!components.has(c)) throw new Error(`${kind}.json is composed of unknown component ${c}`);
    }
  }
  return { components, indices };
}

/** Canonical JSON (sorted keys): equal values give equal text whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as TemplateBody).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function contentHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex').slice(0, 16);
}

/**
 * How many shards and replicas the indices get, from the configuration: the range indices of the
 * kinds that grow with history and the two ledger-state indices can be spread over a cluster; the
 * other indices are small and keep one shard. Replicas unset: 0 on one node, 1 on two or more.
 */
export interface IndexLayout {
  shards: number;
  stateShards: number;
  replicas?: number;
}

export const DEFAULT_LAYOUT: IndexLayout = { shards: 1, stateShards: 1 };

/** The layout the configuration asks for (`ES_SHARDS`, `ES_STATE_SHARDS`, `ES_REPLICAS`). */
export function layoutOf(config: Pick<Config, 'es'>): IndexLayout {
  const { shards, stateShards, replicas } = config.es;
  return replicas === undefined ? { shards, stateShards } : { shards, stateShards, replicas };
}

/**
 * The single indices that grow with the ledger: the state indices, the locators (one small
 * document per transaction and ledger hash ever indexed, read by id) and the activity (one per
 * account or NFT and transaction, read by routing).
 */
const STATE_SHARDED: ReadonlySet<IndexKind> = new Set([
  'objects',
  'accounts',
  'activations',
  'deletions',
  'threads',
  'nfts',
  'locators',
  'activity',
]);

function layoutSettings(kind: IndexKind, layout: IndexLayout): TemplateBody {
  const shards = isRangedKind(kind) ? layout.shards : STATE_SHARDED.has(kind) ? layout.stateShards : 1;
  const replicas =
    layout.replicas === undefined
      ? { auto_expand_replicas: '0-1' }
      : { number_of_replicas: layout.replicas, auto_expand_replicas: false };
  return { index: { number_of_shards: shards, ...replicas } };
}

export interface NamedTemplate {
  name: string;
  body: TemplateBody;
  hash: string;
}

/** An index template: `hash` covers its mappings (recorded in each index), `bodyHash` the whole body. */
export type ComposedIndex = NamedTemplate & { index: string; kind: IndexKind; bodyHash: string };

/**
 * The exact bodies that will be sent for a prefix and network (pure; golden-tested). With
 * `record`, every index template carries it in `_meta.layout` (see layout.ts).
 */
export function composeTemplates(
  set: TemplateSet,
  naming: IndexNaming,
  layout: IndexLayout = DEFAULT_LAYOUT,
  record?: LayoutRecord,
): { components: NamedTemplate[]; indices: ComposedIndex[] } {
  const components = [...set.components].map(([short, raw]) => {
    const hash = contentHash(raw);
    const meta = { ...((raw._meta as TemplateBody | undefined) ?? {}), content_hash: hash };
    return { name: componentTemplateName(naming.prefix, short), body: { ...raw, _meta: meta }, hash };
  });
  const indices = [...set.indices].map(([kind, raw]) => {
    const index = indexName(naming, kind);
    const composedOf = ((raw.composed_of as string[] | undefined) ?? []).map((c) =>
      componentTemplateName(naming.prefix, c),
    );
    // The hash covers the components too, so a component change marks every index built on it.
    const hash = contentHash({ raw, components: composedOf.map((c) => components.find((x) => x.name === c)?.hash) });
    const template = (raw.template as TemplateBody | undefined) ?? {};
    const own = (template.mappings as TemplateBody | undefined) ?? {};
    // The template's own mapping `_meta` (column descriptions) is kept beside what the indices record.
    const mappings = {
      ...own,
      _meta: { ...((own._meta as TemplateBody | undefined) ?? {}), template_hash: hash, kind },
    };
    const shape = layoutSettings(kind, layout);
    const settings = { ...((template.settings as TemplateBody | undefined) ?? {}), ...shape };
    // The template's own hash also covers the layout (shards, replicas, and the recorded layout):
    // a layout change puts the template again, for the indices created from then on; existing
    // indices keep theirs.
    const bodyHash = contentHash(record === undefined ? { hash, shape } : { hash, shape, record });
    const body: TemplateBody = {
      ...raw,
      // A ranged kind's name is its read alias; only its range indices (`<name>-*`) are indices.
      index_patterns: isRangedKind(kind) ? [`${index}-*`] : [index, `${index}-*`],
      composed_of: composedOf,
      template: { ...template, settings, mappings },
      _meta: {
        ...((raw._meta as TemplateBody | undefined) ?? {}),
        content_hash: bodyHash,
        ...(record === undefined ? {} : { layout: record }),
      },
    };
    return { name: index, index, kind, body, hash, bodyHash };
  });
  return { components, indices };
}

export type ChangeAction = 'created' | 'updated' | 'unchanged' | 'stale';
export interface TemplateChange {
  type: 'component_template' | 'index_template' | 'index';
  name: string;
  action: ChangeAction;
  detail?: string;
}

export interface ApplyResult {
  engine: EngineInfo;
  /** The layout recorded in the index templates. */
  layout: LayoutRecord;
  changes: TemplateChange[];
}

export interface ApplyOptions {
  /** Also create every index that does not exist yet (default true). */
  createIndices?: boolean;
  /** Delete and recreate indices built from an older template. Destroys their documents. */
  recreateStale?: boolean;
  dir?: string;
  /** Shards and replicas of new indices (default DEFAULT_LAYOUT); the range size comes from the naming. */
  layout?: IndexLayout;
  /**
   * `apply` (default; `templates apply`) may record another shape of new indices, a new layout
   * generation; `ingest` (the ingester applying the templates on its way in) must match the
   * recorded layout. Neither may change the range size of a recorded layout (see layout.ts).
   */
  role?: Exclude<LayoutRole, 'serve'>;
}

/**
 * Checks the engine (answers, major 8 or 9) and the recorded layout (a LayoutError when the naming's
 * range size or, for `ingest`, the shape differs from it), then puts every component and index
 * template whose content changed, recording the layout in the index templates, and creates
 * missing indices. Safe to run any number of times.
 */
export async function applyTemplates(
  client: Client,
  naming: IndexNaming,
  options: ApplyOptions = {},
): Promise<ApplyResult> {
  const engine = await checkEngine(client);
  const layout = await layoutToRecord(client, naming, options);
  const composed = composeTemplates(loadTemplateSet(options.dir), naming, options.layout, layout);
  // Each put and each index creation is a cluster-state update, published to every node: sent
  // together, the master applies them in batches (on a three-node cluster that is seconds, not
  // tens of seconds). Components first, since the index templates name them.
  const components = await Promise.all(
    composed.components.map(async (t): Promise<TemplateChange> => {
      const existing = await client.cluster.getComponentTemplate({ name: t.name }, { ignore: [404] });
      const current = existing.component_templates?.[0]?.component_template._meta?.content_hash;
      if (current === t.hash) return { type: 'component_template', name: t.name, action: 'unchanged' };
      await client.cluster.putComponentTemplate(
        { name: t.name, ...t.body } as Parameters<Client['cluster']['putComponentTemplate']>[0],
        ADMIN,
      );
      return { type: 'component_template', name: t.name, action: current === undefined ? 'created' : 'updated' };
    }),
  );
  const indices = await Promise.all(
    composed.indices.map(async (t): Promise<TemplateChange[]> => {
      const changes: TemplateChange[] = [];
      const existing = await client.indices.getIndexTemplate({ name: t.name }, { ignore: [404] });
      const current = existing.index_templates?.[0]?.index_template._meta?.content_hash;
      if (current === t.bodyHash) changes.push({ type: 'index_template', name: t.name, action: 'unchanged' });
      else {
        await client.indices.putIndexTemplate(
          { name: t.name, ...t.body } as Parameters<Client['indices']['putIndexTemplate']>[0],
          ADMIN,
        );
        changes.push({ type: 'index_template', name: t.name, action: current === undefined ? 'created' : 'updated' });
      }
      if (options.createIndices === false) return changes;
      if (isRangedKind(t.kind)) changes.push(...(await checkRanges(client, naming, t, options)));
      else if (!(await client.indices.exists({ index: t.index }))) {
        // ignore 400 resource_already_exists: another process may have created it meanwhile.
        await client.indices.create({ index: t.index }, { ...ADMIN, ignore: [400] });
        changes.push({ type: 'index', name: t.index, action: 'created' });
      } else
        changes.push(
          await checkIndex(client, t, t.index, options, () => client.indices.create({ index: t.index }, ADMIN)),
        );
      return changes;
    }),
  );
  return { engine, layout, changes: [...components, ...indices.flat()] };
}

/** The layout to record (see planLayout), with existing ranges checked when none was recorded. */
async function layoutToRecord(client: Client, naming: IndexNaming, options: ApplyOptions): Promise<LayoutRecord> {
  const recorded = await readLayout(client, naming);
  const layout = planLayout(
    recorded,
    naming,
    configuredOf(naming, options.layout ?? DEFAULT_LAYOUT),
    options.role ?? 'apply',
  );
  if (recorded.state === 'unrecorded') {
    // Templates from before layouts were recorded: the range size adopted must fit the ranges there.
    const misfits = misfitRanges(await rangeIndices(client, naming, 'ledgers'), layout.rangeLedgers);
    if (misfits.length > 0)
      throw new LayoutError(
        'LAYOUT_MISMATCH',
        `ES_RANGE_LEDGERS is ${layout.rangeLedgers} but the cluster's ${naming.prefix}-${naming.network} range ` +
          `index ${misfits[0]} does not start at a multiple of it: it was laid out with another range size ` +
          `(pnpm ingest ranges lists the ranges)`,
      );
  }
  return layout;
}

/**
 * One existing index against its template: unchanged, updated (new fields merged into its
 * mappings), or stale (a change the engine cannot merge), recreated empty with `recreateStale`.
 */
async function checkIndex(
  client: Client,
  t: ComposedIndex,
  index: string,
  options: ApplyOptions,
  recreate: () => Promise<unknown>,
): Promise<TemplateChange> {
  const mapping = await client.indices.getMapping({ index });
  const indexHash = Object.values(mapping)[0]?.mappings._meta?.template_hash;
  if (indexHash === t.hash) return { type: 'index', name: index, action: 'unchanged' };
  // Most template changes only add fields: the engine merges those into the live index. A
  // change it cannot merge (a field's type, an analyser) leaves the index stale.
  // The template as the engine resolves it, components included.
  const resolved = await client.indices.simulateTemplate({ name: t.name });
  const merged = await client.indices
    .putMapping({ index, ...(resolved.template.mappings as Record<string, unknown>) })
    .then(
      () => true,
      () => false,
    );
  if (merged) return { type: 'index', name: index, action: 'updated', detail: 'new mappings merged into the index' };
  if (options.recreateStale === true) {
    await client.indices.delete({ index });
    await recreate();
    return { type: 'index', name: index, action: 'updated', detail: 'stale index deleted and recreated empty' };
  }
  return {
    type: 'index',
    name: index,
    action: 'stale',
    detail: 'built from an older template; reindex (or `templates apply --recreate-stale`) to pick up the new mappings',
  };
}

/**
 * A ranged kind: its first range exists (so its read alias always resolves), every range index is
 * checked against the template, and an index that bears the alias's own name (the layout before
 * range indices) is reported stale, or replaced with `recreateStale`.
 */
async function checkRanges(
  client: Client,
  naming: IndexNaming,
  t: ComposedIndex,
  options: ApplyOptions,
): Promise<TemplateChange[]> {
  const kind = t.kind as Parameters<typeof createRange>[2];
  const changes: TemplateChange[] = [];
  const single = await client.indices.get({ index: t.index }, { ignore: [404] });
  if (Object.hasOwn(single, t.index)) {
    if (options.recreateStale !== true)
      return [
        {
          type: 'index',
          name: t.index,
          action: 'stale',
          detail: 'one index from before range indices; `templates apply --recreate-stale` replaces it (empty)',
        },
      ];
    await client.indices.delete({ index: t.index });
    changes.push({ type: 'index', name: t.index, action: 'updated', detail: 'replaced by range indices' });
  }
  if ((await createRange(client, naming, kind, 0)) === 'created')
    changes.push({ type: 'index', name: `${t.index}-*`, action: 'created', detail: 'first range and its aliases' });
  for (const index of await rangeIndices(client, naming, kind)) {
    // `<range alias>-g<generation>`: recreated under the same name, with the same two aliases.
    const alias = index.replace(/-g\d+$/, '');
    const aliases = { [t.index]: {}, [alias]: {} };
    changes.push(await checkIndex(client, t, index, options, () => client.indices.create({ index, aliases }, ADMIN)));
  }
  return changes;
}

/**
 * Deletes one network's indices (every range of the ranged kinds) and index templates, leaving the
 * prefix's component templates, which other networks under the same prefix share.
 */
export async function deleteIndicesOf(client: Client, naming: IndexNaming, dir?: string): Promise<void> {
  for (const t of composeTemplates(loadTemplateSet(dir), naming).indices) {
    // Deleting by wildcard needs action.destructive_requires_name off: the range indices are named.
    const ranges = isRangedKind(t.kind) ? await rangeIndices(client, naming, t.kind) : [];
    for (const index of [...ranges, ...(isRangedKind(t.kind) ? [] : [t.index])])
      await client.indices.delete({ index, ignore_unavailable: true }, { ignore: [404] });
    if (isRangedKind(t.kind))
      await client.indices.delete({ index: t.index, ignore_unavailable: true }, { ignore: [404] });
    await client.indices.deleteIndexTemplate({ name: t.name }, { ignore: [404] });
  }
}

/** Deletes the indices and templates of one prefix and network (tests use this to clean up). */
export async function deleteTemplatesAndIndices(client: Client, naming: IndexNaming, dir?: string): Promise<void> {
  await deleteIndicesOf(client, naming, dir);
  for (const t of composeTemplates(loadTemplateSet(dir), naming).components)
    await client.cluster.deleteComponentTemplate({ name: t.name }, { ignore: [404] });
}
