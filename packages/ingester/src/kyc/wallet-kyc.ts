import { extname } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { isValidClassicAddress } from 'xrpl';
import { isRecord } from '../json.js';

/** One account's wallet KYC status, as the spec's `walletkyc` answers it. */
export interface KycRecord {
  account: string;
  kycApproved: boolean;
}

export interface KycProblem {
  /** 1-based record number in the file. */
  record: number;
  field: string;
  message: string;
}

/** A KYC file's records: a JSON array of `{account, kycApproved}`, or CSV with those two columns. */
export function readKycRecords(fileName: string, text: string): unknown[] {
  if (extname(fileName).toLowerCase() === '.csv') {
    return parseCsv(text, { columns: true, skip_empty_lines: true, trim: true, bom: true }) as unknown[];
  }
  const parsed = JSON.parse(text) as unknown;
  if (!Array.isArray(parsed)) throw new Error('a JSON KYC file holds an array of {account, kycApproved} records');
  return parsed;
}

/** Validates every record; nothing is imported unless all are valid (pure). */
export function validateKycRecords(raw: readonly unknown[]): { records: KycRecord[]; problems: KycProblem[] } {
  const records: KycRecord[] = [];
  const problems: KycProblem[] = [];
  const seen = new Map<string, number>();
  raw.forEach((item, i) => {
    const record = i + 1;
    const fail = (field: string, message: string): void => {
      problems.push({ record, field, message });
    };
    if (!isRecord(item)) return fail('', 'not an object');
    for (const key of Object.keys(item)) if (key !== 'account' && key !== 'kycApproved') fail(key, 'unknown field');
    const { account, kycApproved } = item;
    if (typeof account !== 'string' || !isValidClassicAddress(account))
      return fail('account', 'not a valid classic address');
    let approved: boolean;
    if (kycApproved === true || kycApproved === 'true') approved = true;
    else if (kycApproved === false || kycApproved === 'false') approved = false;
    else return fail('kycApproved', 'required, true or false');
    const previous = seen.get(account);
    if (previous !== undefined) return fail('account', `duplicate of record ${previous}`);
    seen.set(account, record);
    records.push({ account, kycApproved: approved });
  });
  return { records, problems };
}
