// SELECT of rows and ORDER BY: the plan of an ungrouped query (pure).
import type { estypes } from '@elastic/elasticsearch';
import { ErrorCode, type IndexKind } from '@xle/core';
import { positionOf, sqlError, type AstNode } from './parse.js';
import { SELECTABLE, sqlTypeOf } from './schema.js';
import { columnPath, functionName, isColumn } from './ast.js';
import { type Context, exactField, resolveField } from './fields.js';
import type { Column, RowsPlan } from './plan.js';
import { type Query } from './where.js';

export function rowsPlan(
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
