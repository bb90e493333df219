// Expressions of the SELECT list, evaluated by the service on each row (no engine script): compiled from the AST into data, then evaluated (pure).
import { ErrorCode } from '@xle/core';
import { positionOf, sqlError, type AstNode } from './parse.js';
import { NUMERIC, sqlTypeOf } from './schema.js';
import { functionArgs, functionName, isColumn, literal } from './ast.js';
import { type Context, resolveField } from './fields.js';

type Value = string | number | boolean | null;

/** A compiled expression: data, so plans stay serialisable and comparable in tests. */
export type Expr =
  | { col: string; type: string }
  | { lit: Value }
  | { op: '+' | '-' | '*' | '/' | '%' | '||'; left: Expr; right: Expr; integral?: boolean }
  | { fn: string; args: Expr[] }
  | { case: { when: Test; then: Expr }[]; else: Expr }
  | { cast: Expr; to: 'long' | 'double' | 'keyword' | 'boolean' | 'datetime' | 'date' };

/** A condition of CASE WHEN. */
export type Test =
  | { and: Test[] }
  | { or: Test[] }
  | { not: Test }
  | { cmp: '=' | '!=' | '<' | '<=' | '>' | '>='; left: Expr; right: Expr }
  | { isNull: Expr; negate: boolean };

/** A compiled expression and the SQL type of its values. */
export interface Typed {
  expr: Expr;
  type: string;
}

const INTEGRAL = new Set(['long', 'integer', 'short', 'byte', 'unsigned_long']);

/** Scalar functions, by name: their arity and result type from the argument types. */
const SCALARS: Readonly<
  Record<string, { min: number; max: number; type: (args: string[]) => string; numeric?: boolean; date?: boolean }>
> = {
  ABS: { min: 1, max: 1, type: (a) => a[0] as string, numeric: true },
  ROUND: { min: 1, max: 2, type: () => 'double', numeric: true },
  FLOOR: { min: 1, max: 1, type: () => 'long', numeric: true },
  CEIL: { min: 1, max: 1, type: () => 'long', numeric: true },
  CEILING: { min: 1, max: 1, type: () => 'long', numeric: true },
  POWER: { min: 2, max: 2, type: () => 'double', numeric: true },
  SQRT: { min: 1, max: 1, type: () => 'double', numeric: true },
  SIGN: { min: 1, max: 1, type: () => 'long', numeric: true },
  UPPER: { min: 1, max: 1, type: () => 'keyword' },
  LOWER: { min: 1, max: 1, type: () => 'keyword' },
  UCASE: { min: 1, max: 1, type: () => 'keyword' },
  LCASE: { min: 1, max: 1, type: () => 'keyword' },
  LENGTH: { min: 1, max: 1, type: () => 'long' },
  CHAR_LENGTH: { min: 1, max: 1, type: () => 'long' },
  SUBSTRING: { min: 2, max: 3, type: () => 'keyword' },
  LEFT: { min: 2, max: 2, type: () => 'keyword' },
  RIGHT: { min: 2, max: 2, type: () => 'keyword' },
  CONCAT: { min: 1, max: 16, type: () => 'keyword' },
  TRIM: { min: 1, max: 1, type: () => 'keyword' },
  LTRIM: { min: 1, max: 1, type: () => 'keyword' },
  RTRIM: { min: 1, max: 1, type: () => 'keyword' },
  REPLACE: { min: 3, max: 3, type: () => 'keyword' },
  COALESCE: { min: 1, max: 16, type: (a) => a.find((t) => t !== 'null') ?? 'null' },
  IFNULL: { min: 2, max: 2, type: (a) => a.find((t) => t !== 'null') ?? 'null' },
  NULLIF: { min: 2, max: 2, type: (a) => a[0] as string },
  YEAR: { min: 1, max: 1, type: () => 'long', date: true },
  MONTH: { min: 1, max: 1, type: () => 'long', date: true },
  DAY: { min: 1, max: 1, type: () => 'long', date: true },
  DAY_OF_MONTH: { min: 1, max: 1, type: () => 'long', date: true },
  HOUR: { min: 1, max: 1, type: () => 'long', date: true },
  MINUTE: { min: 1, max: 1, type: () => 'long', date: true },
  SECOND: { min: 1, max: 1, type: () => 'long', date: true },
  ISO_DAY_OF_WEEK: { min: 1, max: 1, type: () => 'long', date: true },
};

/** The scalar functions, for SHOW FUNCTIONS and the README. */
export const SCALAR_FUNCTIONS = Object.keys(SCALARS);

const CAST_TYPES: Readonly<Record<string, Extract<Expr, { cast: unknown }>['to']>> = {
  INTEGER: 'long',
  INT: 'long',
  LONG: 'long',
  BIGINT: 'long',
  SMALLINT: 'long',
  DOUBLE: 'double',
  FLOAT: 'double',
  REAL: 'double',
  NUMERIC: 'double',
  DECIMAL: 'double',
  VARCHAR: 'keyword',
  STRING: 'keyword',
  TEXT: 'keyword',
  KEYWORD: 'keyword',
  CHAR: 'keyword',
  BOOLEAN: 'boolean',
  BOOL: 'boolean',
  DATETIME: 'datetime',
  TIMESTAMP: 'datetime',
  DATE: 'date',
};

const EXTRACT_PARTS = new Set(['YEAR', 'MONTH', 'DAY', 'HOUR', 'MINUTE', 'SECOND']);

const isNumericType = (type: string): boolean => NUMERIC.has(type) || type === 'null';

function refuse(ctx: Context, node: AstNode, message: string, code: string = ErrorCode.UnsupportedSql): never {
  throw sqlError(code, message, 'SELECT', positionOf(ctx.sql, node));
}

/** Compiles a SELECT expression, checking its columns, functions and operand types (pure). */
export function compileExpr(ctx: Context, node: AstNode): Typed {
  const leaf = ctx.leaf?.(node);
  if (leaf !== undefined) return leaf;
  if (isColumn(node)) {
    const { path, info } = resolveField(ctx, node, 'SELECT');
    return { expr: { col: path, type: info.type }, type: sqlTypeOf(info.type) };
  }
  switch (node.type) {
    case 'number':
    case 'bigint':
    case 'single_quote_string':
    case 'string':
    case 'bool':
    case 'boolean':
    case 'null':
    case 'unary_expr': {
      if (node.type === 'unary_expr' && node.operator === '-' && !isLiteralNode(node.expr as AstNode)) {
        const inner = compileExpr(ctx, node.expr as AstNode);
        if (!isNumericType(inner.type)) refuse(ctx, node, 'Unary minus takes a number.', ErrorCode.InvalidQuery);
        return { expr: { op: '-', left: { lit: 0 }, right: inner.expr }, type: inner.type };
      }
      const value = literal(node);
      if (value === undefined) return refuse(ctx, node, 'This literal is not supported in SELECT.');
      const type =
        value === null
          ? 'null'
          : typeof value === 'number'
            ? Number.isInteger(value) && !isDecimalLiteral(node)
              ? 'long'
              : 'double'
            : typeof value === 'boolean'
              ? 'boolean'
              : 'keyword';
      return { expr: { lit: value as Value }, type };
    }
    case 'binary_expr':
      return compileBinary(ctx, node);
    case 'case':
      return compileCase(ctx, node);
    case 'cast': {
      const target = String((node.target as { dataType?: string }[] | undefined)?.[0]?.dataType ?? '').toUpperCase();
      const to = CAST_TYPES[target];
      if (to === undefined)
        refuse(ctx, node, `CAST to [${target}] is not supported; cast to ${Object.keys(CAST_TYPES).join(', ')}.`);
      return { expr: { cast: compileExpr(ctx, node.expr as AstNode).expr, to }, type: to };
    }
    case 'extract': {
      const args = node.args as { field?: string; source?: AstNode };
      const part = String(args.field ?? '').toUpperCase();
      if (!EXTRACT_PARTS.has(part)) refuse(ctx, node, `EXTRACT takes ${[...EXTRACT_PARTS].join(', ')}.`);
      return compileFunction(ctx, node, part, [args.source as AstNode]);
    }
    case 'function':
      return compileFunction(ctx, node, functionName(node), functionArgs(node));
    default:
      return refuse(ctx, node, `Expressions of type [${String(node.type)}] are not supported in SELECT.`);
  }
}

/** A number written with a point or an exponent (`2.0`, `1e3`): a decimal, whatever its value. */
function isDecimalLiteral(node: AstNode): boolean {
  if (node.type === 'unary_expr') return isDecimalLiteral(node.expr as AstNode);
  return node.type === 'number' && typeof node.value === 'string' && /[.eE]/.test(node.value);
}

function isLiteralNode(node: AstNode): boolean {
  return literal(node) !== undefined;
}

function compileBinary(ctx: Context, node: AstNode): Typed {
  const op = String(node.operator);
  if (!['+', '-', '*', '/', '%', '||'].includes(op))
    refuse(ctx, node, `Operator [${op}] is not supported in SELECT; conditions go in WHERE or CASE WHEN.`);
  const left = compileExpr(ctx, node.left as AstNode);
  const right = compileExpr(ctx, node.right as AstNode);
  if (op === '||') return { expr: { op: '||', left: left.expr, right: right.expr }, type: 'keyword' };
  if (!isNumericType(left.type) || !isNumericType(right.type))
    refuse(
      ctx,
      node,
      `Arithmetic takes numbers; [${left.type}] ${op} [${right.type}] is not supported (dates: use WHERE with INTERVAL).`,
      ErrorCode.InvalidQuery,
    );
  // Integers stay integers, as in Elasticsearch SQL: 7 / 2 is 3.
  const integral =
    INTEGRAL.has(left.type === 'null' ? 'long' : left.type) &&
    INTEGRAL.has(right.type === 'null' ? 'long' : right.type);
  return {
    expr: { op: op as '+', left: left.expr, right: right.expr, ...(integral ? { integral } : {}) },
    type: integral ? 'long' : 'double',
  };
}

function compileTest(ctx: Context, node: AstNode): Test {
  if (node.type !== 'binary_expr' && node.type !== 'unary_expr')
    refuse(ctx, node, 'CASE WHEN takes comparisons, IS [NOT] NULL, AND, OR and NOT.');
  const op = String(node.operator).toUpperCase();
  if (node.type === 'unary_expr') {
    if (op !== 'NOT') refuse(ctx, node, `Operator [${op}] is not supported in CASE WHEN.`);
    return { not: compileTest(ctx, node.expr as AstNode) };
  }
  if (op === 'AND' || op === 'OR') {
    const parts = [compileTest(ctx, node.left as AstNode), compileTest(ctx, node.right as AstNode)];
    return op === 'AND' ? { and: parts } : { or: parts };
  }
  if (op === 'IS' || op === 'IS NOT') {
    if (literal(node.right as AstNode) !== null) refuse(ctx, node, 'IS takes NULL.');
    return { isNull: compileExpr(ctx, node.left as AstNode).expr, negate: op === 'IS NOT' };
  }
  const cmp = op === '<>' ? '!=' : op;
  if (!['=', '!=', '<', '<=', '>', '>='].includes(cmp))
    refuse(ctx, node, `Operator [${op}] is not supported in CASE WHEN.`);
  return {
    cmp: cmp as '=',
    left: compileExpr(ctx, node.left as AstNode).expr,
    right: compileExpr(ctx, node.right as AstNode).expr,
  };
}

function compileCase(ctx: Context, node: AstNode): Typed {
  const subject = node.expr === null || node.expr === undefined ? undefined : compileExpr(ctx, node.expr as AstNode);
  const branches: { when: Test; then: Expr }[] = [];
  let otherwise: Expr = { lit: null };
  const types: string[] = [];
  for (const arg of (node.args as AstNode[] | undefined) ?? []) {
    const result = compileExpr(ctx, arg.result as AstNode);
    types.push(result.type);
    if (arg.type === 'else') {
      otherwise = result.expr;
      continue;
    }
    const when =
      subject === undefined
        ? compileTest(ctx, arg.cond as AstNode)
        : ({ cmp: '=', left: subject.expr, right: compileExpr(ctx, arg.cond as AstNode).expr } as const);
    branches.push({ when, then: result.expr });
  }
  const known = [...new Set(types.filter((t) => t !== 'null'))];
  const type =
    known.length === 1
      ? (known[0] as string)
      : known.every((t) => NUMERIC.has(t)) && known.length > 0
        ? 'double'
        : 'keyword';
  return { expr: { case: branches, else: otherwise }, type };
}

function compileFunction(ctx: Context, node: AstNode, name: string, argNodes: AstNode[]): Typed {
  const spec = SCALARS[name];
  if (spec === undefined)
    return refuse(ctx, node, `Function [${name}] is not supported in SELECT (SHOW FUNCTIONS lists those that are).`);
  if (argNodes.length < spec.min || argNodes.length > spec.max)
    refuse(
      ctx,
      node,
      `${name} takes ${spec.min === spec.max ? spec.min : `${spec.min} to ${spec.max}`} argument${spec.max === 1 ? '' : 's'}.`,
      ErrorCode.InvalidQuery,
    );
  const args = argNodes.map((a) => compileExpr(ctx, a));
  if (spec.numeric === true && !args.every((a) => isNumericType(a.type)))
    refuse(ctx, node, `${name} takes numbers.`, ErrorCode.InvalidQuery);
  if (spec.date === true && !['datetime', 'date', 'null'].includes(args[0]?.type ?? ''))
    refuse(ctx, node, `${name} takes a date; [${args[0]?.type ?? ''}] is not one.`, ErrorCode.InvalidQuery);
  return { expr: { fn: name, args: args.map((a) => a.expr) }, type: spec.type(args.map((a) => a.type)) };
}

/** The source paths an expression reads. */
export function pathsOf(expr: Expr, into: Set<string> = new Set()): Set<string> {
  if ('col' in expr) into.add(expr.col);
  else if ('op' in expr) {
    pathsOf(expr.left, into);
    pathsOf(expr.right, into);
  } else if ('fn' in expr) for (const a of expr.args) pathsOf(a, into);
  else if ('cast' in expr) pathsOf(expr.cast, into);
  else if ('case' in expr) {
    for (const b of expr.case) {
      testPaths(b.when, into);
      pathsOf(b.then, into);
    }
    pathsOf(expr.else, into);
  }
  return into;
}

function testPaths(test: Test, into: Set<string>): void {
  if ('and' in test) test.and.forEach((t) => testPaths(t, into));
  else if ('or' in test) test.or.forEach((t) => testPaths(t, into));
  else if ('not' in test) testPaths(test.not, into);
  else if ('isNull' in test) pathsOf(test.isNull, into);
  else {
    pathsOf(test.left, into);
    pathsOf(test.right, into);
  }
}

// ---- evaluation ----

/** The longest text an expression makes (nested REPLACE or || could otherwise grow without bound): longer is NULL. */
export const MAX_TEXT = 1_000_000;

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const int = (v: unknown): number | null => {
  const n = num(v);
  return n === null ? null : Math.trunc(n);
};
const text = (v: unknown): string | null =>
  v === null || v === undefined || Array.isArray(v) ? null : typeof v === 'string' ? v : String(v);
const dateOf = (v: unknown): Date | null => {
  if (typeof v !== 'string' && typeof v !== 'number') return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
};

/** Three-valued comparison: null when either side is NULL (or a list). */
function compare(op: string, a: unknown, b: unknown): boolean | null {
  if (a === null || b === null || a === undefined || b === undefined || Array.isArray(a) || Array.isArray(b))
    return null;
  const [x, y] = typeof a === 'number' || typeof b === 'number' ? [Number(a), Number(b)] : [String(a), String(b)];
  switch (op) {
    case '=':
      return x === y;
    case '!=':
      return x !== y;
    case '<':
      return x < y;
    case '<=':
      return x <= y;
    case '>':
      return x > y;
    default:
      return x >= y;
  }
}

function holds(test: Test, read: (path: string, type: string) => unknown): boolean | null {
  if ('and' in test) {
    const values = test.and.map((t) => holds(t, read));
    return values.includes(false) ? false : values.includes(null) ? null : true;
  }
  if ('or' in test) {
    const values = test.or.map((t) => holds(t, read));
    return values.includes(true) ? true : values.includes(null) ? null : false;
  }
  if ('not' in test) {
    const value = holds(test.not, read);
    return value === null ? null : !value;
  }
  if ('isNull' in test) {
    const value = evaluate(test.isNull, read);
    return (value === null) !== test.negate;
  }
  return compare(test.cmp, evaluate(test.left, read), evaluate(test.right, read));
}

function arithmetic(expr: Extract<Expr, { op: unknown }>, a: unknown, b: unknown): unknown {
  if (expr.op === '||') {
    const [x, y] = [text(a), text(b)];
    return x === null || y === null || x.length + y.length > MAX_TEXT ? null : x + y;
  }
  const [x, y] = [num(a), num(b)];
  if (x === null || y === null) return null;
  switch (expr.op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    case '/':
      if (y === 0) return null;
      return expr.integral === true ? Math.trunc(x / y) : x / y;
    default:
      return y === 0 ? null : x % y;
  }
}

function castTo(to: Extract<Expr, { cast: unknown }>['to'], value: unknown): unknown {
  if (value === null || value === undefined || Array.isArray(value)) return null;
  switch (to) {
    case 'long': {
      const n = typeof value === 'boolean' ? Number(value) : Number(value);
      return Number.isFinite(n) ? Math.trunc(n) : null;
    }
    case 'double': {
      const n = Number(value);
      return Number.isFinite(n) ? n : null;
    }
    case 'keyword':
      return String(value);
    case 'boolean':
      return typeof value === 'boolean'
        ? value
        : typeof value === 'number'
          ? value !== 0
          : value === 'true'
            ? true
            : value === 'false'
              ? false
              : null;
    case 'datetime':
      return dateOf(value)?.toISOString() ?? null;
    default: {
      const d = dateOf(value);
      return d === null ? null : `${d.toISOString().slice(0, 10)}T00:00:00.000Z`;
    }
  }
}

function scalar(name: string, args: unknown[]): unknown {
  const [a, b, c] = args;
  switch (name) {
    case 'COALESCE':
    case 'IFNULL':
      return args.find((v) => v !== null && v !== undefined) ?? null;
    case 'NULLIF':
      return compare('=', a, b) === true ? null : (a ?? null);
  }
  if (SCALARS[name]?.numeric === true) {
    const x = num(a);
    if (x === null) return null;
    switch (name) {
      case 'ABS':
        return Math.abs(x);
      case 'ROUND': {
        // Half away from zero, as Elasticsearch SQL; NULL digits give NULL.
        const digits = b === undefined ? 0 : num(b);
        if (digits === null) return null;
        const factor = 10 ** Math.max(-308, Math.min(308, Math.trunc(digits)));
        const rounded = (Math.sign(x) * Math.round(Math.abs(x) * factor)) / factor;
        return Number.isFinite(rounded) ? rounded : x;
      }
      case 'FLOOR':
        return Math.floor(x);
      case 'CEIL':
      case 'CEILING':
        return Math.ceil(x);
      case 'POWER': {
        const y = num(b);
        return y === null ? null : x ** y;
      }
      case 'SQRT':
        return x < 0 ? null : Math.sqrt(x);
      default:
        return Math.sign(x);
    }
  }
  if (SCALARS[name]?.date === true) {
    const d = dateOf(a);
    if (d === null) return null;
    switch (name) {
      case 'YEAR':
        return d.getUTCFullYear();
      case 'MONTH':
        return d.getUTCMonth() + 1;
      case 'DAY':
      case 'DAY_OF_MONTH':
        return d.getUTCDate();
      case 'HOUR':
        return d.getUTCHours();
      case 'MINUTE':
        return d.getUTCMinutes();
      case 'SECOND':
        return d.getUTCSeconds();
      default:
        return ((d.getUTCDay() + 6) % 7) + 1;
    }
  }
  if (name === 'CONCAT') {
    const parts = args.map((v) => text(v) ?? '');
    return parts.reduce((n, p) => n + p.length, 0) > MAX_TEXT ? null : parts.join('');
  }
  const s = text(a);
  if (s === null) return null;
  switch (name) {
    case 'UPPER':
    case 'UCASE':
      return s.toUpperCase();
    case 'LOWER':
    case 'LCASE':
      return s.toLowerCase();
    case 'LENGTH':
    case 'CHAR_LENGTH':
      return [...s].length;
    case 'SUBSTRING': {
      const start = int(b);
      if (start === null) return null;
      const chars = [...s];
      const from = Math.max(0, start - 1);
      const length = c === undefined ? chars.length : int(c);
      return length === null ? null : chars.slice(from, from + Math.max(0, length)).join('');
    }
    case 'LEFT': {
      const n = int(b);
      return n === null ? null : [...s].slice(0, Math.max(0, n)).join('');
    }
    case 'RIGHT': {
      const n = int(b);
      return n === null ? null : n <= 0 ? '' : [...s].slice(-n).join('');
    }
    case 'TRIM':
      return s.trim();
    case 'LTRIM':
      return s.trimStart();
    case 'RTRIM':
      return s.trimEnd();
    default: {
      const [from, to] = [text(b), text(c)];
      if (from === null || to === null) return null;
      if (from === '') return s;
      const pieces = s.split(from);
      // The length before building it: a nested REPLACE could grow a row past memory.
      if (s.length + (pieces.length - 1) * (to.length - from.length) > MAX_TEXT) return null;
      return pieces.join(to);
    }
  }
}

/** The value of an expression on one row; `read` gives a column's value, coerced to its type (pure). */
export function evaluate(expr: Expr, read: (path: string, type: string) => unknown): unknown {
  if ('col' in expr) return read(expr.col, expr.type);
  if ('lit' in expr) return expr.lit;
  if ('op' in expr) return arithmetic(expr, evaluate(expr.left, read), evaluate(expr.right, read));
  if ('cast' in expr) return castTo(expr.to, evaluate(expr.cast, read));
  if ('case' in expr) {
    for (const branch of expr.case) if (holds(branch.when, read) === true) return evaluate(branch.then, read);
    return evaluate(expr.else, read);
  }
  return scalar(
    expr.fn,
    expr.args.map((a) => evaluate(a, read)),
  );
}
