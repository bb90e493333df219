// Resolving columns against a table's mapping: which engine field a column is, and literal values for it (pure).
import { ErrorCode, type IndexKind } from '@xle/core';
import { positionOf, sqlError, type AstNode } from './parse.js';
import { NUMERIC, SELECTABLE, type FieldInfo, type TableSchema } from './schema.js';
import { columnPath, functionName, isColumn, literal } from './ast.js';
import { closestNames } from '../closest.js';

export type Schemas = (table: IndexKind) => TableSchema;

export interface Context {
  sql: string;
  schema: TableSchema;
  tableNames: Set<string>;
  /** The instant NOW() and CURRENT_DATE stand for (ms since the epoch): the first page's, kept by its cursor. */
  now: number;
  /**
   * Where an expression's leaves come from when it is not a row's (a grouped query: its
   * aggregates and group keys), tried on every node before compiling it; undefined: compile it.
   */
  leaf?: (node: AstNode) => { expr: { col: string; type: string }; type: string } | undefined;
  /** What the translation noticed that is valid but likely not meant (sent as Warning headers). */
  warnings?: string[];
}

const NOW_FUNCTIONS = new Set(['NOW', 'CURRENT_TIMESTAMP']);
const TODAY_FUNCTIONS = new Set(['CURRENT_DATE', 'TODAY']);

/** Months added as calendars do: the day clamped to the target month's last (31 March - 1 month = 28 February). */
function addMonths(at: Date, months: number): Date {
  const target = new Date(at.getTime());
  const day = at.getUTCDate();
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, last));
  return target;
}

/** Adds n units to an instant, in UTC calendar arithmetic for months and years (pure). */
function shift(at: Date, n: number, unit: string): Date | undefined {
  const d = new Date(at.getTime());
  switch (unit.toLowerCase().replace(/s$/, '')) {
    case 'second':
      return new Date(d.getTime() + n * 1000);
    case 'minute':
      return new Date(d.getTime() + n * 60_000);
    case 'hour':
      return new Date(d.getTime() + n * 3_600_000);
    case 'day':
      return new Date(d.getTime() + n * 86_400_000);
    case 'week':
      return new Date(d.getTime() + n * 7 * 86_400_000);
    case 'month':
      return addMonths(d, n);
    case 'year':
      return addMonths(d, n * 12);
    default:
      return undefined;
  }
}

/**
 * The instant a relative date stands for: NOW() / CURRENT_TIMESTAMP, CURRENT_DATE / TODAY() (its
 * midnight UTC), each ± INTERVAL n unit; undefined for anything else (pure).
 */
export function relativeInstant(ctx: Context, node: AstNode): Date | undefined {
  if (node.type === 'function') {
    const name = functionName(node);
    if (NOW_FUNCTIONS.has(name)) return new Date(ctx.now);
    if (TODAY_FUNCTIONS.has(name)) return new Date(Math.floor(ctx.now / 86_400_000) * 86_400_000);
    return undefined;
  }
  if (node.type !== 'binary_expr' || (node.operator !== '+' && node.operator !== '-')) return undefined;
  const base = relativeInstant(ctx, node.left as AstNode);
  const interval = node.right as { type?: string; expr?: AstNode; unit?: string } | undefined;
  if (base === undefined || interval?.type !== 'interval' || interval.expr === undefined) return undefined;
  const amount = Number(literal(interval.expr));
  if (!Number.isInteger(amount))
    throw sqlError(ErrorCode.InvalidQuery, 'INTERVAL takes a whole number.', 'WHERE', positionOf(ctx.sql, node));
  const shifted = shift(base, node.operator === '-' ? -amount : amount, String(interval.unit ?? ''));
  if (shifted !== undefined && Number.isNaN(shifted.getTime()))
    throw sqlError(
      ErrorCode.InvalidQuery,
      'The INTERVAL reaches past the dates this API can compare (±270,000 years).',
      'WHERE',
      positionOf(ctx.sql, node),
    );
  if (shifted === undefined)
    throw sqlError(
      ErrorCode.InvalidQuery,
      `INTERVAL takes SECOND, MINUTE, HOUR, DAY, WEEK, MONTH or YEAR, not [${String(interval.unit)}].`,
      'WHERE',
      positionOf(ctx.sql, node),
    );
  return shifted;
}

/** An unknown column's refusal: the closest columns, or a double-quoted string meant as a literal. */
function unknownColumn(ctx: Context, path: string): string {
  const quoted = ctx.sql.includes(`"${path}"`);
  const closest = closestNames(
    path,
    [...ctx.schema.keys()].filter((k) => SELECTABLE.has((ctx.schema.get(k) as FieldInfo).type)),
  );
  const hints = [
    ...(closest.length > 0 ? [`did you mean ${closest.map((c) => `[${c}]`).join(' or ')}?`] : []),
    ...(quoted ? [`a double-quoted "${path}" names a column; write the string '${path}' in single quotes`] : []),
  ];
  const text = `Unknown column [${path}]${hints.length > 0 ? `; ${hints.join('; ')}` : ''}`;
  return text.endsWith('?') ? text : `${text}.`;
}

export function resolveField(
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
        : unknownColumn(ctx, path),
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
export function exactField(
  ctx: Context,
  node: AstNode,
  clause: string,
  written?: string,
): { path: string; info: FieldInfo } {
  const field = resolveField(ctx, node, clause, written);
  if (field.info.type !== 'text') return field;
  if (field.info.exact === undefined)
    throw sqlError(
      ErrorCode.InvalidQuery,
      `No keyword/multi-field defined exact matches for [${field.path}]; define one or use MATCH/QUERY instead.`,
      clause,
      positionOf(ctx.sql, node, field.path),
    );
  return { path: field.info.exact, info: { type: 'keyword', searchable: true } };
}

export function valueFor(ctx: Context, node: AstNode, info: FieldInfo, clause: string): string | number | boolean {
  const relative = relativeInstant(ctx, node);
  if (relative !== undefined) {
    if (info.type !== 'date' && info.type !== 'date_nanos')
      throw sqlError(
        ErrorCode.InvalidQuery,
        `NOW(), CURRENT_DATE and INTERVAL compare with dates, not [${info.type}].`,
        clause,
        positionOf(ctx.sql, node),
      );
    return relative.toISOString();
  }
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
  if ((info.type === 'date' || info.type === 'date_nanos') && typeof value === 'string') {
    // An instant, as in any SQL engine: a date alone is its midnight UTC. The engine's own parsing
    // would round a date-only bound (`= '2015-01-14'` matching the whole day, `<=` its end).
    const instant = new Date(value);
    if (Number.isNaN(instant.getTime()))
      throw sqlError(ErrorCode.InvalidQuery, `[${value}] is not a date.`, clause, positionOf(ctx.sql, node, value));
    return instant.toISOString();
  }
  return value;
}

/** Canonical text of an expression, used to match SELECT, GROUP BY, HAVING and ORDER BY items. */
export function textOf(ctx: Context, node: AstNode): string | undefined {
  if (isColumn(node)) return columnPath(node, ctx.tableNames);
  return undefined;
}
