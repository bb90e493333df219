// SELECT of rows and ORDER BY: the plan of an ungrouped query (pure).
import type { estypes } from '@elastic/elasticsearch';
import { ErrorCode, type IndexKind } from '@xle/core';
import { positionOf, sqlError, type AstNode } from './parse.js';
import { SELECTABLE, sqlTypeOf } from './schema.js';
import { columnPath, isColumn, nullsOf, orderByOf } from './ast.js';
import { compileExpr, type Expr } from './expressions.js';
import { displayName } from './group-by.js';
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
  const values: Expr[] = [];
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
        values.push({ col: path, type: info.type });
      }
      continue;
    }
    if (!isColumn(expr)) {
      // An expression: evaluated by the service on each row (no engine script).
      const { expr: compiled, type } = compileExpr(ctx, expr);
      columns.push({ name: typeof item.as === 'string' ? item.as : displayName(ctx, expr, 'expression'), type });
      values.push(compiled);
      continue;
    }
    const { path, info } = resolveField(ctx, expr, 'SELECT');
    const name = typeof item.as === 'string' ? item.as : path;
    if (typeof item.as === 'string') aliases.set(item.as, path);
    columns.push({ name, type: sqlTypeOf(info.type) });
    values.push({ col: path, type: info.type });
  }
  const sort: estypes.SortCombinations[] = [];
  for (const order of orderByOf(ast)) {
    const expr = order.expr;
    if (!isColumn(expr))
      throw sqlError(ErrorCode.UnsupportedSql, 'ORDER BY takes columns.', 'ORDER BY', positionOf(ctx.sql, expr));
    const written = columnPath(expr, ctx.tableNames);
    const aliased = aliases.get(written);
    const target = exactField(ctx, expr, 'ORDER BY', aliased);
    const { nulls } = nullsOf(order);
    const missing = nulls === undefined ? {} : { missing: nulls === 'first' ? '_first' : '_last' };
    sort.push({ [target.path]: { order: order.type === 'DESC' ? 'desc' : 'asc', ...missing } });
  }
  return { kind: 'rows', table, columns, values, query, sort, ...(limit === undefined ? {} : { limit }), offset };
}
