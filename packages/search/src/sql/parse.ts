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
  return at < 0 ? undefined : positionAt(sql, at);
}

/** The line and column (both from 1) of a character offset of the SQL text (pure). */
export function positionAt(sql: string, at: number): Position {
  const before = sql.slice(0, at);
  return { line: before.split('\n').length, column: at - before.lastIndexOf('\n') };
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
 * Elasticsearch SQL's spellings the parser does not know, written as ones it does, each in text of
 * the same length so every position and every expression's text (a column's name) stays as
 * written: plural interval units (`INTERVAL 30 DAYS`), weeks (as days), `INTERVAL 'y-m' YEAR TO
 * MONTH` (as its months), and the cast types LONG, SHORT, BYTE, KEYWORD and STRING. String literals and quoted
 * names are left alone (pure).
 */
export function dialectOf(sql: string): string {
  return sql.replace(DIALECT, (match: string, ...groups: (string | undefined)[]) => {
    const [weeks, plural, sign, years, months, cast] = groups;
    if (weeks !== undefined) return `INTERVAL ${Number(weeks) * 7} DAY`.padEnd(match.length, ' ');
    if (plural !== undefined) return `${match.slice(0, -1)} `;
    if (years !== undefined && months !== undefined) {
      const total = (sign === '-' ? -1 : 1) * (Number(years) * 12 + Number(months));
      return `INTERVAL '${total}' MONTH`.padEnd(match.length, ' ');
    }
    if (cast !== undefined)
      return `${match.slice(0, match.length - cast.length)}${CAST_SPELLINGS[cast.toUpperCase()] ?? cast}`;
    return match;
  });
}

/**
 * An expression's text written back by the parser (where it kept no location), with the cast
 * types dialectOf respelled as the query wrote them: `CAST(Fee AS LONG)`, not `AS INT8` (pure).
 */
export function asWritten(sql: string, text: string): string {
  let out = text;
  for (const [type, spelling] of Object.entries(CAST_SPELLINGS)) {
    const respelled = spelling.trim();
    if (new RegExp(`\\bAS\\s+${type}\\b`, 'i').test(sql) && !new RegExp(`\\bAS\\s+${respelled}\\b`, 'i').test(sql))
      out = out.replace(new RegExp(`\\bAS ${respelled}\\)`, 'gi'), `AS ${type})`);
  }
  return out;
}

/** Cast types of Elasticsearch SQL the parser lacks, as same-length types it reads the same way. */
const CAST_SPELLINGS: Readonly<Record<string, string>> = {
  LONG: 'INT8',
  SHORT: 'INT8 ',
  BYTE: 'INT8',
  KEYWORD: 'VARCHAR',
  STRING: 'TEXT  ',
};

const DIALECT = new RegExp(
  [
    // String literals and quoted names, kept as they are.
    `'(?:[^']|'')*'`,
    `"(?:[^"]|"")*"`,
    // INTERVAL 2 WEEKS (the parser has no weeks): as days.
    `\\bINTERVAL\\s+'?(\\d{1,9})'?\\s+WEEKS?\\b`,
    // INTERVAL 30 DAYS, INTERVAL '30' DAYS.
    `\\bINTERVAL\\s+(?:'[^']*'|[-+]?\\d+)\\s+(YEAR|MONTH|DAY|HOUR|MINUTE|SECOND)S\\b`,
    // INTERVAL '1-6' YEAR TO MONTH.
    `\\bINTERVAL\\s+'([-+]?)(\\d{1,6})-(\\d{1,2})'\\s+YEAR\\s+TO\\s+MONTH\\b`,
    // CAST(x AS LONG) and the other types.
    `\\bAS\\s+(LONG|SHORT|BYTE|KEYWORD|STRING)\\b(?=\\s*\\))`,
  ].join('|'),
  'gi',
);

/**
 * Elasticsearch SQL features the parser cannot read, named when a query uses them (they would
 * otherwise be a syntax error at some character): each with what to write instead.
 */
const NAMED_REFUSALS: { pattern: RegExp; clause: string; message: string }[] = [
  { pattern: /(?<=\bSELECT\s+)TOP\s+\d+/i, clause: 'SELECT', message: 'SELECT TOP n is not supported; write LIMIT n.' },
  {
    pattern: /\bPIVOT\s*\(/i,
    clause: 'PIVOT',
    message: 'PIVOT is not supported; GROUP BY both columns and read one row per pair.',
  },
  {
    pattern: /^\s*SYS\b/i,
    clause: 'SYS',
    message: 'SYS commands are not supported; use SHOW TABLES, DESCRIBE <table> or SHOW FUNCTIONS.',
  },
  {
    pattern: /\bRLIKE\b/i,
    clause: 'WHERE',
    message: "RLIKE (regular expressions) is not supported; use LIKE, or QUERY('field:/regex/') for a Lucene regex.",
  },
];

/** The SQL with its string literals blanked (same length), so a keyword inside a string is not read. */
function withoutStrings(sql: string): string {
  return sql.replace(/'(?:[^']|'')*'/g, (s) => ' '.repeat(s.length));
}

/** What the parser reports of a syntax error: where, and what it could have read there. */
interface ParserError {
  location?: { start?: Position & { offset?: number } };
  expected?: { type: string; text?: string; description?: string }[] | null;
}

/** Parser expectations that say nothing to a reader (comments, character classes). */
const NOT_SAID = new Set(['/*', '--', '"', "'", '`']);

/**
 * A syntax error as a reader can act on it: the line and column, the whole token found there (or
 * the end of the query), and what could have come instead (at most 16, then "…"); `SELECT FROM`
 * is called out (pure).
 */
export function syntaxError(sql: string, error: ParserError): BadRequestError {
  const start = error.location?.start;
  const position = start === undefined ? undefined : { line: start.line, column: start.column };
  if (/^\s*SELECT\s+FROM\b/i.test(sql))
    return sqlError(
      ErrorCode.InvalidQuery,
      'SELECT needs its columns before FROM: SELECT * FROM … or SELECT hash FROM ….',
      'SELECT',
      positionOf(sql, null, sql.match(/FROM/i)?.[0]),
    );
  const code = withoutStrings(sql);
  const named = NAMED_REFUSALS.find((r) => r.pattern.test(code));
  if (named !== undefined)
    return sqlError(ErrorCode.UnsupportedSql, named.message, named.clause, positionAt(sql, code.search(named.pattern)));
  const quotes = [...sql.matchAll(/'/g)];
  if (quotes.length % 2 === 1)
    return sqlError(
      ErrorCode.InvalidQuery,
      "Syntax error: a string literal is not closed (a missing ').",
      'query',
      positionAt(sql, (quotes[quotes.length - 1] as RegExpMatchArray).index ?? 0),
    );
  const rest = start?.offset === undefined ? '' : sql.slice(start.offset);
  const token = /^(?:[A-Za-z_][\w.]*|\d+(?:\.\d+)?|'[^']*'?|"[^"]*"?|\S)/.exec(rest)?.[0];
  const found = token === undefined ? 'the end of the query' : `"${token}"`;
  const expected = [
    ...new Set(
      (error.expected ?? [])
        .filter((e) => e.type === 'literal' && e.text !== undefined && !NOT_SAID.has(e.text))
        .map((e) => (/^[a-z_]+$/i.test(e.text as string) ? (e.text as string).toUpperCase() : (e.text as string))),
    ),
  ];
  const listed = expected.length > 16 ? `${expected.slice(0, 16).join(', ')}, …` : expected.join(', ');
  return sqlError(
    ErrorCode.InvalidQuery,
    `Syntax error: found ${found}${listed === '' ? '' : `, expected ${listed}`}.`,
    'query',
    position,
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
    ast = parser.astify(dialectOf(sql), { database: 'postgresql', parseOptions: { includeLocations: true } });
  } catch (error) {
    throw syntaxError(sql, error as ParserError);
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
