import { createHash } from 'node:crypto';
import { isRecord, type Json } from '@xle/documents';
import { readRecordsFile, validateAccountRecords, type RecordProblem } from '../records/account-records.js';

/** A label of a well-known account, as the names index stores it. */
export interface NameRecord {
  account: string;
  name: string;
  desc?: string;
  domain?: string;
  twitter?: string;
  verified?: boolean;
}

export type NameProblem = RecordProblem;

const FIELDS = ['account', 'name', 'desc', 'domain', 'twitter', 'verified'] as const;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const TWITTER = /^@?[A-Za-z0-9_]{1,15}$/;

/**
 * Records from a JSON array of label objects, a CSV file with a header row (account, name, desc,
 * domain, twitter, verified), or the historical gateways list (`{name, domain, accounts:
 * [{address, currencies}], hotwallets}`), whose issuing accounts and hot wallets become labels.
 */
export function readNameRecords(fileName: string, text: string): unknown[] {
  const parsed = readRecordsFile(fileName, text, 'names');
  const gateways = parsed.filter((item: unknown) => isRecord(item) && Array.isArray(item.accounts)) as Json[];
  const others = parsed.filter((item: unknown) => !(isRecord(item) && Array.isArray(item.accounts)));
  return [...mergeByAccount(gateways.flatMap(fromGateway)), ...others];
}

/**
 * Gateways that shared accounts (one operator behind two brands) become one label per account:
 * names joined with " / ", descriptions with "; ", the first domain kept.
 */
function mergeByAccount(records: Json[]): Json[] {
  const merged = new Map<unknown, Json>();
  for (const record of records) {
    const existing = merged.get(record.account);
    if (existing === undefined) {
      merged.set(record.account, { ...record });
      continue;
    }
    const join = (a: unknown, b: unknown, sep: string): unknown =>
      b === undefined || a === b ? a : a === undefined ? b : `${String(a)}${sep}${String(b)}`;
    existing.name = join(existing.name, record.name, ' / ');
    existing.desc = join(existing.desc, record.desc, '; ');
    existing.domain ??= record.domain;
  }
  return [...merged.values()];
}

function fromGateway(gateway: Json): Json[] {
  const name = String(gateway.name ?? '');
  const domain = typeof gateway.domain === 'string' ? gateway.domain : undefined;
  const out: Json[] = [];
  for (const issuing of gateway.accounts as unknown[]) {
    if (!isRecord(issuing)) continue;
    const currencies = isRecord(issuing.currencies) ? Object.keys(issuing.currencies) : [];
    out.push({
      account: issuing.address,
      name,
      domain,
      desc: currencies.length > 0 ? `Issuer of ${currencies.join(', ')}` : 'Issuer',
    });
  }
  for (const hot of Array.isArray(gateway.hotwallets) ? gateway.hotwallets : []) {
    out.push({ account: hot, name: `${name} hot wallet`, domain });
  }
  return out;
}

/** Validates every record; nothing is imported unless all are valid. Pure. */
export function validateNameRecords(raw: readonly unknown[]): { records: NameRecord[]; problems: NameProblem[] } {
  return validateAccountRecords(raw, FIELDS, (item, account, fail) => {
    const name = item.name;
    if (typeof name !== 'string' || name.trim() === '' || name.length > 200) {
      fail('name', 'required, 1 to 200 characters');
      return undefined;
    }
    const out: NameRecord = { account, name: name.trim() };
    const text = (field: 'desc' | 'domain' | 'twitter', max: number, pattern?: RegExp): void => {
      const value = item[field];
      if (value === undefined || value === null || value === '') return;
      if (typeof value !== 'string' || value.length > max || (pattern !== undefined && !pattern.test(value)))
        return fail(field, `not a valid ${field}`);
      out[field] = field === 'twitter' ? value.replace(/^@/, '') : value;
    };
    text('desc', 1000);
    text('domain', 253, DOMAIN);
    text('twitter', 16, TWITTER);
    const verified = item.verified;
    if (verified !== undefined && verified !== '') {
      if (verified === true || verified === 'true') out.verified = true;
      else if (verified === false || verified === 'false') out.verified = false;
      else fail('verified', 'true or false');
    }
    return out;
  });
}

/** The version of an import: the hash of its records, so the same content is the same version. */
export function recordsVersion(records: readonly { account: string }[]): string {
  const canonical = [...records]
    .sort((a, b) => (a.account < b.account ? -1 : 1))
    .map((r) => JSON.stringify(r, Object.keys(r).sort()));
  return createHash('sha256').update(canonical.join('\n')).digest('hex').slice(0, 16);
}
