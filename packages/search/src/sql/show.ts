// Schema discovery: SHOW TABLES, DESCRIBE / SHOW COLUMNS and SHOW FUNCTIONS, answered from the tables' mappings (pure).
import { ErrorCode } from '@xle/core';
import { closestNames } from '../closest.js';
import { sqlError, type Position } from './parse.js';
import { SELECTABLE, sqlTypeOf } from './schema.js';
import type { Schemas } from './fields.js';
import { TABLES, type ValuesPlan } from './plan.js';

/** A function the SQL API knows, for SHOW FUNCTIONS. */
export interface FunctionInfo {
  name: string;
  /** AGGREGATE, GROUPING, SEARCH or SCALAR, as Elasticsearch SQL's SHOW FUNCTIONS types them. */
  type: 'AGGREGATE' | 'GROUPING' | 'SEARCH' | 'SCALAR';
  usage: string;
  description: string;
}

/** A function of one type, as SHOW FUNCTIONS lists it. */
const kind =
  (type: FunctionInfo['type']) =>
  (name: string, usage: string, description: string): FunctionInfo => ({ name, type, usage, description });
const scalar = kind('SCALAR');
const aggregate = kind('AGGREGATE');
const grouping = kind('GROUPING');
const search = kind('SEARCH');

/** The SELECT list's expressions, evaluated by the service on each row (see expressions.ts). */
const SCALARS_SHOWN: readonly FunctionInfo[] = [
  scalar(
    'CASE',
    'CASE WHEN cond THEN x [WHEN …] [ELSE y] END | CASE x WHEN v THEN y … END',
    'The first branch whose condition holds.',
  ),
  scalar(
    'CAST',
    'CAST(x AS INTEGER|LONG|DOUBLE|VARCHAR|BOOLEAN|DATETIME|DATE)',
    'A value as another type; NULL where it does not convert.',
  ),
  scalar('EXTRACT', 'EXTRACT(YEAR|MONTH|DAY|HOUR|MINUTE|SECOND FROM date)', 'A part of a date (UTC).'),
  scalar('ABS', 'ABS(number)', 'Absolute value.'),
  scalar('ROUND', 'ROUND(number [, digits])', 'Rounded half up to the digits (0 by default).'),
  scalar('FLOOR', 'FLOOR(number)', 'Largest integer not above.'),
  scalar('CEIL', 'CEIL(number) | CEILING(number)', 'Smallest integer not below.'),
  scalar('CEILING', 'CEILING(number)', 'Smallest integer not below.'),
  scalar('POWER', 'POWER(number, exponent)', 'number raised to the exponent.'),
  scalar('SQRT', 'SQRT(number)', 'Square root; NULL below 0.'),
  scalar('SIGN', 'SIGN(number)', '-1, 0 or 1.'),
  scalar('UPPER', 'UPPER(text) | UCASE(text)', 'Upper case.'),
  scalar('UCASE', 'UCASE(text)', 'Upper case.'),
  scalar('LOWER', 'LOWER(text) | LCASE(text)', 'Lower case.'),
  scalar('LCASE', 'LCASE(text)', 'Lower case.'),
  scalar('LENGTH', 'LENGTH(text) | CHAR_LENGTH(text)', 'Characters in the text.'),
  scalar('CHAR_LENGTH', 'CHAR_LENGTH(text)', 'Characters in the text.'),
  scalar('SUBSTRING', 'SUBSTRING(text, start [, length])', 'Part of the text, from start (1 is the first character).'),
  scalar('LEFT', 'LEFT(text, n)', 'The first n characters.'),
  scalar('RIGHT', 'RIGHT(text, n)', 'The last n characters.'),
  scalar('CONCAT', 'CONCAT(a, b, …) | a || b', 'Texts joined (CONCAT reads NULL as empty; || gives NULL).'),
  scalar('TRIM', 'TRIM(text)', 'Without leading and trailing spaces.'),
  scalar('LTRIM', 'LTRIM(text)', 'Without leading spaces.'),
  scalar('RTRIM', 'RTRIM(text)', 'Without trailing spaces.'),
  scalar('REPLACE', 'REPLACE(text, from, to)', 'Every occurrence of from replaced.'),
  scalar('COALESCE', 'COALESCE(a, b, …)', 'The first value that is not NULL.'),
  scalar('IFNULL', 'IFNULL(a, b)', 'a, or b where a is NULL.'),
  scalar('NULLIF', 'NULLIF(a, b)', 'NULL where a equals b, else a.'),
  scalar('YEAR', 'YEAR(date)', 'The year (UTC).'),
  scalar('MONTH', 'MONTH(date)', 'The month, 1 to 12 (UTC).'),
  scalar('DAY', 'DAY(date) | DAY_OF_MONTH(date)', 'The day of the month (UTC).'),
  scalar('DAY_OF_MONTH', 'DAY_OF_MONTH(date)', 'The day of the month (UTC).'),
  scalar('HOUR', 'HOUR(date)', 'The hour, 0 to 23 (UTC).'),
  scalar('MINUTE', 'MINUTE(date)', 'The minute (UTC).'),
  scalar('SECOND', 'SECOND(date)', 'The second (UTC).'),
  scalar('ISO_DAY_OF_WEEK', 'ISO_DAY_OF_WEEK(date)', 'Monday 1 to Sunday 7 (UTC).'),
];

/** Every function the translator accepts; a test runs each usage against the engine. */
export const FUNCTIONS: readonly FunctionInfo[] = [
  aggregate(
    'COUNT',
    'COUNT(*) | COUNT(column) | COUNT(DISTINCT column)',
    'Rows, values, or distinct values (approximate above 3,000, as in Elasticsearch).',
  ),
  aggregate('SUM', 'SUM(number)', 'Sum of the values; NULL over none.'),
  aggregate('AVG', 'AVG(number)', 'Mean of the values.'),
  aggregate('MIN', 'MIN(number or date)', 'Smallest value.'),
  aggregate('MAX', 'MAX(number or date)', 'Largest value.'),
  aggregate(
    'PERCENTILE',
    'PERCENTILE(number, percent)',
    'The value below which that percent of the values fall (approximate: TDigest, as in Elasticsearch).',
  ),
  aggregate(
    'PERCENTILE_RANK',
    'PERCENTILE_RANK(number, value)',
    'The percent of the values at or below a value (approximate, as in Elasticsearch).',
  ),
  aggregate('STDDEV_POP', 'STDDEV_POP(number)', 'Population standard deviation.'),
  aggregate('STDDEV_SAMP', 'STDDEV_SAMP(number)', 'Sample standard deviation.'),
  aggregate('VAR_POP', 'VAR_POP(number)', 'Population variance.'),
  aggregate('VAR_SAMP', 'VAR_SAMP(number)', 'Sample variance.'),
  aggregate('SUM_OF_SQUARES', 'SUM_OF_SQUARES(number)', 'Sum of the squared values.'),
  grouping(
    'HISTOGRAM',
    'HISTOGRAM(date, INTERVAL n unit) | HISTOGRAM(number, step)',
    'Buckets of a date or number, for GROUP BY.',
  ),
  grouping(
    'DATE_TRUNC',
    "DATE_TRUNC('day', date)",
    'A date truncated to minute, hour, day, week, month, quarter or year, for GROUP BY.',
  ),
  search(
    'MATCH',
    "MATCH(field, 'text' [, 'options'])",
    'Full-text match on a text field (memos: "Memos.Memo._MemoData").',
  ),
  search('QUERY', "QUERY('lucene query' [, 'options'])", 'A query-string query over the table.'),
  ...SCALARS_SHOWN,
];

/** A statement that describes the schema instead of reading rows. */
export type ShowStatement =
  | { show: 'tables'; like?: string }
  | { show: 'columns'; table: string; like?: string }
  | { show: 'functions'; like?: string };

const LIKE = String.raw`(?:\s+LIKE\s+'((?:[^']|'')*)')?`;
const TABLE = String.raw`("(?:[^"]|"")+"|[A-Za-z_][A-Za-z0-9_-]*)`;
const SHOW_TABLES = new RegExp(String.raw`^SHOW\s+TABLES${LIKE}$`, 'i');
const SHOW_FUNCTIONS = new RegExp(String.raw`^SHOW\s+FUNCTIONS${LIKE}$`, 'i');
const SHOW_COLUMNS = new RegExp(String.raw`^(?:DESCRIBE|DESC|SHOW\s+COLUMNS\s+(?:FROM|IN))\s+${TABLE}${LIKE}$`, 'i');

const unquote = (text: string): string => (text.startsWith('"') ? text.slice(1, -1).replace(/""/g, '"') : text);
const pattern = (like: string | undefined): { like?: string } =>
  like === undefined ? {} : { like: like.replace(/''/g, "'") };

/** The schema statement a text is, or undefined for anything else (a SELECT) (pure). */
export function showStatement(sql: string): ShowStatement | undefined {
  // Spaces and one closing semicolon trimmed first: no pattern has two runs of spaces side by side.
  const text = sql.trim().replace(/;$/, '').trimEnd();
  const tables = SHOW_TABLES.exec(text);
  if (tables !== null) return { show: 'tables', ...pattern(tables[1]) };
  const functions = SHOW_FUNCTIONS.exec(text);
  if (functions !== null) return { show: 'functions', ...pattern(functions[1]) };
  const columns = SHOW_COLUMNS.exec(text);
  if (columns !== null) return { show: 'columns', table: unquote(columns[1] as string), ...pattern(columns[2]) };
  return undefined;
}

/** SQL LIKE (`%` any run, `_` one character) as a case-sensitive matcher (pure). */
export function likeMatcher(like: string | undefined): (name: string) => boolean {
  if (like === undefined) return () => true;
  // A linear walk with one remembered `%` (a regular expression of `.*`s backtracks without bound).
  const pattern = [...like.replace(/%+/g, '%')];
  return (name) => {
    const text = [...name];
    let i = 0;
    let j = 0;
    let star = -1;
    let resume = 0;
    while (i < text.length) {
      if (j < pattern.length && (pattern[j] === '_' || pattern[j] === text[i])) {
        i += 1;
        j += 1;
      } else if (j < pattern.length && pattern[j] === '%') {
        star = j;
        j += 1;
        resume = i;
      } else if (star >= 0) {
        j = star + 1;
        resume += 1;
        i = resume;
      } else return false;
    }
    while (j < pattern.length && pattern[j] === '%') j += 1;
    return j === pattern.length;
  };
}

/** The table a name is, or a 400 INVALID_QUERY naming the closest tables (pure). */
export function tableNamed(name: string, clause: string, position?: Position): (typeof TABLES)[string] {
  const table = Object.hasOwn(TABLES, name) ? TABLES[name] : undefined;
  if (table !== undefined) return table;
  const closest = closestNames(name, Object.keys(TABLES), 1);
  throw sqlError(
    ErrorCode.InvalidQuery,
    `Unknown table [${name}]${closest.length > 0 ? `; did you mean [${closest[0]}]?` : ''} Tables: ${Object.keys(TABLES).join(', ')} (SHOW TABLES).`,
    clause,
    position,
  );
}

/** The rows a schema statement answers (pure: `schemas` gives each table's mapping). */
export function showPlan(statement: ShowStatement, schemas: Schemas): ValuesPlan {
  const matches = likeMatcher(statement.like);
  if (statement.show === 'tables')
    return {
      kind: 'values',
      columns: [
        { name: 'name', type: 'keyword' },
        { name: 'type', type: 'keyword' },
        { name: 'description', type: 'keyword' },
      ],
      rows: Object.entries(TABLES)
        .filter(([name]) => matches(name))
        .map(([name, t]) => [name, 'TABLE', t.description]),
    };
  if (statement.show === 'functions')
    return {
      kind: 'values',
      columns: [
        { name: 'name', type: 'keyword' },
        { name: 'type', type: 'keyword' },
        { name: 'usage', type: 'keyword' },
        { name: 'description', type: 'keyword' },
      ],
      rows: FUNCTIONS.filter((f) => matches(f.name)).map((f) => [f.name, f.type, f.usage, f.description]),
    };
  const table = tableNamed(statement.table, 'DESCRIBE');
  return {
    kind: 'values',
    columns: [
      { name: 'column', type: 'keyword' },
      { name: 'type', type: 'keyword' },
      { name: 'mapping', type: 'keyword' },
      { name: 'selectable', type: 'boolean' },
      { name: 'searchable', type: 'boolean' },
      { name: 'description', type: 'keyword' },
    ],
    rows: [...schemas(table.kind)]
      .filter(([path]) => matches(path))
      .map(([path, info]) => [
        path,
        sqlTypeOf(info.type),
        info.type,
        SELECTABLE.has(info.type),
        info.searchable,
        info.description ?? null,
      ]),
  };
}
