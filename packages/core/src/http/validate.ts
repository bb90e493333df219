import Type, { type Static, type TObject, type TSchema } from 'typebox';
import Compile from 'typebox/compile';
import { BadRequestError, ErrorCode } from '../errors.js';

export type InputPart = 'path' | 'query' | 'body';

interface ValidationError {
  instancePath: string;
  message: string;
  keyword: string;
  params: unknown;
}

interface Checker {
  Default(value: unknown): unknown;
  Convert(value: unknown): unknown;
  Check(value: unknown): boolean;
  Errors(value: unknown): ValidationError[];
}

/**
 * A rule between fields of one request part (`from` not after `to`), checked with the schema
 * after every field is valid. It names the parameter a failure is reported on.
 */
export interface InputRule<T> {
  parameter: string;
  /** Why a value is refused, e.g. `after "to"`. */
  message: string;
  check: (value: T) => boolean;
}

/** The refusal text of a cross-field rule carries its parameter; validate() unpacks it. */
const RULE_PREFIX = 'rule:';

/** A schema with cross-field rules, still one schema: the OpenAPI document describes its fields. */
export function withRules<T extends TObject>(schema: T, rules: readonly InputRule<Static<T>>[]): T {
  let refined: TSchema = schema;
  for (const rule of rules)
    refined = Type.Refine(
      refined as T,
      (value) => rule.check(value as Static<T>),
      () => `${RULE_PREFIX}${JSON.stringify({ parameter: rule.parameter, message: rule.message })}`,
    );
  return refined as T;
}

function ruleOf(error: ValidationError): { parameter: string; message: string } | undefined {
  if (error.keyword !== '~refine' || !error.message.startsWith(RULE_PREFIX)) return undefined;
  return JSON.parse(error.message.slice(RULE_PREFIX.length)) as { parameter: string; message: string };
}

function parameterName(where: InputPart, error: ValidationError): string {
  if (error.keyword === 'additionalProperties') {
    const extra = (error.params as { additionalProperties?: string[] }).additionalProperties;
    return extra?.[0] ?? where;
  }
  if (error.keyword === 'required')
    return (error.params as { requiredProperties?: string[] }).requiredProperties?.[0] ?? where;
  return ruleOf(error)?.parameter ?? (error.instancePath.replace(/^\//, '').split('/')[0] || where);
}

/**
 * Number texts. TypeBox's conversion would also turn `true` into 1 and `0.5` into an integer
 * parameter's 0, which a parameter must not: numeric parameters are checked as text first.
 */
const NUMBER_TEXT = /^-?(?:\d+|\d*\.\d+)(?:[eE][-+]?\d+)?$/;
const INTEGER_TEXT = /^-?\d+$/;

/** The properties of a path or query schema that are numbers, with the text each must match. */
function numericKeys(schema: TSchema): [string, RegExp][] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  return Object.entries(properties).flatMap(([name, p]): [string, RegExp][] =>
    p.type === 'integer' ? [[name, INTEGER_TEXT]] : p.type === 'number' ? [[name, NUMBER_TEXT]] : [],
  );
}

/** The values of a parameter whose schema is a union of literals (an enumeration), else undefined. */
function choicesOf(schema: TSchema, name: string): string[] | undefined {
  const property = (schema as { properties?: Record<string, { anyOf?: { const?: unknown }[] }> }).properties?.[name];
  const values = property?.anyOf?.map((member) => member.const);
  return values !== undefined && values.length > 0 && values.every((v) => v !== undefined)
    ? values.map(String)
    : undefined;
}

/**
 * Whether a path or query schema has nothing for Default or Convert to do: an object whose every
 * property is a string without a default (an identifier, a pattern), and no default of its own.
 */
function isPlainTextSchema(schema: TSchema): boolean {
  const object = schema as { type?: unknown; default?: unknown; properties?: Record<string, TSchema> };
  if (object.type !== 'object' || object.default !== undefined) return false;
  return Object.values(object.properties ?? {}).every((property) => {
    const p = property as { type?: unknown; default?: unknown };
    return p.type === 'string' && p.default === undefined;
  });
}

/** Validates one part of the request; throws a 400 naming the offending parameter. */
function check(
  where: InputPart,
  checker: Checker,
  raw: unknown,
  numeric: readonly [string, RegExp][] = [],
  schema?: TSchema,
  plain = false,
): unknown {
  for (const [name, form] of numeric) {
    const text = (raw as Record<string, unknown> | undefined)?.[name];
    if (typeof text === 'string' && !form.test(text))
      throw new BadRequestError(
        `Invalid ${where} parameter "${name}": must be ${form === INTEGER_TEXT ? 'an integer' : 'a number'}.`,
        { parameter: name, in: where, value: text },
        ErrorCode.InvalidParameter,
      );
  }
  // A part whose schema has nothing to default or convert (only text fields, such as most path
  // parameters) is checked as it came: TypeBox's Default and Convert walk the value and the schema
  // on every request, which is most of a validation's cost.
  const value = plain
    ? raw
    : checker.Convert(checker.Default(typeof raw === 'object' && raw !== null ? { ...raw } : raw));
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
  const choices = schema === undefined ? undefined : choicesOf(schema, name);
  const reason =
    first === undefined
      ? 'not valid'
      : (ruleOf(first)?.message ?? (choices === undefined ? first.message : `must be one of ${choices.join(', ')}`));
  throw new BadRequestError(
    `Invalid ${where} parameter "${name}": ${reason}.`,
    { parameter: name, in: where, value: (raw as Record<string, unknown> | undefined)?.[name] },
    ErrorCode.InvalidParameter,
  );
}

/**
 * Compiles a TypeBox schema of one request part into a validator that applies defaults and the
 * explicit string-to-number conversion, checks cross-field rules, and returns the typed value or
 * throws a 400 naming the offending parameter: UNKNOWN_PARAMETER for a key the schema does not
 * list, INVALID_PARAMETER otherwise.
 */
export function compileValidator<T extends TSchema>(where: InputPart, schema: T): (raw: unknown) => Static<T> {
  const checker = Compile(schema) as unknown as Checker;
  const numeric = where === 'body' ? [] : numericKeys(schema);
  // Path parameters are always single texts; a query parameter may come repeated (an array that
  // Convert would reduce), so only a query schema without properties skips them.
  const propertyless = Object.keys((schema as { properties?: object }).properties ?? {}).length === 0;
  const plain = isPlainTextSchema(schema) && (where === 'path' || (where === 'query' && propertyless));
  return (raw) => check(where, checker, raw, numeric, schema, plain) as Static<T>;
}
