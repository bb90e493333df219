import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { checkEngine, type EngineInfo } from './check.js';
import { componentTemplateName, indexName, INDEX_KINDS, type IndexKind, type IndexNaming } from '../index-names.js';
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

export interface NamedTemplate {
  name: string;
  body: TemplateBody;
  hash: string;
}

/** The exact bodies that will be sent for a prefix and network (pure; golden-tested). */
export function composeTemplates(
  set: TemplateSet,
  naming: IndexNaming,
): { components: NamedTemplate[]; indices: (NamedTemplate & { index: string; kind: IndexKind })[] } {
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
    const mappings = {
      ...((template.mappings as TemplateBody | undefined) ?? {}),
      _meta: { template_hash: hash, kind },
    };
    const body: TemplateBody = {
      ...raw,
      index_patterns: [index, `${index}-*`],
      composed_of: composedOf,
      template: { ...template, mappings },
      _meta: { ...((raw._meta as TemplateBody | undefined) ?? {}), content_hash: hash },
    };
    return { name: index, index, kind, body, hash };
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
  changes: TemplateChange[];
}

export interface ApplyOptions {
  /** Also create every index that does not exist yet (default true). */
  createIndices?: boolean;
  /** Delete and recreate indices built from an older template. Destroys their documents. */
  recreateStale?: boolean;
  dir?: string;
}

/**
 * Checks the engine (answers, major 8 or 9), then puts every component and index template whose
 * content changed and creates missing indices. Safe to run any number of times.
 */
export async function applyTemplates(
  client: Client,
  naming: IndexNaming,
  options: ApplyOptions = {},
): Promise<ApplyResult> {
  const engine = await checkEngine(client);
  const composed = composeTemplates(loadTemplateSet(options.dir), naming);
  const changes: TemplateChange[] = [];

  for (const t of composed.components) {
    const existing = await client.cluster.getComponentTemplate({ name: t.name }, { ignore: [404] });
    const current = existing.component_templates?.[0]?.component_template._meta?.content_hash;
    if (current === t.hash) {
      changes.push({ type: 'component_template', name: t.name, action: 'unchanged' });
      continue;
    }
    await client.cluster.putComponentTemplate({ name: t.name, ...t.body } as Parameters<
      Client['cluster']['putComponentTemplate']
    >[0]);
    changes.push({ type: 'component_template', name: t.name, action: current === undefined ? 'created' : 'updated' });
  }

  for (const t of composed.indices) {
    const existing = await client.indices.getIndexTemplate({ name: t.name }, { ignore: [404] });
    const current = existing.index_templates?.[0]?.index_template._meta?.content_hash;
    if (current === t.hash) changes.push({ type: 'index_template', name: t.name, action: 'unchanged' });
    else {
      await client.indices.putIndexTemplate({ name: t.name, ...t.body } as Parameters<
        Client['indices']['putIndexTemplate']
      >[0]);
      changes.push({ type: 'index_template', name: t.name, action: current === undefined ? 'created' : 'updated' });
    }
    if (options.createIndices === false) continue;
    const exists = await client.indices.exists({ index: t.index });
    if (!exists) {
      // ignore 400 resource_already_exists: another process may have created it meanwhile.
      await client.indices.create({ index: t.index }, { ignore: [400] });
      changes.push({ type: 'index', name: t.index, action: 'created' });
      continue;
    }
    const mapping = await client.indices.getMapping({ index: t.index });
    const indexHash = Object.values(mapping)[0]?.mappings._meta?.template_hash;
    if (indexHash === t.hash) {
      changes.push({ type: 'index', name: t.index, action: 'unchanged' });
      continue;
    }
    // Most template changes only add fields: the engine merges those into the live index. A
    // change it cannot merge (a field's type, an analyser) leaves the index stale.
    // The template as the engine resolves it, components included.
    const resolved = await client.indices.simulateTemplate({ name: t.name });
    const merged = await client.indices
      .putMapping({ index: t.index, ...(resolved.template.mappings as Record<string, unknown>) })
      .then(
        () => true,
        () => false,
      );
    if (merged) {
      changes.push({ type: 'index', name: t.index, action: 'updated', detail: 'new mappings merged into the index' });
    } else if (options.recreateStale === true) {
      await client.indices.delete({ index: t.index });
      await client.indices.create({ index: t.index });
      changes.push({
        type: 'index',
        name: t.index,
        action: 'updated',
        detail: 'stale index deleted and recreated empty',
      });
    } else {
      changes.push({
        type: 'index',
        name: t.index,
        action: 'stale',
        detail:
          'built from an older template; reindex (or `templates apply --recreate-stale`) to pick up the new mappings',
      });
    }
  }
  return { engine, changes };
}

/** Deletes the indices and templates of one prefix and network (tests use this to clean up). */
export async function deleteTemplatesAndIndices(client: Client, naming: IndexNaming, dir?: string): Promise<void> {
  const composed = composeTemplates(loadTemplateSet(dir), naming);
  for (const t of composed.indices) {
    await client.indices.delete({ index: t.index, ignore_unavailable: true }, { ignore: [404] });
    await client.indices.deleteIndexTemplate({ name: t.name }, { ignore: [404] });
  }
  for (const t of composed.components)
    await client.cluster.deleteComponentTemplate({ name: t.name }, { ignore: [404] });
}
