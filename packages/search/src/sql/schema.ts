/** One queryable field of a table, as the index mapping declares it. */
export interface FieldInfo {
  /** The engine's field type (keyword, long, double, boolean, date, text, flattened, ...). */
  type: string;
  /** For a text field: its keyword sub-field, used for exact matches, sorting and grouping. */
  exact?: string;
  /** False where the mapping keeps the field in `_source` only (`index: false`, a disabled object). */
  searchable: boolean;
  /** What the field holds, from the mapping's `_meta.columns`, where the template says. */
  description?: string;
}

/** Leaf fields by dotted path (`Amount._value`, `meta.TransactionResult`). */
export type TableSchema = ReadonlyMap<string, FieldInfo>;

interface MappingNode {
  type?: string;
  index?: boolean;
  enabled?: boolean;
  doc_values?: boolean;
  properties?: Record<string, MappingNode>;
  fields?: Record<string, { type?: string }>;
}

/**
 * Flattens an index mapping's `properties` into leaf fields, with the descriptions of the mapping's
 * `_meta.columns` (by dotted path); multi-fields stay out of the column list (pure).
 */
export function schemaFromMapping(
  properties: Record<string, MappingNode>,
  descriptions: Readonly<Record<string, string>> = {},
): TableSchema {
  const fields = new Map<string, FieldInfo>();
  const visit = (props: Record<string, MappingNode>, prefix: string): void => {
    for (const [name, node] of Object.entries(props)) {
      const path = `${prefix}${name}`;
      if (node.properties !== undefined && (node.type === undefined || node.type === 'object')) {
        visit(node.properties, `${path}.`);
        continue;
      }
      const type = node.type ?? 'object';
      // As the engine's field capabilities say: a field not indexed is still searched through its
      // doc values (every type but text has them); objects and nested fields are not searched as such.
      const searchable =
        type !== 'object' &&
        type !== 'nested' &&
        node.enabled !== false &&
        (node.index !== false || (node.doc_values !== false && type !== 'text'));
      const info: FieldInfo = { type, searchable };
      const description = descriptions[path];
      if (typeof description === 'string') info.description = description;
      const keyword = Object.entries(node.fields ?? {}).find(([, sub]) => sub.type === 'keyword');
      if (info.type === 'text' && keyword !== undefined) info.exact = `${path}.${keyword[0]}`;
      fields.set(path, info);
    }
  };
  visit(properties, '');
  return new Map([...fields].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Engine field type → the type name Elasticsearch SQL reports for a column. */
export function sqlTypeOf(esType: string): string {
  switch (esType) {
    case 'date':
    case 'date_nanos':
      return 'datetime';
    case 'wildcard':
      return 'keyword';
    default:
      return esType;
  }
}

/** Numeric field types: they take numeric literals and the SUM / AVG aggregates. */
export const NUMERIC = new Set([
  'long',
  'integer',
  'short',
  'byte',
  'double',
  'float',
  'half_float',
  'scaled_float',
  'unsigned_long',
]);

/** Types a column may be selected as (Elasticsearch SQL leaves the rest out of `SELECT *`). */
export const SELECTABLE = new Set([
  ...NUMERIC,
  'keyword',
  'text',
  'boolean',
  'date',
  'date_nanos',
  'ip',
  'version',
  'constant_keyword',
  'wildcard',
]);

type Props = Record<string, MappingNode>;

function mergeProperties(into: Props, from: Props): Props {
  const out: Props = { ...into };
  for (const [name, node] of Object.entries(from)) {
    const existing = out[name];
    out[name] =
      existing?.properties !== undefined && node.properties !== undefined
        ? { ...existing, ...node, properties: mergeProperties(existing.properties, node.properties) }
        : node;
  }
  return out;
}

/**
 * The mapping properties an index gets from its template: the components in `composed_of` order,
 * then the template's own, objects merged as the engine merges them (pure; used by golden tests,
 * while the server reads the live mapping).
 */
export function templateProperties(
  components: ReadonlyMap<string, Record<string, unknown>>,
  template: Record<string, unknown>,
): Record<string, MappingNode> {
  const propsOf = (body: Record<string, unknown> | undefined): Props =>
    ((body?.template as { mappings?: { properties?: Props } } | undefined)?.mappings?.properties ?? {}) as Props;
  let props: Props = {};
  for (const name of (template.composed_of as string[] | undefined) ?? [])
    props = mergeProperties(props, propsOf(components.get(name)));
  return mergeProperties(props, propsOf(template));
}
