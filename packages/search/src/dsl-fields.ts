import { BadRequestError, ErrorCode } from '@xle/core';
import { isRecord } from '@xle/documents';
import { closestNames } from './closest.js';

/**
 * The field names a search body refers to, checked against the index mapping: a query on a field
 * the mapping does not have matches nothing, silently, so a typo (`Acount`) or a field kept in the
 * documents but not indexed (`meta.AffectedNodes…`) would look like an empty result. Patterns
 * (`*`, `?`) and `exists` on an object keep their engine meaning.
 */

/** Where a body names a field: the field and the JSON path of the name in the body. */
export interface FieldReference {
  field: string;
  path: string;
}

/** What a mapping lets a query name (pure data, built by `searchableFields`). */
export interface SearchableFields {
  /** Every searchable path: leaf fields, their multi-fields, objects and nested paths. */
  names: ReadonlySet<string>;
  /** Flattened fields: any sub-path of one is searchable. */
  flattened: readonly string[];
  /** Objects whose content is kept in the documents but not indexed (`enabled: false`). */
  storedOnly: readonly string[];
}

interface MappingNode {
  type?: string;
  enabled?: boolean;
  properties?: Record<string, MappingNode>;
  fields?: Record<string, unknown>;
}

/** The searchable names of a mapping's `properties` (pure). */
export function searchableFields(properties: Record<string, MappingNode>): SearchableFields {
  const names = new Set<string>();
  const flattened: string[] = [];
  const storedOnly: string[] = [];
  const visit = (props: Record<string, MappingNode>, prefix: string): void => {
    for (const [name, node] of Object.entries(props)) {
      const path = `${prefix}${name}`;
      if (node.enabled === false) {
        storedOnly.push(path);
        continue;
      }
      names.add(path);
      if (node.type === 'flattened') flattened.push(path);
      for (const sub of Object.keys(node.fields ?? {})) names.add(`${path}.${sub}`);
      if (node.properties !== undefined) visit(node.properties, `${path}.`);
    }
  };
  visit(properties, '');
  return { names, flattened, storedOnly };
}

/** Merges the searchable names of several mappings (the range indices of one kind). */
export function mergeSearchable(all: readonly SearchableFields[]): SearchableFields {
  const names = new Set<string>();
  const flattened = new Set<string>();
  const storedOnly = new Set<string>();
  for (const one of all) {
    one.names.forEach((n) => names.add(n));
    one.flattened.forEach((n) => flattened.add(n));
    one.storedOnly.forEach((n) => storedOnly.add(n));
  }
  return { names, flattened: [...flattened], storedOnly: [...storedOnly] };
}

/** Query types whose spec is keyed by the field it reads (`{"term": {"Account": …}}`). */
const FIELD_KEYED = new Set([
  'term',
  'terms',
  'range',
  'match',
  'match_phrase',
  'match_phrase_prefix',
  'match_bool_prefix',
  'prefix',
  'wildcard',
  'regexp',
  'fuzzy',
  'terms_set',
  'intervals',
  'span_term',
  'combined_fields',
]);
/** Keys of a field-keyed query's spec that are options, not fields. */
const QUERY_OPTIONS = new Set(['boost', '_name']);
/** Keys of a compound query that hold queries (one or a list). */
const SUB_QUERIES = ['must', 'filter', 'should', 'must_not', 'queries', 'positive', 'negative', 'query'];
/** Sort keys and fields that are not in the mapping but always exist. */
const METADATA = new Set([
  '_id',
  '_index',
  '_score',
  '_doc',
  '_shard_doc',
  '_seq_no',
  '_primary_term',
  '_version',
  '_routing',
  '_ignored',
  '_tier',
  '_source',
]);

/** `Account^2` (a boost in a fields list) is the field `Account`. */
const fieldName = (text: string): string => text.replace(/\^[\d.]+$/, '');

function queryFields(query: unknown, path: string, out: FieldReference[]): void {
  if (Array.isArray(query)) {
    query.forEach((q, i) => queryFields(q, `${path}[${i}]`, out));
    return;
  }
  if (!isRecord(query)) return;
  for (const [type, spec] of Object.entries(query)) {
    const at = `${path}.${type}`;
    if (FIELD_KEYED.has(type) && isRecord(spec)) {
      for (const key of Object.keys(spec)) if (!QUERY_OPTIONS.has(key)) out.push({ field: key, path: `${at}.${key}` });
      continue;
    }
    if (!isRecord(spec)) continue;
    if (type === 'exists' && typeof spec.field === 'string') out.push({ field: spec.field, path: `${at}.field` });
    if (type === 'nested' && typeof spec.path === 'string') out.push({ field: spec.path, path: `${at}.path` });
    if (['multi_match', 'query_string', 'simple_query_string'].includes(type)) {
      if (Array.isArray(spec.fields))
        spec.fields.forEach((f, i) => {
          if (typeof f === 'string') out.push({ field: fieldName(f), path: `${at}.fields[${i}]` });
        });
      if (typeof spec.default_field === 'string')
        out.push({ field: fieldName(spec.default_field), path: `${at}.default_field` });
    }
    for (const key of SUB_QUERIES) if (spec[key] !== undefined) queryFields(spec[key], `${at}.${key}`, out);
  }
}

function sortFields(sort: unknown, path: string, out: FieldReference[]): void {
  const entries = Array.isArray(sort) ? sort : [sort];
  entries.forEach((entry, i) => {
    const at = Array.isArray(sort) ? `${path}[${i}]` : path;
    if (typeof entry === 'string') out.push({ field: entry, path: at });
    else if (isRecord(entry))
      for (const [key, spec] of Object.entries(entry)) {
        if (key.startsWith('_geo')) continue;
        // `unmapped_type` says the field may be absent from the mapping: the client knows.
        if (!(isRecord(spec) && spec.unmapped_type !== undefined)) out.push({ field: key, path: `${at}.${key}` });
        if (isRecord(spec) && isRecord(spec.nested) && typeof spec.nested.path === 'string')
          out.push({ field: spec.nested.path, path: `${at}.${key}.nested.path` });
      }
  });
}

/** `field` and `path` values inside one aggregation's spec, and the queries of filter aggregations. */
function aggSpecFields(type: string, spec: unknown, path: string, out: FieldReference[]): void {
  if (type === 'filter') return queryFields(spec, path, out);
  if (type === 'filters' && isRecord(spec)) {
    const filters = spec.filters;
    if (Array.isArray(filters)) filters.forEach((q, i) => queryFields(q, `${path}.filters[${i}]`, out));
    else if (isRecord(filters))
      for (const [name, q] of Object.entries(filters)) queryFields(q, `${path}.filters.${name}`, out);
    return;
  }
  const visit = (node: unknown, at: string): void => {
    if (Array.isArray(node)) node.forEach((n, i) => visit(n, `${at}[${i}]`));
    else if (isRecord(node))
      for (const [key, value] of Object.entries(node)) {
        if (
          (key === 'field' || (key === 'path' && (type === 'nested' || type === 'reverse_nested'))) &&
          typeof value === 'string'
        )
          out.push({ field: value, path: `${at}.${key}` });
        else if (key === 'sort') sortFields(value, `${at}.sort`, out);
        else visit(value, `${at}.${key}`);
      }
  };
  visit(spec, path);
}

function aggFields(aggs: unknown, path: string, out: FieldReference[]): void {
  if (!isRecord(aggs)) return;
  for (const [name, agg] of Object.entries(aggs)) {
    if (!isRecord(agg)) continue;
    for (const [type, spec] of Object.entries(agg)) {
      const at = `${path}.${name}.${type}`;
      if (type === 'aggs' || type === 'aggregations') aggFields(spec, at, out);
      else if (type !== 'meta') aggSpecFields(type, spec, at, out);
    }
  }
}

/** Every field a search body names, with where it names it (pure). */
export function fieldReferences(body: Record<string, unknown>): FieldReference[] {
  const out: FieldReference[] = [];
  queryFields(body.query, '$.query', out);
  queryFields(body.post_filter, '$.post_filter', out);
  if (body.sort !== undefined) sortFields(body.sort, '$.sort', out);
  for (const key of ['aggs', 'aggregations'] as const) aggFields(body[key], `$.${key}`, out);
  if (isRecord(body.collapse) && typeof body.collapse.field === 'string')
    out.push({ field: body.collapse.field, path: '$.collapse.field' });
  for (const key of ['fields', 'docvalue_fields'] as const) {
    const list = body[key];
    if (Array.isArray(list))
      list.forEach((entry, i) => {
        const field = typeof entry === 'string' ? entry : isRecord(entry) ? entry.field : undefined;
        if (typeof field === 'string') out.push({ field, path: `$.${key}[${i}]` });
      });
  }
  if (isRecord(body.highlight) && isRecord(body.highlight.fields))
    for (const field of Object.keys(body.highlight.fields)) out.push({ field, path: `$.highlight.fields.${field}` });
  return out;
}

/** The mapped names closest to an unknown one (see closestNames). */
export function closestFields(field: string, fields: SearchableFields, count = 3): string[] {
  return closestNames(field, fields.names, count);
}

/** Metadata fields about the deployment (backing indices, data tiers): refused wherever a body names them. */
const INTERNAL_METADATA = new Set(['_index', '_tier']);

/** What to query instead of a field kept in the documents but not indexed. */
const STORED_ONLY_HINTS: Record<string, string> = {
  'meta.AffectedNodes':
    'query meta._objects (the ids of the ledger objects the transaction touched), meta._types (their types) or _accounts (every account it touched) instead',
};

/**
 * Refuses (400 INVALID_QUERY) a body that names a field the table's mapping does not have, with
 * the field, where the body names it, and the closest mapped names; a field kept in the documents
 * but not indexed says so and what to query instead (pure).
 */
export function checkFields(body: Record<string, unknown>, table: string, fields: SearchableFields): void {
  for (const { field, path } of fieldReferences(body)) {
    if (INTERNAL_METADATA.has(field))
      throw new BadRequestError(
        `The metadata field ${field} is not available: it names the deployment's backing indices and nodes, not data.`,
        { path, field },
        ErrorCode.ForbiddenQuery,
      );
    if (/[*?]/.test(field) || METADATA.has(field) || fields.names.has(field)) continue;
    if (fields.flattened.some((f) => field.startsWith(`${f}.`))) continue;
    const stored = fields.storedOnly.find((s) => field === s || field.startsWith(`${s}.`));
    if (stored !== undefined) {
      const hint = STORED_ONLY_HINTS[stored] ?? 'it can be read in _source but not searched';
      throw new BadRequestError(
        `The field ${field} (at ${path}) is kept in the ${table} documents but not indexed: ${hint}.`,
        { path, field, stored_only: stored },
        ErrorCode.InvalidQuery,
      );
    }
    const closest = closestFields(field, fields);
    throw new BadRequestError(
      `The field ${field} (at ${path}) is not a field of ${table}${closest.length === 0 ? '' : `; did you mean ${closest.join(', ')}?`}`,
      { path, field, closest },
      ErrorCode.InvalidQuery,
    );
  }
}
