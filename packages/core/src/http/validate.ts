import type { TSchema } from 'typebox';
import Compile from 'typebox/compile';
import { BadRequestError, ErrorCode } from '../errors.js';

export type InputPart = 'path' | 'query' | 'body';

interface Checker {
  Default(value: unknown): unknown;
  Convert(value: unknown): unknown;
  Check(value: unknown): boolean;
  Errors(value: unknown): { instancePath: string; message: string; keyword: string; params: unknown }[];
}

function parameterName(where: InputPart, error: { instancePath: string; keyword: string; params: unknown }): string {
  if (error.keyword === 'additionalProperties') {
    const extra = (error.params as { additionalProperties?: string[] }).additionalProperties;
    return extra?.[0] ?? where;
  }
  if (error.keyword === 'required')
    return (error.params as { requiredProperties?: string[] }).requiredProperties?.[0] ?? where;
  return error.instancePath.replace(/^\//, '').split('/')[0] || where;
}

/** Validates one part of the request; throws a 400 naming the offending parameter. */
function check(where: InputPart, checker: Checker, raw: Record<string, unknown>): unknown {
  const value = checker.Convert(checker.Default({ ...raw }));
  if (checker.Check(value)) return value;
  const errors = checker.Errors(value).filter((e) => e.keyword !== 'boolean');
  const first = errors[0];
  const unknown = errors.find((e) => e.keyword === 'additionalProperties');
  if (unknown !== undefined) {
    const name = parameterName(where, unknown);
    throw new BadRequestError(
      `Unknown ${where} parameter "${name}".`,
      { parameter: name, in: where },
      ErrorCode.UnknownParameter,
    );
  }
  const name = first === undefined ? where : parameterName(where, first);
  throw new BadRequestError(
    `Invalid ${where} parameter "${name}": ${first?.message ?? 'not valid'}.`,
    { parameter: name, in: where, value: raw[name] },
    ErrorCode.InvalidParameter,
  );
}

/**
 * Compiles a TypeBox schema of one request part into a validator that applies defaults and the
 * explicit string-to-number conversion, and throws a 400 naming the offending parameter:
 * UNKNOWN_PARAMETER for a key the schema does not list, INVALID_PARAMETER otherwise.
 */
export function compileValidator(where: InputPart, schema: TSchema): (raw: Record<string, unknown>) => unknown {
  const checker = Compile(schema) as unknown as Checker;
  return (raw) => check(where, checker, raw);
}
