// Resolving columns against a table's mapping: which engine field a column is, and literal values for it (pure).
import { ErrorCode, type IndexKind } from '@xle/core';
import { positionOf, sqlError, type AstNode } from './parse.js';
import { NUMERIC, SELECTABLE, type FieldInfo, type TableSchema } from './schema.js';
import { columnPath, isColumn, literal } from './ast.js';
import { closestNames } from '../closest.js';

export type Schemas = (table: IndexKind) => TableSchema;

export interface Context {
  sql: string;
  schema: TableSchema;
  tableNames: Set<string>;
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
