import { extname } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { isValidClassicAddress } from 'xrpl';
import { isRecord, type Json } from '@xle/documents';

/** One problem of an imported file: 1-based record number, field ('' for the whole record), message. */
export interface RecordProblem {
  record: number;
  field: string;
  message: string;
}

/** The rows of a CSV file with a header row, or the items of a JSON array (`what` names the file kind). */
export function readRecordsFile(fileName: string, text: string, what: string): unknown[] {
  if (extname(fileName).toLowerCase() === '.csv') {
    return parseCsv(text, { columns: true, skip_empty_lines: true, trim: true, bom: true }) as unknown[];
  }
  const parsed = JSON.parse(text) as unknown;
  if (!Array.isArray(parsed)) throw new Error(`a JSON ${what} file holds an array of records`);
  return parsed;
}

/**
 * Validates per-account records (pure): each must be an object with only `fields`, a checksummed
 * classic `account`, and no account twice; `build` checks the rest, reports through `fail`, and
 * returns the record, or undefined when it cannot be built. Every problem is reported.
 */
export function validateAccountRecords<T>(
  raw: readonly unknown[],
  fields: readonly string[],
  build: (item: Json, account: string, fail: (field: string, message: string) => void) => T | undefined,
): { records: T[]; problems: RecordProblem[] } {
  const records: T[] = [];
  const problems: RecordProblem[] = [];
  const seen = new Map<string, number>();
  raw.forEach((item, i) => {
    const record = i + 1;
    const fail = (field: string, message: string): void => {
      problems.push({ record, field, message });
    };
    if (!isRecord(item)) return fail('', 'not an object');
    for (const key of Object.keys(item)) if (!fields.includes(key)) fail(key, 'unknown field');
    const account = item.account;
    if (typeof account !== 'string' || !isValidClassicAddress(account))
      return fail('account', 'not a valid classic address');
    const built = build(item, account, fail);
    if (built === undefined) return;
    const previous = seen.get(account);
    if (previous !== undefined) return fail('account', `duplicate of record ${previous}`);
    seen.set(account, record);
    records.push(built);
  });
  return { records, problems };
}
