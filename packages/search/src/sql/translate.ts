// SQL text to a plan: parse, refuse what is outside the subset, then FROM, LIMIT and the clause translators.
import { ErrorCode, type IndexKind } from '@xle/core';
import { parseSelect, positionOf, sqlError, type AstNode } from './parse.js';
import { containsAggregate, literal, orderByOf, str } from './ast.js';
import type { Context, Schemas } from './fields.js';
import { groupsPlan } from './group-by.js';
import { type Plan, TABLES } from './plan.js';
import { tableNamed } from './show.js';
import { rowsPlan } from './select.js';
import { type Query, toQuery, wrapQuery } from './where.js';

const present = (value: unknown): boolean => value !== null && value !== undefined;

/** Clauses outside the supported subset, with the refusal each gets and the keyword it is found by. */
const REFUSED_CLAUSES: {
  found: (ast: AstNode) => boolean;
  code: string;
  message: string;
  clause: string;
  keyword?: string;
}[] = [
  {
    found: (ast) => present((ast.distinct as { type?: string } | null | undefined)?.type),
    code: ErrorCode.UnsupportedSql,
    message: 'SELECT DISTINCT is not supported; use GROUP BY.',
    clause: 'SELECT',
    keyword: 'DISTINCT',
  },
  {
    found: (ast) => present(ast.with),
    code: ErrorCode.UnsupportedSql,
    message: 'WITH is not supported.',
    clause: 'WITH',
  },
  {
    found: (ast) => present((ast.into as { position?: unknown } | null | undefined)?.position),
    code: ErrorCode.ForbiddenQuery,
    message: 'SELECT INTO writes data and is not allowed.',
    clause: 'INTO',
  },
  {
    found: (ast) => present(ast.window),
    code: ErrorCode.UnsupportedSql,
    message: 'Window functions are not supported.',
    clause: 'WINDOW',
  },
  {
    found: (ast) => present(ast.locking_read),
    code: ErrorCode.ForbiddenQuery,
    message: 'Locking reads are not allowed.',
    clause: 'FOR',
  },
];

function checkUnsupportedClauses(sql: string, ast: AstNode): void {
  for (const refused of REFUSED_CLAUSES)
    if (refused.found(ast))
      throw sqlError(
        refused.code,
        refused.message,
        refused.clause,
        positionOf(sql, null, refused.keyword ?? refused.clause),
      );
}

/** The table a SELECT reads (a 400 naming the closest table when it is unknown). */
export function tableOf(sql: string, ast: AstNode): { kind: IndexKind; names: Set<string> } {
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
  if (table.db !== null && table.db !== undefined)
    throw sqlError(
      ErrorCode.InvalidQuery,
      `Unknown table [${str(table.db)}.${name}]; tables have no schema: ${Object.keys(TABLES).join(', ')}.`,
      'FROM',
      positionOf(sql, table, name),
    );
  const { kind } = tableNamed(name, 'FROM', positionOf(sql, table, name));
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
  // `OFFSET m` alone (no LIMIT): every row after the first m. `LIMIT ALL`: no limit.
  const offsetOnly = limit?.seperator === 'offset' && values.length === 1;
  const all = (v: AstNode | undefined): boolean => v?.type === 'origin' && String(v.value).toLowerCase() === 'all';
  const numbers = values.map((v, i) => (i === 0 && !offsetOnly && all(v) ? undefined : literal(v)));
  for (const n of numbers.filter((n, i) => !(i === 0 && !offsetOnly && n === undefined))) {
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0)
      throw sqlError(
        ErrorCode.InvalidQuery,
        'LIMIT and OFFSET take non-negative integers.',
        'LIMIT',
        positionOf(sql, null, 'LIMIT'),
      );
  }
  if (offsetOnly) return { offset: numbers[0] as number };
  const first = numbers[0] as number | undefined;
  return { ...(first === undefined ? {} : { limit: first }), offset: (numbers[1] as number | undefined) ?? 0 };
}

/**
 * ORDER BY 2, GROUP BY 2: the second column of the SELECT list, rewritten in place (ORDER BY by
 * its alias when it has one, so the row and group orderings read it as written; GROUP BY by its
 * expression); a 400 for a position outside the list or a list of `*`.
 */
function selectPositions(sql: string, ast: AstNode, items: readonly { expr: AstNode; as?: string | null }[]): void {
  const itemAt = (node: AstNode, clause: string, byAlias: boolean): AstNode => {
    if (node.type !== 'number') return node;
    const position = Number(node.value);
    const star = items.some((i) => (i.expr.column as unknown) === '*');
    const item = items[position - 1];
    if (!Number.isInteger(position) || item === undefined || star)
      throw sqlError(
        ErrorCode.InvalidQuery,
        star
          ? `${clause} a position needs a list of columns, not *.`
          : `${clause} ${position}: the SELECT list has ${items.length} column${items.length === 1 ? '' : 's'}.`,
        clause,
        positionOf(sql, node, clause),
      );
    return byAlias && typeof item.as === 'string'
      ? { type: 'column_ref', table: null, column: { expr: { type: 'default', value: item.as } } }
      : item.expr;
  };
  for (const order of orderByOf(ast)) order.expr = itemAt(order.expr, 'ORDER BY', true);
  const groupBy = (ast.groupby as { columns?: AstNode[] } | null | undefined)?.columns;
  groupBy?.forEach((node, i) => {
    groupBy[i] = itemAt(node, 'GROUP BY', false);
  });
}

/** A SELECT parsed once: its syntax tree and the table it reads, before that table's mapping is needed. */
export interface ParsedSelect {
  sql: string;
  ast: AstNode;
  table: IndexKind;
}

/** Parses a SELECT of the supported subset and names its table (pure; a 400 naming the clause and position). */
export function parseSql(sql: string): ParsedSelect {
  const ast = parseSelect(sql);
  checkUnsupportedClauses(sql, ast);
  return { sql, ast, table: tableOf(sql, ast).kind };
}

/**
 * Translates one SELECT of the supported subset into a plan: the engine query, sort, composite
 * sources and metrics, plus what is evaluated in memory (HAVING, ordering by an aggregate). Pure:
 * `schemas` gives the mapping of each table, `now` the instant NOW() and CURRENT_DATE stand for. Throws a 400 naming the clause and position.
 */
export function translateSql(statement: string | ParsedSelect, schemas: Schemas, now: number = Date.now()): Plan {
  const { sql, ast } = typeof statement === 'string' ? parseSql(statement) : statement;
  const { kind: table, names } = tableOf(sql, ast);
  const warnings: string[] = [];
  const ctx: Context = { sql, schema: schemas(table), tableNames: names, now, warnings };
  const where = ast.where as AstNode | null | undefined;
  const query: Query = where === null || where === undefined ? { match_all: {} } : wrapQuery(toQuery(ctx, where));
  const { limit, offset } = limitOf(sql, ast);
  const items = (ast.columns as { expr: AstNode; as?: string | null }[] | string) ?? [];
  const groupBy = ((ast.groupby as { columns?: AstNode[] } | null | undefined)?.columns ?? []) as AstNode[];
  const selectItems = Array.isArray(items) ? items : [];
  selectPositions(sql, ast, selectItems);
  const hasAggregate =
    selectItems.some((i) => containsAggregate(i.expr)) || (ast.having !== null && ast.having !== undefined);
  const plan =
    groupBy.length === 0 && !hasAggregate
      ? rowsPlan(ctx, ast, selectItems, table, query, limit, offset)
      : groupsPlan(ctx, ast, selectItems, groupBy, table, query, limit, offset);
  return warnings.length === 0 ? plan : { ...plan, warnings };
}
