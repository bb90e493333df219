import sqlParser from 'node-sql-parser';
import { BadRequestError, ErrorCode } from '@xle/core';

const { Parser } = sqlParser;
const parser = new Parser();

/** A node of node-sql-parser's AST, read defensively: only the fields this package uses are typed. */
export interface AstNode {
  type?: string;
  [key: string]: unknown;
}

export interface Position {
  line: number;
  column: number;
}

/** An expression written back as SQL text (where the parser kept no location for it). */
export function sqlOf(node: AstNode): string | undefined {
  try {
    return parser.exprToSQL(node as never, { database: 'postgresql' });
  } catch {
    return undefined;
  }
}

/** The longest SQL text accepted; longer texts are refused before parsing. */
export const MAX_SQL_LENGTH = 16 * 1024;

/** Deepest parenthesis nesting accepted: the parser recurses per level. */
export const MAX_NESTING = 32;

/** Parenthesis depth outside string literals and quoted identifiers (pure). */
export function nestingDepth(sql: string): number {
  let depth = 0;
  let max = 0;
  let quote: string | undefined;
  for (const ch of sql) {
    if (quote !== undefined) {
      if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(') max = Math.max(max, ++depth);
    else if (ch === ')') depth -= 1;
  }
  return max;
}

/** Statement types that change data or schema: refused as forbidden, not merely unsupported. */
const WRITES = new Set([
  'insert',
  'replace',
  'update',
  'delete',
  'drop',
  'create',
  'alter',
  'truncate',
  'rename',
  'grant',
  'revoke',
  'lock',
  'unlock',
  'call',
  'exec',
  'set',
  'use',
  'load_data',
]);

/** Where a clause starts, from the parser's locations or, failing that, the first occurrence of its text. */
export function positionOf(sql: string, node: unknown, fallbackText?: string): Position | undefined {
  const loc = (node as { loc?: { start?: { line: number; column: number } } } | undefined)?.loc?.start;
  if (loc !== undefined) return { line: loc.line, column: loc.column };
  if (fallbackText === undefined || fallbackText === '') return undefined;
  const at = sql.indexOf(fallbackText);
  if (at < 0) return undefined;
  const before = sql.slice(0, at);
  const line = before.split('\n').length;
  return { line, column: at - before.lastIndexOf('\n') };
}

export function sqlError(code: string, message: string, clause: string, position?: Position): BadRequestError {
  const where = position === undefined ? '' : `line ${position.line}:${position.column}: `;
  return new BadRequestError(
    `${where}${message}`,
    position === undefined ? { clause } : { clause, line: position.line, column: position.column },
    code,
  );
}

/**
 * Parses one SELECT statement. Several statements, writes and DDL, and anything but a plain SELECT
 * are refused here with the clause and position (pure).
 */
export function parseSelect(sql: string): AstNode {
  if (sql.length > MAX_SQL_LENGTH)
    throw sqlError(ErrorCode.QueryLimitExceeded, `The query is longer than ${MAX_SQL_LENGTH} characters.`, 'query');
  if (sql.trim() === '') throw sqlError(ErrorCode.InvalidQuery, 'The query is empty.', 'query');
  const depth = nestingDepth(sql);
  if (depth > MAX_NESTING)
    throw sqlError(
      ErrorCode.QueryLimitExceeded,
      `The query nests parentheses ${depth} deep; at most ${MAX_NESTING} are allowed.`,
      'query',
    );
  let ast: unknown;
  try {
    ast = parser.astify(sql, { database: 'postgresql', parseOptions: { includeLocations: true } });
  } catch (error) {
    const location = (error as { location?: { start?: Position } }).location?.start;
    const found = /but (.+?) found/.exec((error as Error).message)?.[1];
    throw sqlError(
      ErrorCode.InvalidQuery,
      `Syntax error${found === undefined ? '' : ` at ${found}`}.`,
      'query',
      location === undefined ? undefined : { line: location.line, column: location.column },
    );
  }
  const statements = Array.isArray(ast) ? (ast as AstNode[]) : [ast as AstNode];
  for (const statement of statements) {
    const type = String(statement.type ?? '').toLowerCase();
    if (WRITES.has(type))
      throw sqlError(
        ErrorCode.ForbiddenQuery,
        `${type.toUpperCase()} statements are not allowed: the SQL API is read-only.`,
        'statement',
        positionOf(sql, statement, type.toUpperCase()),
      );
  }
  if (statements.length !== 1)
    throw sqlError(ErrorCode.UnsupportedSql, 'Only one statement per query is allowed.', 'statement');
  const select = statements[0] as AstNode;
  if (select.type !== 'select')
    throw sqlError(
      ErrorCode.UnsupportedSql,
      `Only SELECT, SHOW TABLES, DESCRIBE <table> (SHOW COLUMNS FROM <table>) and SHOW FUNCTIONS are supported, not ${String(select.type).toUpperCase()}.`,
      'statement',
    );
  if (select._next !== undefined && select._next !== null)
    throw sqlError(ErrorCode.UnsupportedSql, 'UNION, INTERSECT and EXCEPT are not supported.', 'statement');
  return select;
}
