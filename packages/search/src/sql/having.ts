// HAVING: conditions over grouped rows, kept as data in the plan and evaluated in memory (pure).
import { ErrorCode } from '@xle/core';
import { positionOf, sqlError, type AstNode } from './parse.js';
import { functionArgs, functionName, literal } from './ast.js';
import type { Context } from './fields.js';
import type { Condition, Operand, Ref } from './plan.js';

const CMP: Record<string, '=' | '!=' | '<' | '<=' | '>' | '>='> = {
  '=': '=',
  '!=': '!=',
  '<>': '!=',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};

export function toCondition(
  ctx: Context,
  node: AstNode,
  refOf: (node: AstNode, clause: string) => { ref: Ref },
): Condition {
  const clause = 'HAVING';
  const operand = (n: AstNode): Operand => {
    const value = literal(n);
    return value !== undefined ? { value } : { ref: refOf(n, clause).ref };
  };
  if (node.type === 'unary_expr' && String(node.operator).toUpperCase() === 'NOT')
    return { not: toCondition(ctx, node.expr as AstNode, refOf) };
  if (node.type === 'function' && functionName(node) === 'NOT')
    return { not: toCondition(ctx, functionArgs(node)[0] as AstNode, refOf) };
  if (node.type !== 'binary_expr')
    throw sqlError(ErrorCode.UnsupportedSql, 'Unsupported HAVING condition.', clause, positionOf(ctx.sql, node));
  const op = String(node.operator).toUpperCase();
  const left = node.left as AstNode;
  const right = node.right as AstNode;
  if (op === 'AND') return { and: [toCondition(ctx, left, refOf), toCondition(ctx, right, refOf)] };
  if (op === 'OR') return { or: [toCondition(ctx, left, refOf), toCondition(ctx, right, refOf)] };
  if (op === 'IS' || op === 'IS NOT') return { isNull: operand(left), negate: op === 'IS NOT' };
  if (op === 'IN' || op === 'NOT IN') {
    const cond: Condition = { in: operand(left), values: ((right.value as AstNode[]) ?? []).map(operand) };
    return op === 'IN' ? cond : { not: cond };
  }
  if (op === 'BETWEEN' || op === 'NOT BETWEEN') {
    const [low, high] = ((right.value as AstNode[]) ?? []).map(operand) as [Operand, Operand];
    const cond: Condition = {
      and: [
        { cmp: '>=', left: operand(left), right: low },
        { cmp: '<=', left: operand(left), right: high },
      ],
    };
    return op === 'BETWEEN' ? cond : { not: cond };
  }
  const cmp = CMP[op];
  if (cmp === undefined)
    throw sqlError(
      ErrorCode.UnsupportedSql,
      `Operator [${op}] is not supported in HAVING.`,
      clause,
      positionOf(ctx.sql, node),
    );
  return { cmp, left: operand(left), right: operand(right) };
}

/** Evaluates a HAVING condition over one grouped row's values (pure). */
export function evaluateCondition(condition: Condition, read: (ref: Ref) => unknown): boolean {
  const value = (o: Operand): unknown => ('ref' in o ? read(o.ref) : o.value);
  if ('and' in condition) return condition.and.every((c) => evaluateCondition(c, read));
  if ('or' in condition) return condition.or.some((c) => evaluateCondition(c, read));
  if ('not' in condition) return !evaluateCondition(condition.not, read);
  if ('isNull' in condition) {
    const v = value(condition.isNull);
    return condition.negate ? v !== null && v !== undefined : v === null || v === undefined;
  }
  if ('in' in condition) {
    const v = value(condition.in);
    return condition.values.some((o) => value(o) === v);
  }
  const a = value(condition.left);
  const b = value(condition.right);
  if (a === null || a === undefined || b === null || b === undefined) return false;
  switch (condition.cmp) {
    case '=':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return (a as number) < (b as number);
    case '<=':
      return (a as number) <= (b as number);
    case '>':
      return (a as number) > (b as number);
    case '>=':
      return (a as number) >= (b as number);
  }
}
