import { readRecordsFile, validateAccountRecords, type RecordProblem } from '../records/account-records.js';

/** One account's wallet KYC status, as the spec's `walletkyc` answers it. */
export interface KycRecord {
  account: string;
  kycApproved: boolean;
}

export type KycProblem = RecordProblem;

/** A KYC file's records: a JSON array of `{account, kycApproved}`, or CSV with those two columns. */
export function readKycRecords(fileName: string, text: string): unknown[] {
  return readRecordsFile(fileName, text, 'KYC');
}

/** Validates every record; nothing is imported unless all are valid (pure). */
export function validateKycRecords(raw: readonly unknown[]): { records: KycRecord[]; problems: KycProblem[] } {
  return validateAccountRecords(raw, ['account', 'kycApproved'], (item, account, fail) => {
    const { kycApproved } = item;
    if (kycApproved === true || kycApproved === 'true') return { account, kycApproved: true };
    if (kycApproved === false || kycApproved === 'false') return { account, kycApproved: false };
    fail('kycApproved', 'required, true or false');
    return undefined;
  });
}
