// Reading node-sql-parser's AST: column paths, literals, function names and arguments (pure).
import type { AstNode } from './parse.js';

export const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The identifier text of a column reference (`Amount._value`, `meta.TransactionResult`). */
export function columnPath(node: AstNode, tableNames: Set<string>): string {
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
export function literal(node: AstNode | undefined): string | number | boolean | null | undefined {
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
    case 'cast': {
      // CAST('2020-01-01' AS DATETIME), CAST('12' AS INTEGER): a literal still.
      const inner = literal(node.expr as AstNode | undefined);
      const target = String((node.target as { dataType?: string }[] | undefined)?.[0]?.dataType ?? '').toUpperCase();
      if (inner === undefined || inner === null) return inner;
      if (/INT|LONG|SHORT|BYTE|DOUBLE|FLOAT|REAL|NUMERIC|DECIMAL/.test(target)) {
        const n = Number(inner);
        return Number.isFinite(n) ? (/INT|LONG|SHORT|BYTE/.test(target) ? Math.trunc(n) : n) : undefined;
      }
      if (/BOOL/.test(target)) return typeof inner === 'boolean' ? inner : undefined;
      return String(inner);
    }
    case 'unary_expr': {
      // -1.5 arrives as unary minus applied to 1.5.
      const inner = literal(node.expr as AstNode | undefined);
      return node.operator === '-' && typeof inner === 'number' ? -inner : undefined;
    }
    default:
      return undefined;
  }
}

export function functionName(node: AstNode): string {
  const name = node.name as { name?: { value?: string }[] } | string | undefined;
  if (typeof name === 'string') return name.toUpperCase();
  return String(name?.name?.map((n) => n.value).join('.') ?? '').toUpperCase();
}

export function functionArgs(node: AstNode): AstNode[] {
  const args = node.args as { value?: AstNode[] } | AstNode | undefined;
  if (args === undefined || args === null) return [];
  if (Array.isArray((args as { value?: unknown }).value)) return (args as { value: AstNode[] }).value;
  return [args as AstNode];
}

export const isColumn = (node: AstNode | undefined): node is AstNode & { type: 'column_ref' } =>
  node?.type === 'column_ref';

/** Aggregates the parser reads as plain functions (it knows COUNT, SUM, AVG, MIN and MAX as such). */
export const FUNCTION_AGGREGATES = new Set([
  'PERCENTILE',
  'PERCENTILE_RANK',
  'STDDEV_POP',
  'STDDEV_SAMP',
  'VAR_POP',
  'VAR_SAMP',
  'SUM_OF_SQUARES',
]);

export function containsAggregate(node: AstNode | undefined): boolean {
  if (node === undefined || node === null || typeof node !== 'object') return false;
  if (node.type === 'aggr_func') return true;
  if (node.type === 'function' && FUNCTION_AGGREGATES.has(functionName(node))) return true;
  return Object.values(node).some((v) =>
    Array.isArray(v)
      ? v.some((x) => containsAggregate(x as AstNode))
      : typeof v === 'object' && containsAggregate(v as AstNode),
  );
}

/** One key of ORDER BY as the parser gives it: the expression, ASC / DESC, NULLS FIRST / LAST. */
export interface OrderByItem {
  expr: AstNode;
  type?: string | null;
  nulls?: string | null;
}

/** The ORDER BY keys of a SELECT (none when it has no ORDER BY) (pure). */
export function orderByOf(ast: AstNode): OrderByItem[] {
  return (ast.orderby as OrderByItem[] | null | undefined) ?? [];
}

/** ORDER BY's NULLS FIRST / NULLS LAST of one key, when written (pure). */
export function nullsOf(order: { nulls?: unknown }): { nulls?: 'first' | 'last' } {
  const nulls = typeof order.nulls === 'string' ? order.nulls.toUpperCase().replace(/\s+/g, ' ') : '';
  if (nulls === 'NULLS FIRST') return { nulls: 'first' };
  if (nulls === 'NULLS LAST') return { nulls: 'last' };
  return {};
}
