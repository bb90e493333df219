import type { estypes } from '@elastic/elasticsearch';
import { ErrorCode, type IndexKind } from '@xle/core';
import { parseSelect, positionOf, sqlError, type AstNode } from './parse.js';
import { NUMERIC, SELECTABLE, sqlTypeOf, type FieldInfo, type TableSchema } from './schema.js';

/** Tables the SQL API reads, and the index kind behind each. */
export const PUBLIC_TABLES: Readonly<Record<string, IndexKind>> = {
  transactions: 'transactions',
  ledgers: 'ledgers',
};

/** The largest LIMIT when rows must be ordered in memory (ORDER BY an aggregate). */
export const MAX_IN_MEMORY_ORDER = 10_000;

export interface Column {
  name: string;
  type: string;
}

/** A value a grouped row is made of: a group key, the bucket's count, or a metric aggregation. */
export type Ref = { key: string } | { count: true } | { metric: string };

/** A HAVING condition, kept as data so that plans stay serialisable and testable. */
export type Condition =
  | { and: Condition[] }
  | { or: Condition[] }
  | { not: Condition }
  | { cmp: '=' | '!=' | '<' | '<=' | '>' | '>='; left: Operand; right: Operand }
  | { in: Operand; values: Operand[] }
  | { isNull: Operand; negate: boolean };
export type Operand = { ref: Ref } | { value: string | number | boolean | null };

export interface RowsPlan {
  kind: 'rows';
  table: IndexKind;
  columns: Column[];
  /** Source path of each column, and its engine type (values are coerced to it). */
  fields: { path: string; type: string }[];
  query: estypes.QueryDslQueryContainer;
  sort: estypes.SortCombinations[];
  limit?: number;
  offset: number;
}

export interface GroupsPlan {
  kind: 'groups';
  table: IndexKind;
  columns: Column[];
  query: estypes.QueryDslQueryContainer;
  /** Composite sources in GROUP BY order; empty for an aggregate over the whole result. */
  sources: Record<string, estypes.AggregationsCompositeAggregationSource>[];
  metrics: Record<string, estypes.AggregationsAggregationContainer>;
  outputs: Ref[];
  having?: Condition;
  /** Ordering by an aggregate happens in memory, bounded by LIMIT. */
  order?: { ref: Ref; desc: boolean }[];
  limit?: number;
  offset: number;
}

export type Plan = RowsPlan | GroupsPlan;

type Schemas = (table: IndexKind) => TableSchema;

const AGGREGATES = new Set(['COUNT', 'SUM', 'AVG', 'MIN', 'MAX']);
const GROUPING_FUNCTIONS = new Set(['HISTOGRAM', 'DATE_TRUNC']);
const DATE_TRUNC_UNITS: Record<string, string> = {
  minute: '1m',
  minutes: '1m',
  hour: '1h',
  hours: '1h',
  day: '1d',
  days: '1d',
  week: '1w',
  weeks: '1w',
  month: '1M',
  months: '1M',
  quarter: '1q',
  quarters: '1q',
  year: '1y',
  years: '1y',
};
const INTERVAL_MS: Record<string, number> = {
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 604_800_000,
};
const CALENDAR_UNITS: Record<string, string> = {
  minute: '1m',
  hour: '1h',
  day: '1d',
  week: '1w',
  month: '1M',
  quarter: '1q',
  year: '1y',
};
/** MATCH / QUERY options a caller may set (Elasticsearch SQL's `'name=value;...'` third argument). */
const MATCH_OPTIONS = new Set([
  'analyzer',
  'auto_generate_synonyms_phrase_query',
  'fuzziness',
  'fuzzy_transpositions',
  'fuzzy_rewrite',
  'lenient',
  'max_expansions',
  'minimum_should_match',
  'operator',
  'prefix_length',
  'zero_terms_query',
  'boost',
  'type',
  'tie_breaker',
  'slop',
]);
const QUERY_OPTIONS = new Set([
  'default_field',
  'default_operator',
  'analyzer',
  'analyze_wildcard',
  'allow_leading_wildcard',
  'fuzziness',
  'fuzzy_max_expansions',
  'fuzzy_prefix_length',
  'lenient',
  'max_determinized_states',
  'minimum_should_match',
  'phrase_slop',
  'quote_field_suffix',
  'rewrite',
  'time_zone',
  'boost',
  'type',
  'tie_breaker',
]);

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The identifier text of a column reference (`Amount._value`, `meta.TransactionResult`). */
function columnPath(node: AstNode, tableNames: Set<string>): string {
  const column = node.column as { expr?: { value?: unknown } } | string | undefined;
  const name = typeof column === 'string' ? column : String(column?.expr?.value ?? '');
  const parts = [str(node.schema), str(node.table)].filter((p) => p !== '');
  // `transactions.Fee` or `t.Fee` (the table's alias) name the table, not an object field.
  if (parts.length > 0 && tableNames.has(parts[0] as string)) parts.shift();
  return [...parts, name].join('.');
}

function unquote(value: unknown): string {
  return String(value).replaceAll("''", "'");
}

/** A literal's value (pure). */
function literal(node: AstNode | undefined): string | number | boolean | null | undefined {
  if (node === undefined) return undefined;
  switch (node.type) {
    case 'number':
    case 'bigint':
      return Number(node.value);
    case 'single_quote_string':
    case 'string':
      return unquote(node.value);
    case 'bool':
    case 'boolean':
      return Boolean(node.value);
    case 'null':
      return null;
    case 'unary_expr': {
      // -1.5 arrives as unary minus applied to 1.5.
      const inner = literal(node.expr as AstNode | undefined);
      return node.operator === '-' && typeof inner === 'number' ? -inner : undefined;
    }
    default:
      return undefined;
  }
}

function functionName(node: AstNode): string {
  const name = node.name as { name?: { value?: string }[] } | string | undefined;
  if (typeof name === 'string') return name.toUpperCase();
  return String(name?.name?.map((n) => n.value).join('.') ?? '').toUpperCase();
}

function functionArgs(node: AstNode): AstNode[] {
  const args = node.args as { value?: AstNode[] } | AstNode | undefined;
  if (args === undefined || args === null) return [];
  if (Array.isArray((args as { value?: unknown }).value)) return (args as { value: AstNode[] }).value;
  return [args as AstNode];
}

function parseOptions(text: string, allowed: Set<string>, sql: string, clause: string): Record<string, string> {
  const options: Record<string, string> = {};
  for (const part of text.split(';')) {
    if (part.trim() === '') continue;
    const [key, ...rest] = part.split('=');
    const name = (key ?? '').trim();
    if (!allowed.has(name) || rest.length === 0)
      throw sqlError(
        ErrorCode.InvalidQuery,
        `Unknown option [${name}] in ${clause}.`,
        clause,
        positionOf(sql, null, name),
      );
    options[name] = rest.join('=').trim();
  }
  return options;
}

/** SQL LIKE pattern → engine wildcard pattern: % and _ become * and ?, the engine's own wildcards are escaped. */
export function likeToWildcard(pattern: string): string {
  let out = '';
  for (const ch of pattern) {
    if (ch === '%') out += '*';
    else if (ch === '_') out += '?';
    else if (ch === '*' || ch === '?' || ch === '\\') out += `\\${ch}`;
    else out += ch;
  }
  return out;
}

interface Context {
  sql: string;
  schema: TableSchema;
  tableNames: Set<string>;
}

function resolveField(
  ctx: Context,
  node: AstNode,
  clause: string,
  written?: string,
): { path: string; info: FieldInfo } {
  const path = written ?? columnPath(node, ctx.tableNames);
  const info = ctx.schema.get(path);
  if (info === undefined) {
    const isObject = [...ctx.schema.keys()].some((k) => k.startsWith(`${path}.`));
    throw sqlError(
      ErrorCode.InvalidQuery,
      isObject
        ? `Cannot use field [${path}] of type [object]; use one of its sub-fields, such as [${
            [...ctx.schema.keys()].find((k) => k.startsWith(`${path}.`)) ?? ''
          }].`
        : `Unknown column [${path}].`,
      clause,
      positionOf(ctx.sql, node, path.split('.').pop()),
    );
  }
  if (!SELECTABLE.has(info.type))
    throw sqlError(
      ErrorCode.UnsupportedSql,
      `Cannot use field [${path}] of type [${info.type}]: only its JSON in _source holds it; use POST /search.`,
      clause,
      positionOf(ctx.sql, node, path.split('.').pop()),
    );
  return { path, info };
}

/** The field used for exact matching, sorting and grouping: a text field's keyword sub-field. */
function exactField(ctx: Context, node: AstNode, clause: string, written?: string): { path: string; info: FieldInfo } {
  const field = resolveField(ctx, node, clause, written);
  if (field.info.type !== 'text') return field;
  if (field.info.exact === undefined)
    throw sqlError(
      ErrorCode.InvalidQuery,
      `No keyword/multi-field defined exact matches for [${field.path}]; define one or use MATCH/QUERY instead.`,
      clause,
      positionOf(ctx.sql, node, field.path),
    );
  return { path: field.info.exact, info: { type: 'keyword' } };
}

function valueFor(ctx: Context, node: AstNode, info: FieldInfo, clause: string): string | number | boolean {
  const value = literal(node);
  if (value === undefined || value === null)
    throw sqlError(
      ErrorCode.UnsupportedSql,
      'Comparisons take a literal on one side and a column on the other.',
      clause,
      positionOf(ctx.sql, node),
    );
  if (NUMERIC.has(info.type) && typeof value === 'string' && !Number.isFinite(Number(value)))
    throw sqlError(ErrorCode.InvalidQuery, `[${value}] is not a number.`, clause, positionOf(ctx.sql, node, value));
  return value;
}

const isColumn = (node: AstNode | undefined): node is AstNode & { type: 'column_ref' } => node?.type === 'column_ref';

const FLIP: Record<string, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '=': '=', '!=': '!=', '<>': '<>' };
const RANGE: Record<string, 'lt' | 'lte' | 'gt' | 'gte'> = { '<': 'lt', '<=': 'lte', '>': 'gt', '>=': 'gte' };

type Query = estypes.QueryDslQueryContainer;
/** NOT of a query; NOT NOT x is x. */
function not(q: Query): Query {
  const inner = q.bool?.must_not;
  if (q.bool !== undefined && Object.keys(q.bool).length === 1 && Array.isArray(inner) && inner.length === 1)
    return inner[0] as Query;
  return { bool: { must_not: [q] } };
}

/** A WHERE expression → an engine query (pure). Full-text predicates score; the rest filter. */
function toQuery(ctx: Context, node: AstNode): Query {
  const clause = 'WHERE';
  if (node.type === 'unary_expr' && String(node.operator).toUpperCase() === 'NOT') {
    return not(toQuery(ctx, node.expr as AstNode));
  }
  if (node.type === 'function') {
    const name = functionName(node);
    const args = functionArgs(node);
    if (name === 'NOT' && args.length === 1) return not(toQuery(ctx, args[0] as AstNode));
    if (name === 'MATCH') return matchQuery(ctx, node, args);
    if (name === 'QUERY') return queryStringQuery(ctx, node, args);
    throw sqlError(
      ErrorCode.UnsupportedSql,
      `Function [${name}] is not supported in WHERE; use MATCH, QUERY or comparisons.`,
      clause,
      positionOf(ctx.sql, node, name),
    );
  }
  if (node.type !== 'binary_expr')
    throw sqlError(
      ErrorCode.UnsupportedSql,
      `Unsupported condition${node.type === undefined ? '' : ` [${String(node.type)}]`}.`,
      clause,
      positionOf(ctx.sql, node),
    );
  const op = String(node.operator).toUpperCase();
  let left = node.left as AstNode;
  let right = node.right as AstNode;
  if (op === 'AND' || op === 'OR') {
    const parts: Query[] = [];
    const flatten = (n: AstNode): void => {
      if (n.type === 'binary_expr' && String(n.operator).toUpperCase() === op && n.parentheses !== true) {
        flatten(n.left as AstNode);
        flatten(n.right as AstNode);
      } else parts.push(toQuery(ctx, n));
    };
    flatten(left);
    flatten(right);
    if (op === 'OR') return { bool: { should: parts, minimum_should_match: 1 } };
    const must = parts.filter(isFullText);
    const filter = parts.filter((q) => !isFullText(q));
    return { bool: { ...(must.length > 0 ? { must } : {}), ...(filter.length > 0 ? { filter } : {}) } };
  }
  if (left.type === 'select' || right.type === 'select' || (right.ast as unknown) !== undefined)
    throw sqlError(ErrorCode.UnsupportedSql, 'Sub-queries are not supported.', clause, positionOf(ctx.sql, node));
  let operator = op;
  if (!isColumn(left) && isColumn(right) && FLIP[op] !== undefined) {
    [left, right] = [right, left];
    operator = FLIP[op] as string;
  }
  if (!isColumn(left))
    throw sqlError(
      ErrorCode.UnsupportedSql,
      'Conditions compare a column with literals; expressions and functions of columns are not supported.',
      clause,
      positionOf(ctx.sql, node),
    );
  if (isColumn(right))
    throw sqlError(
      ErrorCode.UnsupportedSql,
      'Comparing two columns needs a script, which this API does not run.',
      clause,
      positionOf(ctx.sql, node),
    );
  if (operator === 'IS' || operator === 'IS NOT') {
    if (literal(right) !== null)
      throw sqlError(ErrorCode.UnsupportedSql, 'IS takes NULL.', clause, positionOf(ctx.sql, node));
    const { path } = resolveField(ctx, left, clause);
    const exists: Query = { exists: { field: path } };
    return operator === 'IS' ? not(exists) : exists;
  }
  if (operator === 'LIKE' || operator === 'NOT LIKE' || operator === 'ILIKE' || operator === 'NOT ILIKE') {
    const { path, info } = exactField(ctx, left, clause);
    const pattern = literal(right);
    if (typeof pattern !== 'string')
      throw sqlError(ErrorCode.InvalidQuery, 'LIKE takes a string pattern.', clause, positionOf(ctx.sql, node));
    if (info.type !== 'keyword' && info.type !== 'constant_keyword' && info.type !== 'wildcard')
      throw sqlError(
        ErrorCode.InvalidQuery,
        `LIKE applies to string fields; [${path}] is [${info.type}].`,
        clause,
        positionOf(ctx.sql, node),
      );
    const wildcard: Query = {
      wildcard: {
        [path]: { value: likeToWildcard(pattern), ...(operator.includes('ILIKE') ? { case_insensitive: true } : {}) },
      },
    };
    return operator.startsWith('NOT') ? not(wildcard) : wildcard;
  }
  const { path, info } = exactField(ctx, left, clause);
  if (operator === 'IN' || operator === 'NOT IN') {
    const values = ((right.value as AstNode[] | undefined) ?? []).map((v) => valueFor(ctx, v, info, clause));
    const terms: Query = { terms: { [path]: values } };
    return operator === 'NOT IN' ? not(terms) : terms;
  }
  if (operator === 'BETWEEN' || operator === 'NOT BETWEEN') {
    const [low, high] = ((right.value as AstNode[] | undefined) ?? []).map((v) => valueFor(ctx, v, info, clause));
    const range: Query = { range: { [path]: { gte: low, lte: high } } };
    return operator === 'NOT BETWEEN' ? not(range) : range;
  }
  if (literal(right) === null)
    throw sqlError(
      ErrorCode.InvalidQuery,
      'Comparing with NULL is never true; use IS NULL or IS NOT NULL.',
      clause,
      positionOf(ctx.sql, node),
    );
  const value = valueFor(ctx, right, info, clause);
  if (operator === '=') return { term: { [path]: { value } } };
  if (operator === '!=' || operator === '<>') return not({ term: { [path]: { value } } });
  const bound = RANGE[operator];
  if (bound !== undefined) return { range: { [path]: { [bound]: value } } };
  throw sqlError(
    ErrorCode.UnsupportedSql,
    `Operator [${operator}] is not supported.`,
    clause,
    positionOf(ctx.sql, node),
  );
}

const isFullText = (q: Query): boolean =>
  q.match !== undefined || q.multi_match !== undefined || q.query_string !== undefined;

function stringArg(ctx: Context, node: AstNode | undefined, fn: string, what: string): string {
  const value = literal(node);
  if (typeof value !== 'string')
    throw sqlError(ErrorCode.InvalidQuery, `${fn} takes ${what} as a string.`, 'WHERE', positionOf(ctx.sql, node, fn));
  return value;
}

function matchQuery(ctx: Context, node: AstNode, args: AstNode[]): Query {
  if (args.length < 2 || args.length > 3)
    throw sqlError(
      ErrorCode.InvalidQuery,
      'MATCH takes (field or fields, text [, options]).',
      'WHERE',
      positionOf(ctx.sql, node, 'MATCH'),
    );
  const text = stringArg(ctx, args[1], 'MATCH', 'the text');
  const options =
    args[2] === undefined
      ? {}
      : parseOptions(stringArg(ctx, args[2], 'MATCH', 'options'), MATCH_OPTIONS, ctx.sql, 'MATCH');
  const first = args[0] as AstNode;
  if (isColumn(first)) {
    const { path } = resolveField(ctx, first, 'WHERE');
    return { match: { [path]: { query: text, ...options } } };
  }
  // 'field^2,other': several fields with optional boosts.
  const fields = stringArg(ctx, first, 'MATCH', 'its fields')
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '');
  for (const field of fields) {
    const name = field.replace(/\^[0-9.]+$/, '');
    if (!ctx.schema.has(name))
      throw sqlError(ErrorCode.InvalidQuery, `Unknown column [${name}].`, 'WHERE', positionOf(ctx.sql, node, name));
  }
  return { multi_match: { query: text, fields, ...options } };
}

function queryStringQuery(ctx: Context, node: AstNode, args: AstNode[]): Query {
  if (args.length < 1 || args.length > 2)
    throw sqlError(
      ErrorCode.InvalidQuery,
      'QUERY takes (text [, options]).',
      'WHERE',
      positionOf(ctx.sql, node, 'QUERY'),
    );
  const text = stringArg(ctx, args[0], 'QUERY', 'the query');
  const options =
    args[1] === undefined
      ? {}
      : parseOptions(stringArg(ctx, args[1], 'QUERY', 'options'), QUERY_OPTIONS, ctx.sql, 'QUERY');
  return { query_string: { query: text, ...options } };
}

/** A grouping expression: a column, HISTOGRAM(column, interval) or DATE_TRUNC('unit', column). */
interface GroupKey {
  id: string;
  /** Canonical text, to match SELECT / ORDER BY expressions with GROUP BY ones. */
  text: string;
  alias?: string;
  source: estypes.AggregationsCompositeAggregationSource;
  type: string;
  field: string;
}

function groupKeyOf(ctx: Context, node: AstNode, id: string, clause: string): Omit<GroupKey, 'alias'> {
  if (isColumn(node)) {
    const { path, info } = exactField(ctx, node, clause);
    const shown = resolveField(ctx, node, clause);
    return {
      id,
      text: shown.path,
      source: { terms: { field: path, missing_bucket: true } },
      type: sqlTypeOf(shown.info.type === 'text' ? 'text' : info.type),
      field: shown.path,
    };
  }
  if (node.type === 'function') {
    const name = functionName(node);
    const args = functionArgs(node);
    if (name === 'HISTOGRAM') {
      const column = args[0];
      if (!isColumn(column) || args.length !== 2)
        throw sqlError(
          ErrorCode.InvalidQuery,
          'HISTOGRAM takes (column, interval).',
          clause,
          positionOf(ctx.sql, node, 'HISTOGRAM'),
        );
      const { path, info } = resolveField(ctx, column, clause);
      const interval = args[1] as AstNode;
      if (info.type === 'date') {
        if (interval.type !== 'interval')
          throw sqlError(
            ErrorCode.InvalidQuery,
            'HISTOGRAM of a date takes an INTERVAL, such as INTERVAL 1 DAY.',
            clause,
            positionOf(ctx.sql, node, 'HISTOGRAM'),
          );
        const amount = Number((interval.expr as AstNode | undefined)?.value);
        const unit = String(interval.unit ?? '')
          .toLowerCase()
          .replace(/s$/, '');
        const calendar = CALENDAR_UNITS[unit];
        let spec: estypes.AggregationsCompositeDateHistogramAggregation;
        if (amount === 1 && calendar !== undefined)
          spec = { field: path, calendar_interval: calendar as estypes.AggregationsCalendarInterval };
        else if (INTERVAL_MS[unit] !== undefined && Number.isInteger(amount) && amount > 0)
          spec = { field: path, fixed_interval: `${amount * (INTERVAL_MS[unit] as number)}ms` };
        else
          throw sqlError(
            ErrorCode.UnsupportedSql,
            `Unsupported interval [${amount} ${unit}].`,
            clause,
            positionOf(ctx.sql, node, 'INTERVAL'),
          );
        return {
          id,
          text: `HISTOGRAM(${path},INTERVAL ${amount} ${unit})`,
          source: { date_histogram: { ...spec, missing_bucket: true } },
          type: 'datetime',
          field: path,
        };
      }
      const step = literal(interval);
      if (!NUMERIC.has(info.type) || typeof step !== 'number' || !(step > 0))
        throw sqlError(
          ErrorCode.InvalidQuery,
          'HISTOGRAM of a number takes a positive numeric interval.',
          clause,
          positionOf(ctx.sql, node, 'HISTOGRAM'),
        );
      return {
        id,
        text: `HISTOGRAM(${path},${step})`,
        source: { histogram: { field: path, interval: step, missing_bucket: true } },
        type: sqlTypeOf(info.type),
        field: path,
      };
    }
    if (name === 'DATE_TRUNC') {
      const unit = literal(args[0]);
      const column = args[1];
      const interval = typeof unit === 'string' ? DATE_TRUNC_UNITS[unit.toLowerCase()] : undefined;
      if (interval === undefined || !isColumn(column) || args.length !== 2)
        throw sqlError(
          ErrorCode.InvalidQuery,
          `DATE_TRUNC takes ('minute'|'hour'|'day'|'week'|'month'|'quarter'|'year', column).`,
          clause,
          positionOf(ctx.sql, node, 'DATE_TRUNC'),
        );
      const { path, info } = resolveField(ctx, column, clause);
      if (info.type !== 'date')
        throw sqlError(
          ErrorCode.InvalidQuery,
          `DATE_TRUNC applies to dates; [${path}] is [${info.type}].`,
          clause,
          positionOf(ctx.sql, node, 'DATE_TRUNC'),
        );
      return {
        id,
        text: `DATE_TRUNC(${interval},${path})`,
        source: {
          date_histogram: {
            field: path,
            calendar_interval: interval as estypes.AggregationsCalendarInterval,
            missing_bucket: true,
          },
        },
        type: 'datetime',
        field: path,
      };
    }
  }
  throw sqlError(
    ErrorCode.UnsupportedSql,
    'GROUP BY takes columns, HISTOGRAM(...) or DATE_TRUNC(...).',
    clause,
    positionOf(ctx.sql, node),
  );
}

interface Metric {
  id: string;
  text: string;
  ref: Ref;
  type: string;
  agg?: estypes.AggregationsAggregationContainer;
}

function metricOf(ctx: Context, node: AstNode, next: () => string, clause: string): Metric {
  const name = String(node.name).toUpperCase();
  const args = node.args as { expr?: AstNode; distinct?: string } | undefined;
  const arg = args?.expr;
  const distinct = args?.distinct !== undefined && args.distinct !== null;
  if (name === 'COUNT' && arg?.type === 'star')
    return { id: '_count', text: 'COUNT(*)', ref: { count: true }, type: 'long' };
  if (!isColumn(arg))
    throw sqlError(ErrorCode.UnsupportedSql, `${name} takes a column.`, clause, positionOf(ctx.sql, node, name));
  if (distinct && name !== 'COUNT')
    throw sqlError(
      ErrorCode.UnsupportedSql,
      `${name}(DISTINCT ...) is not supported.`,
      clause,
      positionOf(ctx.sql, node, name),
    );
  const id = next();
  if (name === 'COUNT') {
    const { path } = exactField(ctx, arg, clause);
    return distinct
      ? {
          id,
          text: `COUNT(DISTINCT ${path})`,
          ref: { metric: id },
          type: 'long',
          agg: { cardinality: { field: path } },
        }
      : { id, text: `COUNT(${path})`, ref: { metric: id }, type: 'long', agg: { value_count: { field: path } } };
  }
  const { path, info } = resolveField(ctx, arg, clause);
  if (!NUMERIC.has(info.type) && !(info.type === 'date' && (name === 'MIN' || name === 'MAX')))
    throw sqlError(
      ErrorCode.InvalidQuery,
      `${name} applies to numbers${name === 'MIN' || name === 'MAX' ? ' and dates' : ''}; [${path}] is [${info.type}].`,
      clause,
      positionOf(ctx.sql, node, name),
    );
  const type =
    name === 'AVG'
      ? 'double'
      : name === 'SUM'
        ? info.type === 'double' || info.type === 'float'
          ? 'double'
          : 'long'
        : sqlTypeOf(info.type);
  const kind = { SUM: 'sum', AVG: 'avg', MIN: 'min', MAX: 'max' }[name as 'SUM' | 'AVG' | 'MIN' | 'MAX'];
  return { id, text: `${name}(${path})`, ref: { metric: id }, type, agg: { [kind]: { field: path } } };
}

function checkUnsupportedClauses(sql: string, ast: AstNode): void {
  const distinct = (ast.distinct as { type?: string } | null | undefined)?.type;
  if (distinct !== undefined && distinct !== null)
    throw sqlError(
      ErrorCode.UnsupportedSql,
      'SELECT DISTINCT is not supported; use GROUP BY.',
      'SELECT',
      positionOf(sql, null, 'DISTINCT'),
    );
  if (ast.with !== null && ast.with !== undefined)
    throw sqlError(ErrorCode.UnsupportedSql, 'WITH is not supported.', 'WITH', positionOf(sql, null, 'WITH'));
  const into = ast.into as { position?: unknown } | null | undefined;
  if (into !== null && into !== undefined && into.position !== null && into.position !== undefined)
    throw sqlError(
      ErrorCode.ForbiddenQuery,
      'SELECT INTO writes data and is not allowed.',
      'INTO',
      positionOf(sql, null, 'INTO'),
    );
  if (ast.window !== null && ast.window !== undefined)
    throw sqlError(
      ErrorCode.UnsupportedSql,
      'Window functions are not supported.',
      'WINDOW',
      positionOf(sql, null, 'WINDOW'),
    );
  if (ast.locking_read !== null && ast.locking_read !== undefined)
    throw sqlError(ErrorCode.ForbiddenQuery, 'Locking reads are not allowed.', 'FOR', positionOf(sql, null, 'FOR'));
}

function tableOf(sql: string, ast: AstNode): { kind: IndexKind; names: Set<string> } {
  const from = ast.from as AstNode[] | null | undefined;
  if (from === null || from === undefined || from.length === 0)
    throw sqlError(ErrorCode.InvalidQuery, 'FROM is required: SELECT ... FROM transactions.', 'FROM');
  if (from.length > 1 || from.some((f) => f.join !== undefined && f.join !== null))
    throw sqlError(
      ErrorCode.UnsupportedSql,
      'Joins are not supported.',
      'FROM',
      positionOf(sql, null, 'JOIN') ?? positionOf(sql, null, ','),
    );
  const table = from[0] as AstNode;
  if (table.expr !== undefined)
    throw sqlError(ErrorCode.UnsupportedSql, 'Sub-queries are not supported.', 'FROM', positionOf(sql, null, '('));
  const name = str(table.table);
  const kind = Object.hasOwn(PUBLIC_TABLES, name) ? PUBLIC_TABLES[name] : undefined;
  if (kind === undefined || (table.db !== null && table.db !== undefined))
    throw sqlError(
      ErrorCode.InvalidQuery,
      `Unknown table [${[str(table.db), name].filter((p) => p !== '').join('.')}]; tables: ${Object.keys(PUBLIC_TABLES).join(', ')}.`,
      'FROM',
      positionOf(sql, table, name),
    );
  const names = new Set([name]);
  if (typeof table.as === 'string') names.add(table.as);
  return { kind, names };
}

function limitOf(sql: string, ast: AstNode): { limit?: number; offset: number } {
  const limit = ast.limit as { seperator?: string; value?: AstNode[] } | null | undefined;
  const values = limit?.value ?? [];
  if (values.length === 0) return { offset: 0 };
  if (limit?.seperator === ',')
    throw sqlError(ErrorCode.UnsupportedSql, 'Write LIMIT n OFFSET m.', 'LIMIT', positionOf(sql, null, 'LIMIT'));
  const numbers = values.map((v) => literal(v));
  for (const n of numbers) {
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0)
      throw sqlError(
        ErrorCode.InvalidQuery,
        'LIMIT and OFFSET take non-negative integers.',
        'LIMIT',
        positionOf(sql, null, 'LIMIT'),
      );
  }
  return { limit: numbers[0] as number, offset: (numbers[1] as number | undefined) ?? 0 };
}

/** Canonical text of an expression, used to match SELECT, GROUP BY, HAVING and ORDER BY items. */
function textOf(ctx: Context, node: AstNode): string | undefined {
  if (isColumn(node)) return columnPath(node, ctx.tableNames);
  return undefined;
}

/**
 * Translates one SELECT of the supported subset into a plan: the engine query, sort, composite
 * sources and metrics, plus what is evaluated in memory (HAVING, ordering by an aggregate). Pure:
 * `schemas` gives the mapping of each table. Throws a 400 naming the clause and position.
 */
export function translateSql(sql: string, schemas: Schemas): Plan {
  const ast = parseSelect(sql);
  checkUnsupportedClauses(sql, ast);
  const { kind: table, names } = tableOf(sql, ast);
  const ctx: Context = { sql, schema: schemas(table), tableNames: names };
  const where = ast.where as AstNode | null | undefined;
  const query: Query = where === null || where === undefined ? { match_all: {} } : wrapQuery(toQuery(ctx, where));
  const { limit, offset } = limitOf(sql, ast);
  const items = (ast.columns as { expr: AstNode; as?: string | null }[] | string) ?? [];
  const groupBy = ((ast.groupby as { columns?: AstNode[] } | null | undefined)?.columns ?? []) as AstNode[];
  const selectItems = Array.isArray(items) ? items : [];
  const hasAggregate =
    selectItems.some((i) => containsAggregate(i.expr)) || (ast.having !== null && ast.having !== undefined);
  if (groupBy.length === 0 && !hasAggregate) return rowsPlan(ctx, ast, selectItems, table, query, limit, offset);
  return groupsPlan(ctx, ast, selectItems, groupBy, table, query, limit, offset);
}

function wrapQuery(q: Query): Query {
  return q.bool !== undefined ? q : isFullText(q) ? { bool: { must: [q] } } : { bool: { filter: [q] } };
}

function containsAggregate(node: AstNode | undefined): boolean {
  if (node === undefined || node === null || typeof node !== 'object') return false;
  if (node.type === 'aggr_func') return true;
  return Object.values(node).some((v) =>
    Array.isArray(v)
      ? v.some((x) => containsAggregate(x as AstNode))
      : typeof v === 'object' && containsAggregate(v as AstNode),
  );
}

function rowsPlan(
  ctx: Context,
  ast: AstNode,
  items: { expr: AstNode; as?: string | null }[],
  table: IndexKind,
  query: Query,
  limit: number | undefined,
  offset: number,
): RowsPlan {
  const columns: Column[] = [];
  const fields: { path: string; type: string }[] = [];
  const aliases = new Map<string, string>();
  for (const item of items) {
    const expr = item.expr;
    if (
      isColumn(expr) &&
      (expr.column === '*' || (expr.column as { expr?: { value?: string } })?.expr?.value === '*')
    ) {
      for (const [path, info] of ctx.schema) {
        if (!SELECTABLE.has(info.type)) continue;
        columns.push({ name: path, type: sqlTypeOf(info.type) });
        fields.push({ path, type: info.type });
      }
      continue;
    }
    if (!isColumn(expr))
      throw sqlError(
        ErrorCode.UnsupportedSql,
        expr.type === 'function'
          ? `Function [${functionName(expr)}] is not supported in SELECT.`
          : 'SELECT takes columns, aggregates and grouping functions; expressions are not supported.',
        'SELECT',
        positionOf(ctx.sql, expr, expr.type === 'function' ? functionName(expr) : undefined),
      );
    const { path, info } = resolveField(ctx, expr, 'SELECT');
    const name = typeof item.as === 'string' ? item.as : path;
    if (typeof item.as === 'string') aliases.set(item.as, path);
    columns.push({ name, type: sqlTypeOf(info.type) });
    fields.push({ path, type: info.type });
  }
  const sort: estypes.SortCombinations[] = [];
  for (const order of (ast.orderby as { expr: AstNode; type?: string | null }[] | null) ?? []) {
    const expr = order.expr;
    if (!isColumn(expr))
      throw sqlError(ErrorCode.UnsupportedSql, 'ORDER BY takes columns.', 'ORDER BY', positionOf(ctx.sql, expr));
    const written = columnPath(expr, ctx.tableNames);
    const aliased = aliases.get(written);
    const target = exactField(ctx, expr, 'ORDER BY', aliased);
    sort.push({ [target.path]: { order: order.type === 'DESC' ? 'desc' : 'asc' } });
  }
  return { kind: 'rows', table, columns, fields, query, sort, ...(limit === undefined ? {} : { limit }), offset };
}

function groupsPlan(
  ctx: Context,
  ast: AstNode,
  items: { expr: AstNode; as?: string | null }[],
  groupBy: AstNode[],
  table: IndexKind,
  query: Query,
  limit: number | undefined,
  offset: number,
): GroupsPlan {
  // Aliases of SELECT items, so that GROUP BY / HAVING / ORDER BY can name them.
  const aliasExpr = new Map<string, AstNode>();
  for (const item of items) if (typeof item.as === 'string') aliasExpr.set(item.as, item.expr);
  const resolveAlias = (node: AstNode): AstNode => {
    if (isColumn(node) && node.table === null && (node.schema === null || node.schema === undefined)) {
      const aliased = aliasExpr.get(columnPath(node, ctx.tableNames));
      if (aliased !== undefined && !ctx.schema.has(columnPath(node, ctx.tableNames))) return aliased;
    }
    return node;
  };
  const keys: GroupKey[] = groupBy.map((node, i) => ({ ...groupKeyOf(ctx, resolveAlias(node), `g${i}`, 'GROUP BY') }));
  const metrics = new Map<string, Metric>();
  let counter = 0;
  const metricFor = (node: AstNode, clause: string): Metric => {
    const metric = metricOf(ctx, node, () => `m${counter}`, clause);
    const existing = metrics.get(metric.text);
    if (existing !== undefined) return existing;
    if (metric.agg !== undefined) counter += 1;
    metrics.set(metric.text, metric);
    return metric;
  };
  const keyFor = (node: AstNode): GroupKey | undefined => {
    const resolved = resolveAlias(node);
    let text: string | undefined;
    try {
      text = groupKeyOf(ctx, resolved, '', 'GROUP BY').text;
    } catch {
      return undefined;
    }
    return keys.find((k) => k.text === text);
  };
  /** A SELECT / HAVING / ORDER BY expression → what it reads from a bucket. */
  const refOf = (node: AstNode, clause: string): { ref: Ref; type: string; text: string } => {
    const resolved = resolveAlias(node);
    if (resolved.type === 'aggr_func') {
      const name = String(resolved.name).toUpperCase();
      if (!AGGREGATES.has(name))
        throw sqlError(
          ErrorCode.UnsupportedSql,
          `Aggregate [${name}] is not supported.`,
          clause,
          positionOf(ctx.sql, resolved, name),
        );
      const metric = metricFor(resolved, clause);
      return { ref: metric.ref, type: metric.type, text: metric.text };
    }
    const key = keyFor(resolved);
    if (key !== undefined) return { ref: { key: key.id }, type: key.type, text: key.text };
    if (resolved.type === 'function' && !GROUPING_FUNCTIONS.has(functionName(resolved)))
      throw sqlError(
        ErrorCode.UnsupportedSql,
        `Function [${functionName(resolved)}] is not supported.`,
        clause,
        positionOf(ctx.sql, resolved, functionName(resolved)),
      );
    const shown = textOf(ctx, resolved) ?? 'expression';
    throw sqlError(
      ErrorCode.InvalidQuery,
      `Cannot use non-grouped column [${shown}], expected [${keys.map((k) => k.text).join(', ')}].`,
      clause,
      positionOf(ctx.sql, resolved, shown.split('.').pop()),
    );
  };
  const columns: Column[] = [];
  const outputs: Ref[] = [];
  for (const item of items) {
    if (
      isColumn(item.expr) &&
      (item.expr.column === '*' || (item.expr.column as { expr?: { value?: string } })?.expr?.value === '*')
    )
      throw sqlError(
        ErrorCode.InvalidQuery,
        'SELECT * cannot be used with GROUP BY or aggregates.',
        'SELECT',
        positionOf(ctx.sql, null, '*'),
      );
    const { ref, type, text } = refOf(item.expr, 'SELECT');
    columns.push({ name: typeof item.as === 'string' ? item.as : displayName(ctx, item.expr, text), type });
    outputs.push(ref);
  }
  const havingNode = ast.having as AstNode | null | undefined;
  const having = havingNode === null || havingNode === undefined ? undefined : toCondition(ctx, havingNode, refOf);
  let order: { ref: Ref; desc: boolean }[] | undefined;
  const orderBy = (ast.orderby as { expr: AstNode; type?: string | null }[] | null) ?? [];
  const directions = new Map<string, 'asc' | 'desc'>();
  const byAggregate = orderBy.some((o) => !('key' in refOf(o.expr, 'ORDER BY').ref));
  if (byAggregate) {
    if (limit === undefined || limit + offset > MAX_IN_MEMORY_ORDER)
      throw sqlError(
        ErrorCode.QueryLimitExceeded,
        `ORDER BY an aggregate needs LIMIT (with OFFSET) of at most ${MAX_IN_MEMORY_ORDER}.`,
        'ORDER BY',
        positionOf(ctx.sql, null, 'ORDER BY') ?? positionOf(ctx.sql, null, 'order by'),
      );
    order = orderBy.map((o) => ({ ref: refOf(o.expr, 'ORDER BY').ref, desc: o.type === 'DESC' }));
  } else {
    let last = -1;
    for (const o of orderBy) {
      const ref = refOf(o.expr, 'ORDER BY').ref as { key: string };
      const index = keys.findIndex((k) => k.id === ref.key);
      if (index <= last)
        throw sqlError(
          ErrorCode.UnsupportedSql,
          'ORDER BY group keys must follow the GROUP BY order.',
          'ORDER BY',
          positionOf(ctx.sql, o.expr),
        );
      last = index;
      directions.set(ref.key, o.type === 'DESC' ? 'desc' : 'asc');
    }
  }
  const sources = keys.map((k) => {
    const [type, spec] = Object.entries(k.source)[0] as [string, Record<string, unknown>];
    const direction = directions.get(k.id);
    return { [k.id]: { [type]: direction === undefined ? spec : { ...spec, order: direction } } };
  });
  const aggs: Record<string, estypes.AggregationsAggregationContainer> = {};
  for (const metric of metrics.values()) if (metric.agg !== undefined) aggs[metric.id] = metric.agg;
  return {
    kind: 'groups',
    table,
    columns,
    query,
    sources,
    metrics: aggs,
    outputs,
    ...(having === undefined ? {} : { having }),
    ...(order === undefined ? {} : { order }),
    ...(limit === undefined ? {} : { limit }),
    offset,
  };
}

/** Elasticsearch SQL names an unaliased column after the expression as written. */
function displayName(ctx: Context, node: AstNode, fallback: string): string {
  if (isColumn(node)) return columnPath(node, ctx.tableNames);
  const start = (node as { loc?: { start?: { offset: number } } }).loc?.start?.offset;
  const end = (node as { loc?: { end?: { offset: number } } }).loc?.end?.offset;
  if (start !== undefined && end !== undefined) return ctx.sql.slice(start, end).trim();
  return fallback;
}

const CMP: Record<string, '=' | '!=' | '<' | '<=' | '>' | '>='> = {
  '=': '=',
  '!=': '!=',
  '<>': '!=',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};

function toCondition(ctx: Context, node: AstNode, refOf: (node: AstNode, clause: string) => { ref: Ref }): Condition {
  const clause = 'HAVING';
  const operand = (n: AstNode): Operand => {
    const value = literal(n);
    return value !== undefined ? { value } : { ref: refOf(n, clause).ref };
  };
  if (node.type === 'unary_expr' && String(node.operator).toUpperCase() === 'NOT')
    return { not: toCondition(ctx, node.expr as AstNode, refOf) };
  if (node.type === 'function' && functionName(node) === 'NOT')
    return { not: toCondition(ctx, functionArgs(node)[0] as AstNode, refOf) };
  if (node.type !== 'binary_expr')
    throw sqlError(ErrorCode.UnsupportedSql, 'Unsupported HAVING condition.', clause, positionOf(ctx.sql, node));
  const op = String(node.operator).toUpperCase();
  const left = node.left as AstNode;
  const right = node.right as AstNode;
  if (op === 'AND') return { and: [toCondition(ctx, left, refOf), toCondition(ctx, right, refOf)] };
  if (op === 'OR') return { or: [toCondition(ctx, left, refOf), toCondition(ctx, right, refOf)] };
  if (op === 'IS' || op === 'IS NOT') return { isNull: operand(left), negate: op === 'IS NOT' };
  if (op === 'IN' || op === 'NOT IN') {
    const cond: Condition = { in: operand(left), values: ((right.value as AstNode[]) ?? []).map(operand) };
    return op === 'IN' ? cond : { not: cond };
  }
  if (op === 'BETWEEN' || op === 'NOT BETWEEN') {
    const [low, high] = ((right.value as AstNode[]) ?? []).map(operand) as [Operand, Operand];
    const cond: Condition = {
      and: [
        { cmp: '>=', left: operand(left), right: low },
        { cmp: '<=', left: operand(left), right: high },
      ],
    };
    return op === 'BETWEEN' ? cond : { not: cond };
  }
  const cmp = CMP[op];
  if (cmp === undefined)
    throw sqlError(
      ErrorCode.UnsupportedSql,
      `Operator [${op}] is not supported in HAVING.`,
      clause,
      positionOf(ctx.sql, node),
    );
  return { cmp, left: operand(left), right: operand(right) };
}

/** Evaluates a HAVING condition over one grouped row's values (pure). */
export function evaluateCondition(condition: Condition, read: (ref: Ref) => unknown): boolean {
  const value = (o: Operand): unknown => ('ref' in o ? read(o.ref) : o.value);
  if ('and' in condition) return condition.and.every((c) => evaluateCondition(c, read));
  if ('or' in condition) return condition.or.some((c) => evaluateCondition(c, read));
  if ('not' in condition) return !evaluateCondition(condition.not, read);
  if ('isNull' in condition) {
    const v = value(condition.isNull);
    return condition.negate ? v !== null && v !== undefined : v === null || v === undefined;
  }
  if ('in' in condition) {
    const v = value(condition.in);
    return condition.values.some((o) => value(o) === v);
  }
  const a = value(condition.left);
  const b = value(condition.right);
  if (a === null || a === undefined || b === null || b === undefined) return false;
  switch (condition.cmp) {
    case '=':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return (a as number) < (b as number);
    case '<=':
      return (a as number) <= (b as number);
    case '>':
      return (a as number) > (b as number);
    case '>=':
      return (a as number) >= (b as number);
  }
}
