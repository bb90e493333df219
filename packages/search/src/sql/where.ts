// The WHERE clause: SQL conditions to engine queries; full-text predicates score, the rest filter (pure).
import type { estypes } from '@elastic/elasticsearch';
import { ErrorCode } from '@xle/core';
import { positionOf, sqlError, type AstNode } from './parse.js';
import { functionArgs, functionName, isColumn, literal } from './ast.js';
import { type Context, exactField, resolveField, valueFor } from './fields.js';

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

const FLIP: Record<string, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '=': '=', '!=': '!=', '<>': '<>' };

const RANGE: Record<string, 'lt' | 'lte' | 'gt' | 'gte'> = { '<': 'lt', '<=': 'lte', '>': 'gt', '>=': 'gte' };

export type Query = estypes.QueryDslQueryContainer;

/** NOT of a query; NOT NOT x is x. */
export function not(q: Query): Query {
  const inner = q.bool?.must_not;
  if (q.bool !== undefined && Object.keys(q.bool).length === 1 && Array.isArray(inner) && inner.length === 1)
    return inner[0] as Query;
  return { bool: { must_not: [q] } };
}

/**
 * `path` has a value and `q` does not match: SQL's `x <> v`, `NOT IN`, `NOT LIKE`, `NOT BETWEEN`
 * and `NOT (x > v)`, under which a row whose `x` is NULL is unknown, so not returned (three-valued
 * logic), where the engine's must_not alone would return it.
 */
function negated(path: string, q: Query): Query {
  return { bool: { filter: [{ exists: { field: path } }], must_not: [q] } };
}

/**
 * YEAR(date) compared with whole years, as ranges of the date (no script): `= 2015` is
 * [2015-01-01, 2016-01-01), `> 2015` from 2016-01-01, `<= 2015` before 2016-01-01; IN and BETWEEN
 * too; `<>` and NOT IN keep SQL's NULL rule (a row without the date is never returned).
 */
function yearCondition(
  ctx: Context,
  column: AstNode,
  operator: string,
  right: AstNode,
  clause: string,
  node: AstNode,
): Query {
  const { path, info } = exactField(ctx, column, clause);
  if (info.type !== 'date' && info.type !== 'date_nanos')
    throw sqlError(
      ErrorCode.InvalidQuery,
      `YEAR applies to dates; [${path}] is [${info.type}].`,
      clause,
      positionOf(ctx.sql, node),
    );
  const yearOf = (v: AstNode): number => {
    const value = literal(v);
    const year = typeof value === 'string' ? Number(value) : value;
    if (typeof year !== 'number' || !Number.isInteger(year) || year < 1 || year > 9999)
      throw sqlError(
        ErrorCode.InvalidQuery,
        'YEAR(date) compares with whole years (1 to 9999).',
        clause,
        positionOf(ctx.sql, v),
      );
    return year;
  };
  const start = (year: number): string => `${String(year).padStart(4, '0')}-01-01T00:00:00.000Z`;
  const within = (from: number, to: number): Query => ({ range: { [path]: { gte: start(from), lt: start(to + 1) } } });
  switch (operator) {
    case '=':
      return within(yearOf(right), yearOf(right));
    case '<>':
    case '!=':
      return negated(path, within(yearOf(right), yearOf(right)));
    case '<':
      return { range: { [path]: { lt: start(yearOf(right)) } } };
    case '<=':
      return { range: { [path]: { lt: start(yearOf(right) + 1) } } };
    case '>':
      return { range: { [path]: { gte: start(yearOf(right) + 1) } } };
    case '>=':
      return { range: { [path]: { gte: start(yearOf(right)) } } };
    case 'IN':
    case 'NOT IN': {
      const years = ((right.value as AstNode[] | undefined) ?? []).map(yearOf);
      const any: Query = { bool: { should: years.map((y) => within(y, y)), minimum_should_match: 1 } };
      return operator === 'IN' ? any : negated(path, any);
    }
    case 'BETWEEN':
    case 'NOT BETWEEN': {
      const [low, high] = ((right.value as AstNode[] | undefined) ?? []).map(yearOf) as [number, number];
      return operator === 'BETWEEN' ? within(low, high) : negated(path, within(low, high));
    }
    default:
      throw sqlError(
        ErrorCode.UnsupportedSql,
        `YEAR(date) ${operator} is not supported.`,
        clause,
        positionOf(ctx.sql, node),
      );
  }
}

/** The operand of NOT (`NOT x` or `NOT(x)`), or undefined. */
function negatedOperand(node: AstNode): AstNode | undefined {
  if (node.type === 'unary_expr' && String(node.operator).toUpperCase() === 'NOT') return node.expr as AstNode;
  if (node.type === 'function' && functionName(node) === 'NOT' && functionArgs(node).length === 1)
    return functionArgs(node)[0] as AstNode;
  return undefined;
}

/** The parts of a chain of one operator (`a AND b AND c`), parentheses kept as they group. */
function chain(node: AstNode, op: string): AstNode[] {
  if (node.type === 'binary_expr' && String(node.operator).toUpperCase() === op && node.parentheses !== true)
    return [...chain(node.left as AstNode, op), ...chain(node.right as AstNode, op)];
  return [node];
}

/**
 * The rows where a WHERE expression is false, not unknown (pure): what `NOT expr` returns under
 * SQL's three-valued logic. A comparison is false only where its column has a value; `AND` is false
 * where either side is, `OR` where both are; `IS [NOT] NULL` is never unknown; full-text predicates
 * are false where they do not match.
 */
function toFalseQuery(ctx: Context, node: AstNode): Query {
  const operand = negatedOperand(node);
  if (operand !== undefined) return toQuery(ctx, operand);
  if (node.type === 'binary_expr') {
    const op = String(node.operator).toUpperCase();
    if (op === 'AND' || op === 'OR') {
      const parts = [node.left as AstNode, node.right as AstNode].flatMap((n) => chain(n, op));
      const falses = parts.map((n) => toFalseQuery(ctx, n));
      return op === 'AND' ? { bool: { should: falses, minimum_should_match: 1 } } : { bool: { filter: falses } };
    }
    const q = toQuery(ctx, node);
    if (op === 'IS' || op === 'IS NOT') return not(q);
    const column = [node.left as AstNode, node.right as AstNode].find(isColumn);
    if (column !== undefined) return negated(resolveField(ctx, column, 'WHERE').path, q);
    return not(q);
  }
  return not(toQuery(ctx, node));
}

/**
 * An amount's `.value` compared with a whole number of seven digits or more, where the amount has
 * a drops twin: valid (a token amount can be 300000000), but a drops figure written as XRP finds
 * nothing, so the answer says so (`"Amount.value" = '300000000'` is 300,000,000 XRP).
 */
function dropsLookalike(ctx: Context, path: string, values: readonly AstNode[]): void {
  const drops = `${path.slice(0, -'.value'.length)}._drops`;
  if (!ctx.schema.has(drops)) return;
  for (const node of values) {
    const value = literal(node);
    if ((typeof value === 'string' || typeof value === 'number') && /^\d{7,}$/.test(String(value)))
      ctx.warnings?.push(
        `[${path}] is XRP in XRP, not drops: ${String(value)} there is ${String(value)} XRP (or that many of a token); ` +
          `for drops compare [${drops}] = ${String(value)}`,
      );
  }
}

/** A WHERE expression → an engine query (pure). Full-text predicates score; the rest filter. */
export function toQuery(ctx: Context, node: AstNode): Query {
  const clause = 'WHERE';
  if (node.type === 'unary_expr' && String(node.operator).toUpperCase() === 'NOT') {
    return toFalseQuery(ctx, node.expr as AstNode);
  }
  if (node.type === 'function') {
    const name = functionName(node);
    const args = functionArgs(node);
    if (name === 'NOT' && args.length === 1) return toFalseQuery(ctx, args[0] as AstNode);
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
  const isYear = (n: AstNode): boolean =>
    n.type === 'function' && functionName(n) === 'YEAR' && functionArgs(n).length === 1 && isColumn(functionArgs(n)[0]);
  if (!isYear(left) && isYear(right) && FLIP[op] !== undefined) {
    [left, right] = [right, left];
    operator = FLIP[op] as string;
  }
  if (isYear(left)) return yearCondition(ctx, functionArgs(left)[0] as AstNode, operator, right, clause, node);
  if (!isColumn(left))
    throw sqlError(
      ErrorCode.UnsupportedSql,
      'Conditions compare a column (or YEAR(date)) with literals; other expressions and functions of columns would need a script, which this API does not run.',
      clause,
      positionOf(ctx.sql, node),
    );
  if (isColumn(right)) {
    // Both sides must be columns first: an unknown one (a double-quoted string) is named as such.
    resolveField(ctx, left, clause);
    resolveField(ctx, right, clause);
    throw sqlError(
      ErrorCode.UnsupportedSql,
      'Comparing two columns needs a script, which this API does not run.',
      clause,
      positionOf(ctx.sql, node),
    );
  }
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
    return operator.startsWith('NOT') ? negated(path, wildcard) : wildcard;
  }
  const { path, info } = exactField(ctx, left, clause);
  const ordered = operator === 'BETWEEN' || operator === 'NOT BETWEEN' || RANGE[operator] !== undefined;
  const numericTwin = path.endsWith('.value') ? `${path.slice(0, -'.value'.length)}._value` : undefined;
  if (ordered && info.type === 'keyword' && numericTwin !== undefined && ctx.schema.has(numericTwin))
    throw sqlError(
      ErrorCode.InvalidQuery,
      `[${path}] is an amount's exact decimal text, which an order compares as text ('9' > '10'); compare [${numericTwin}], its number, instead.`,
      clause,
      positionOf(ctx.sql, node),
    );
  if (numericTwin !== undefined)
    dropsLookalike(
      ctx,
      path,
      operator === 'IN' || operator === 'NOT IN' ? ((right.value as AstNode[] | undefined) ?? []) : [right],
    );
  if (operator === 'IN' || operator === 'NOT IN') {
    const listed = (right.value as AstNode[] | undefined) ?? [];
    // SQL's three values: x IN (a, NULL) is true only where x = a; x NOT IN (a, NULL) is never true.
    const withNull = listed.some((v) => literal(v) === null);
    const values = listed.filter((v) => literal(v) !== null).map((v) => valueFor(ctx, v, info, clause));
    if (operator === 'NOT IN' && withNull) return { match_none: {} };
    if (values.length === 0) return { match_none: {} };
    const terms: Query = { terms: { [path]: values } };
    return operator === 'NOT IN' ? negated(path, terms) : terms;
  }
  if (operator === 'BETWEEN' || operator === 'NOT BETWEEN') {
    const [low, high] = ((right.value as AstNode[] | undefined) ?? []).map((v) => valueFor(ctx, v, info, clause));
    const range: Query = { range: { [path]: { gte: low, lte: high } } };
    return operator === 'NOT BETWEEN' ? negated(path, range) : range;
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
  if (operator === '!=' || operator === '<>') return negated(path, { term: { [path]: { value } } });
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

/** Where each full-text function takes its text, what the text is called, and its options. */
const FULL_TEXT_SIGNATURES = {
  MATCH: { textAt: 1, text: 'the text', allowed: MATCH_OPTIONS, usage: '(field or fields, text [, options])' },
  QUERY: { textAt: 0, text: 'the query', allowed: QUERY_OPTIONS, usage: '(text [, options])' },
} as const;

/**
 * The text and options of a full-text function (MATCH or QUERY): its arguments are checked
 * against its signature (the text at `textAt`, the options string after it).
 */
function fullTextArgs(
  ctx: Context,
  node: AstNode,
  args: AstNode[],
  fn: 'MATCH' | 'QUERY',
): { text: string; options: Record<string, string> } {
  const signature = FULL_TEXT_SIGNATURES[fn];
  if (args.length < signature.textAt + 1 || args.length > signature.textAt + 2)
    throw sqlError(ErrorCode.InvalidQuery, `${fn} takes ${signature.usage}.`, 'WHERE', positionOf(ctx.sql, node, fn));
  const text = stringArg(ctx, args[signature.textAt], fn, signature.text);
  const optionsArg = args[signature.textAt + 1];
  const options =
    optionsArg === undefined
      ? {}
      : parseOptions(stringArg(ctx, optionsArg, fn, 'options'), signature.allowed, ctx.sql, fn);
  return { text, options };
}

function matchQuery(ctx: Context, node: AstNode, args: AstNode[]): Query {
  const { text, options } = fullTextArgs(ctx, node, args, 'MATCH');
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
  const { text, options } = fullTextArgs(ctx, node, args, 'QUERY');
  return { query_string: { query: text, ...options } };
}

export function wrapQuery(q: Query): Query {
  return q.bool !== undefined ? q : isFullText(q) ? { bool: { must: [q] } } : { bool: { filter: [q] } };
}
