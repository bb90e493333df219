// GROUP BY and aggregates: composite sources and metric aggregations, and the plan of a grouped query (pure).
import type { estypes } from '@elastic/elasticsearch';
import { ErrorCode, type IndexKind } from '@xle/core';
import { asWritten, positionOf, sqlError, sqlOf, type AstNode } from './parse.js';
import { NUMERIC, sqlTypeOf } from './schema.js';
import {
  columnPath,
  FUNCTION_AGGREGATES,
  functionArgs,
  functionName,
  isColumn,
  literal,
  nullsOf,
  orderByOf,
  type OrderByItem,
} from './ast.js';
import { compileExpr } from './expressions.js';
import { type Context, exactField, resolveField, textOf } from './fields.js';
import { toCondition } from './having.js';
import { type Column, type GroupsPlan, MAX_IN_MEMORY_ORDER, type OrderKey, type Ref } from './plan.js';
import { toQuery, type Query } from './where.js';

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

/** A grouping expression: a column, HISTOGRAM(column, interval) or DATE_TRUNC('unit', column), or a CASE. */
interface GroupKey {
  id: string;
  /** Canonical text, to match SELECT / ORDER BY expressions with GROUP BY ones. */
  text: string;
  alias?: string;
  /** The composite source; none for a CASE, whose groups are its branches (`branches`). */
  source?: estypes.AggregationsCompositeAggregationSource;
  /** A searched CASE: each distinct result and the query of the rows it is (no script). */
  branches?: CaseBranch[];
  type: string;
  field: string;
}

/** One group of a GROUP BY CASE: its value and the rows that take it. */
export interface CaseBranch {
  value: string | number | boolean | null;
  query: Query;
}

/**
 * GROUP BY CASE WHEN c1 THEN v1 WHEN c2 THEN v2 … ELSE e END: each branch's rows are those its
 * condition holds for and no earlier one does (SQL's first match), the ELSE's those no condition
 * holds for (NULL without an ELSE); branches of one value are one group. Each is a query, so the
 * groups are counted by the engine, branch by branch, without a script. Results must be literals.
 */
function caseBranches(ctx: Context, node: AstNode, clause: string): CaseBranch[] {
  const subject = node.expr === null || node.expr === undefined ? undefined : (node.expr as AstNode);
  const earlier: Query[] = [];
  const byValue = new Map<string | number | boolean | null, Query[]>();
  const add = (value: string | number | boolean | null, query: Query): void => {
    byValue.set(value, [...(byValue.get(value) ?? []), query]);
  };
  let otherwise: string | number | boolean | null = null;
  for (const arg of (node.args as AstNode[] | undefined) ?? []) {
    const value = literal(arg.result as AstNode | undefined);
    if (value === undefined)
      throw sqlError(
        ErrorCode.UnsupportedSql,
        "GROUP BY CASE takes literal results (THEN 1, THEN 'large'); a computed result needs a script, which this API does not run.",
        clause,
        positionOf(ctx.sql, arg.result as AstNode),
      );
    if (arg.type === 'else') {
      otherwise = value;
      continue;
    }
    const cond =
      subject === undefined
        ? (arg.cond as AstNode)
        : ({ type: 'binary_expr', operator: '=', left: subject, right: arg.cond } as unknown as AstNode);
    const holds = toQuery(ctx, cond);
    add(value, { bool: { filter: [holds], ...(earlier.length === 0 ? {} : { must_not: [...earlier] }) } });
    earlier.push(holds);
  }
  add(otherwise, earlier.length === 0 ? { match_all: {} } : { bool: { must_not: [...earlier] } });
  return [...byValue].map(([value, queries]) => ({
    value,
    query: queries.length === 1 ? (queries[0] as Query) : { bool: { should: queries, minimum_should_match: 1 } },
  }));
}

/** The date column a grouping function takes, by its path; a 400 naming the function for any other type. */
function dateColumn(ctx: Context, column: AstNode, fn: string, node: AstNode, clause: string): string {
  const { path, info } = resolveField(ctx, column, clause);
  if (info.type !== 'date')
    throw sqlError(
      ErrorCode.InvalidQuery,
      `${fn} applies to dates; [${path}] is [${info.type}].`,
      clause,
      positionOf(ctx.sql, node, fn),
    );
  return path;
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
      const path = dateColumn(ctx, column, 'DATE_TRUNC', node, clause);
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
    if (name === 'YEAR' && args.length === 1 && isColumn(args[0])) {
      // A calendar year's buckets, each keyed by its year as the engine formats it (no script).
      const path = dateColumn(ctx, args[0], 'YEAR', node, clause);
      return {
        id,
        text: `YEAR(${path})`,
        source: {
          date_histogram: { field: path, calendar_interval: 'year', format: 'yyyy', missing_bucket: true },
        },
        type: 'integer',
        field: path,
      };
    }
  }
  if (node.type === 'case') {
    const branches = caseBranches(ctx, node, clause);
    const values = branches.map((b) => b.value).filter((v) => v !== null);
    const type = values.every((v) => typeof v === 'number')
      ? values.every((v) => Number.isInteger(v))
        ? 'integer'
        : 'double'
      : values.every((v) => typeof v === 'boolean')
        ? 'boolean'
        : 'keyword';
    return { id, text: sqlOf(node) ?? 'CASE', branches, type, field: '' };
  }
  throw sqlError(
    ErrorCode.UnsupportedSql,
    'GROUP BY takes columns, HISTOGRAM(...), DATE_TRUNC(...), YEAR(date) or a CASE of literal results; other expressions need a script, which this API does not run.',
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

/** Where each statistic of an `extended_stats` answer is (population and sample variants). */
const EXTENDED_STATS: Readonly<Record<string, string>> = {
  STDDEV_POP: 'std_deviation',
  STDDEV_SAMP: 'std_deviation_sampling',
  VAR_POP: 'variance',
  VAR_SAMP: 'variance_sampling',
  SUM_OF_SQUARES: 'sum_of_squares',
};

/** A numeric literal argument of a function (a percentile, a value to rank), or a 400. */
function numberArgument(ctx: Context, node: AstNode, name: string, arg: AstNode | undefined, clause: string): number {
  const value = arg === undefined ? undefined : literal(arg);
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw sqlError(
      ErrorCode.InvalidQuery,
      `${name} takes (column, number): the second argument must be a numeric literal.`,
      clause,
      positionOf(ctx.sql, node, name),
    );
  return value;
}

/**
 * The aggregates the parser reads as functions: statistics of `extended_stats`, and percentiles
 * (approximate, TDigest, as in Elasticsearch SQL), each NULL over no value.
 */
function functionMetricOf(ctx: Context, node: AstNode, id: string, clause: string): Metric {
  const name = functionName(node);
  const [column, second] = functionArgs(node);
  if (!isColumn(column))
    throw sqlError(ErrorCode.UnsupportedSql, `${name} takes a column.`, clause, positionOf(ctx.sql, node, name));
  const { path, info } = resolveField(ctx, column, clause);
  if (!NUMERIC.has(info.type) && !(info.type === 'date' && name.startsWith('PERCENTILE')))
    throw sqlError(
      ErrorCode.InvalidQuery,
      `${name} applies to numbers; [${path}] is [${info.type}].`,
      clause,
      positionOf(ctx.sql, node, name),
    );
  const part = EXTENDED_STATS[name];
  if (part !== undefined)
    return {
      id,
      text: `${name}(${path})`,
      ref: { metric: id, part },
      type: 'double',
      agg: { extended_stats: { field: path } },
    };
  const value = numberArgument(ctx, node, name, second, clause);
  if (name === 'PERCENTILE') {
    if (value < 0 || value > 100)
      throw sqlError(
        ErrorCode.InvalidQuery,
        'PERCENTILE takes a percent from 0 to 100.',
        clause,
        positionOf(ctx.sql, node, name),
      );
    return {
      id,
      text: `PERCENTILE(${path},${value})`,
      ref: { metric: id, part: 'values.0.value' },
      type: 'double',
      agg: { percentiles: { field: path, percents: [value], keyed: false } },
    };
  }
  return {
    id,
    text: `PERCENTILE_RANK(${path},${value})`,
    ref: { metric: id, part: 'values.0.value' },
    type: 'double',
    agg: { percentile_ranks: { field: path, values: [value], keyed: false } },
  };
}

function metricOf(ctx: Context, node: AstNode, next: () => string, clause: string): Metric {
  if (node.type === 'function') return functionMetricOf(ctx, node, next(), clause);
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
  // SUM reads a stats metric: over no value it is NULL, as in SQL, where the engine's sum says 0.
  if (name === 'SUM')
    return { id, text: `SUM(${path})`, ref: { metric: id, part: 'sum' }, type, agg: { stats: { field: path } } };
  const kind = { AVG: 'avg', MIN: 'min', MAX: 'max' }[name as 'AVG' | 'MIN' | 'MAX'];
  return { id, text: `${name}(${path})`, ref: { metric: id }, type, agg: { [kind]: { field: path } } };
}

/**
 * The parts of a grouped query a plan is made of, each a small step over what the steps before
 * found: the SELECT aliases, the group keys, the metrics (each aggregate once), what each
 * expression reads of a bucket, then the columns, HAVING, ORDER BY and the composite sources.
 */
class GroupsBuilder {
  private readonly aliasExpr = new Map<string, AstNode>();
  readonly keys: GroupKey[];
  readonly metrics = new Map<string, Metric>();
  private counter = 0;

  constructor(
    private readonly ctx: Context,
    items: readonly { expr: AstNode; as?: string | null }[],
    groupBy: readonly AstNode[],
  ) {
    // Aliases of SELECT items, so that GROUP BY / HAVING / ORDER BY can name them.
    for (const item of items) if (typeof item.as === 'string') this.aliasExpr.set(item.as, item.expr);
    this.keys = groupBy.map((node, i) => ({ ...groupKeyOf(ctx, this.resolveAlias(node), `g${i}`, 'GROUP BY') }));
    // A CASE's groups are read branch after branch, so it leads: its rows then come in key order.
    this.keys.forEach((key, i) => {
      if (key.branches !== undefined && i > 0)
        throw sqlError(
          ErrorCode.UnsupportedSql,
          'GROUP BY CASE must be the first GROUP BY key (its groups are read one after another).',
          'GROUP BY',
          positionOf(ctx.sql, groupBy[i] as AstNode),
        );
    });
  }

  /** The CASE key's branches in the order its groups are sent (its ORDER BY direction, nulls where asked or the engine puts them). */
  split(directions: ReadonlyMap<string, KeyDirection>): GroupsPlan['split'] {
    const key = this.keys[0];
    if (key?.branches === undefined) return undefined;
    const direction = directions.get(key.id);
    const desc = direction?.order === 'desc';
    const nullsFirst = direction?.nulls === undefined ? !desc : direction.nulls === 'first';
    const branches = [...key.branches].sort((a, b) => {
      if (a.value === b.value) return 0;
      if (a.value === null) return nullsFirst ? -1 : 1;
      if (b.value === null) return nullsFirst ? 1 : -1;
      const c =
        typeof a.value === 'number' && typeof b.value === 'number'
          ? a.value - b.value
          : String(a.value) < String(b.value)
            ? -1
            : 1;
      return desc ? -c : c;
    });
    return { key: key.id, branches };
  }

  /** A bare column that names a SELECT alias (and no column of the table) stands for its expression. */
  resolveAlias(node: AstNode): AstNode {
    if (isColumn(node) && node.table === null && (node.schema === null || node.schema === undefined)) {
      const path = columnPath(node, this.ctx.tableNames);
      const aliased = this.aliasExpr.get(path);
      if (aliased !== undefined && !this.ctx.schema.has(path)) return aliased;
    }
    return node;
  }

  /** The metric of an aggregate, made once however often the query names it. */
  private metricFor(node: AstNode, clause: string): Metric {
    const metric = metricOf(this.ctx, node, () => `m${this.counter}`, clause);
    const existing = this.metrics.get(metric.text);
    if (existing !== undefined) return existing;
    if (metric.agg !== undefined) this.counter += 1;
    this.metrics.set(metric.text, metric);
    return metric;
  }

  /** The group key an expression is, when it is one. */
  private keyFor(node: AstNode): GroupKey | undefined {
    let text: string | undefined;
    try {
      text = groupKeyOf(this.ctx, this.resolveAlias(node), '', 'GROUP BY').text;
    } catch {
      return undefined;
    }
    return this.keys.find((k) => k.text === text);
  }

  /** A SELECT / HAVING / ORDER BY expression → what it reads from a bucket. */
  refOf(node: AstNode, clause: string): { ref: Ref; type: string; text: string } {
    const { ctx } = this;
    const resolved = this.resolveAlias(node);
    if (resolved.type === 'function' && FUNCTION_AGGREGATES.has(functionName(resolved))) {
      const metric = this.metricFor(resolved, clause);
      return { ref: metric.ref, type: metric.type, text: metric.text };
    }
    if (resolved.type === 'aggr_func') {
      const name = String(resolved.name).toUpperCase();
      if (!AGGREGATES.has(name))
        throw sqlError(
          ErrorCode.UnsupportedSql,
          `Aggregate [${name}] is not supported.`,
          clause,
          positionOf(ctx.sql, resolved, name),
        );
      const metric = this.metricFor(resolved, clause);
      return { ref: metric.ref, type: metric.type, text: metric.text };
    }
    const key = this.keyFor(resolved);
    if (key !== undefined) return { ref: { key: key.id }, type: key.type, text: key.text };
    // A computed value over the group (an unknown function is refused where it is compiled); a
    // grouping function that is not one of the GROUP BY keys is not grouped.
    const grouping = resolved.type === 'function' && GROUPING_FUNCTIONS.has(functionName(resolved));
    if (!grouping && COMPUTED.has(String(resolved.type))) return this.expressionOf(resolved, clause);
    throw this.notGrouped(resolved, clause);
  }

  private notGrouped(node: AstNode, clause: string): Error {
    const shown = textOf(this.ctx, node) ?? 'expression';
    return sqlError(
      ErrorCode.InvalidQuery,
      `Cannot use non-grouped column [${shown}], expected [${this.keys.map((k) => k.text).join(', ')}].`,
      clause,
      positionOf(this.ctx.sql, node, shown.split('.').pop()),
    );
  }

  /**
   * An expression over a group's aggregates and keys (SUM(Fee) / 1000000.0, COUNT(*) * 2,
   * ROUND(AVG(_Fee), 6)): compiled as the SELECT list's expressions are, each aggregate or key a
   * leaf read from the bucket, evaluated by the service on each group (no script). A column that
   * is neither grouped nor aggregated is refused as in any SQL engine.
   */
  private expressionOf(node: AstNode, clause: string): { ref: Ref; type: string; text: string } {
    const refs: Ref[] = [];
    const leaf = (n: AstNode): { expr: { col: string; type: string }; type: string } | undefined => {
      if (n === node) return undefined;
      const isAggregate = (n.type === 'function' && FUNCTION_AGGREGATES.has(functionName(n))) || n.type === 'aggr_func';
      const key = isAggregate ? undefined : this.keyFor(this.resolveAlias(n));
      if (!isAggregate && key === undefined) {
        if (isColumn(n)) throw this.notGrouped(n, clause);
        return undefined;
      }
      const { ref, type } = this.refOf(n, clause);
      refs.push(ref);
      return { expr: { col: `\u0000${refs.length - 1}`, type }, type };
    };
    const { expr, type } = compileExpr({ ...this.ctx, leaf }, node);
    if (refs.length === 0) throw this.notGrouped(node, clause);
    return { ref: { expr, refs }, type, text: textOf(this.ctx, node) ?? 'expression' };
  }

  /** The SELECT list: each item's column and what it reads of a bucket. */
  select(items: readonly { expr: AstNode; as?: string | null }[]): { columns: Column[]; outputs: Ref[] } {
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
          positionOf(this.ctx.sql, null, '*'),
        );
      const { ref, type, text } = this.refOf(item.expr, 'SELECT');
      columns.push({ name: typeof item.as === 'string' ? item.as : displayName(this.ctx, item.expr, text), type });
      outputs.push(ref);
    }
    return { columns, outputs };
  }

  /**
   * ORDER BY: by an aggregate, an order of the buckets in memory (LIMIT or the group count bounded); by group keys
   * only, the keys' directions in the composite (in GROUP BY order).
   */
  orderOf(
    orderBy: readonly OrderByItem[],
    limit: number | undefined,
    offset: number,
  ): { order?: OrderKey[]; directions: Map<string, KeyDirection> } {
    const directions = new Map<string, KeyDirection>();
    const byAggregate = orderBy.some((o) => !('key' in this.refOf(o.expr, 'ORDER BY').ref));
    if (byAggregate) {
      // Without LIMIT, every group is sorted (refused past MAX_IN_MEMORY_ORDER groups, when read).
      if (limit !== undefined && limit + offset > MAX_IN_MEMORY_ORDER)
        throw sqlError(
          ErrorCode.QueryLimitExceeded,
          `ORDER BY an aggregate takes LIMIT (with OFFSET) of at most ${MAX_IN_MEMORY_ORDER} in all.`,
          'ORDER BY',
          positionOf(this.ctx.sql, null, 'ORDER BY') ?? positionOf(this.ctx.sql, null, 'order by'),
        );
      return {
        order: orderBy.map((o) => ({
          ref: this.refOf(o.expr, 'ORDER BY').ref,
          desc: o.type === 'DESC',
          ...nullsOf(o),
        })),
        directions,
      };
    }
    let last = -1;
    for (const o of orderBy) {
      const ref = this.refOf(o.expr, 'ORDER BY').ref as { key: string };
      const index = this.keys.findIndex((k) => k.id === ref.key);
      if (index <= last)
        throw sqlError(
          ErrorCode.UnsupportedSql,
          'ORDER BY group keys must follow the GROUP BY order.',
          'ORDER BY',
          positionOf(this.ctx.sql, o.expr),
        );
      last = index;
      directions.set(ref.key, { order: o.type === 'DESC' ? 'desc' : 'asc', ...nullsOf(o) });
    }
    return { directions };
  }

  /** The composite aggregation's sources, each key in its direction. */
  sources(
    directions: ReadonlyMap<string, KeyDirection>,
  ): Record<string, estypes.AggregationsCompositeAggregationSource>[] {
    return this.keys.flatMap((k) => {
      if (k.source === undefined) return [];
      const [type, spec] = Object.entries(k.source)[0] as [string, Record<string, unknown>];
      const direction = directions.get(k.id);
      if (direction === undefined) return { [k.id]: { [type]: spec } };
      const missing = direction.nulls === undefined ? {} : { missing_order: direction.nulls };
      return { [k.id]: { [type]: { ...spec, order: direction.order, ...missing } } };
    });
  }

  /** The metrics' aggregations, by id. */
  aggregations(): Record<string, estypes.AggregationsAggregationContainer> {
    const aggs: Record<string, estypes.AggregationsAggregationContainer> = {};
    for (const metric of this.metrics.values()) if (metric.agg !== undefined) aggs[metric.id] = metric.agg;
    return aggs;
  }
}

/** Node types of a computed value over a group (arithmetic, functions, CASE, CAST). */
const COMPUTED = new Set(['binary_expr', 'function', 'case', 'cast', 'unary_expr']);

/** A group key's direction in the composite, and where its missing values go when ORDER BY says so. */
interface KeyDirection {
  order: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}

export function groupsPlan(
  ctx: Context,
  ast: AstNode,
  items: { expr: AstNode; as?: string | null }[],
  groupBy: AstNode[],
  table: IndexKind,
  query: Query,
  limit: number | undefined,
  offset: number,
): GroupsPlan {
  const groups = new GroupsBuilder(ctx, items, groupBy);
  const { columns, outputs } = groups.select(items);
  const havingNode = ast.having as AstNode | null | undefined;
  const having =
    havingNode === null || havingNode === undefined
      ? undefined
      : toCondition(ctx, havingNode, (node, clause) => groups.refOf(node, clause));
  const orderBy = orderByOf(ast);
  const { order, directions } = groups.orderOf(orderBy, limit, offset);
  const split = groups.split(directions);
  return {
    kind: 'groups',
    table,
    columns,
    query,
    sources: groups.sources(directions),
    ...(split === undefined ? {} : { split }),
    metrics: groups.aggregations(),
    outputs,
    ...(having === undefined ? {} : { having }),
    ...(order === undefined ? {} : { order }),
    ...(limit === undefined ? {} : { limit }),
    offset,
  };
}

/** Elasticsearch SQL names an unaliased column after the expression as written. */
export function displayName(ctx: Context, node: AstNode, fallback: string): string {
  if (isColumn(node)) return columnPath(node, ctx.tableNames);
  const start = (node as { loc?: { start?: { offset: number } } }).loc?.start?.offset;
  const end = (node as { loc?: { end?: { offset: number } } }).loc?.end?.offset;
  if (start !== undefined && end !== undefined) return ctx.sql.slice(start, end).trim();
  const written = sqlOf(node);
  return written === undefined ? fallback : asWritten(ctx.sql, written);
}
