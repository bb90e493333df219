import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fixturesDir } from '@xle/core';
import { isRecord, RIPPLE_EPOCH_OFFSET, type Json } from '@xle/documents';

export interface FixtureTransaction {
  file: string;
  /** Expanded v1 shape: transaction fields, `hash`, `metaData`. */
  tx: Json;
  ledgerIndex: number;
  /** XRPL-epoch seconds (0 when the fixture does not say). */
  closeTime: number;
  /** The ctid rippled itself returned with the transaction, when it did. */
  ctid?: string;
}

function closeTimeOf(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && !Number.isNaN(Date.parse(value)))
    return Math.round(Date.parse(value) / 1000) - RIPPLE_EPOCH_OFFSET;
  return 0;
}

/** Every transaction-with-metadata record inside a JSON document, whatever API answer wraps it. */
export function findTransactions(value: unknown, file: string, found: FixtureTransaction[] = []): FixtureTransaction[] {
  if (Array.isArray(value)) {
    for (const item of value) findTransactions(item, file, found);
    return found;
  }
  if (!isRecord(value)) return found;
  const inner = [value.tx_json, value.tx, value.transaction].find(
    (v) => isRecord(v) && typeof v.TransactionType === 'string',
  ) as Json | undefined;
  const meta = [value.meta, value.metaData, inner?.meta, inner?.metaData].find(isRecord);
  const self = typeof value.TransactionType === 'string' ? value : undefined;
  const tx = inner ?? self;
  if (tx !== undefined && meta !== undefined) {
    const { meta: _m, metaData: _md, ...fields } = tx;
    const ledgerIndex = Number(value.ledger_index ?? value.inLedger ?? tx.ledger_index ?? tx.inLedger ?? 0);
    const record: FixtureTransaction = {
      file,
      tx: { ...fields, hash: value.hash ?? tx.hash, metaData: meta },
      ledgerIndex,
      closeTime: closeTimeOf(value.date ?? value.close_time_iso ?? tx.date),
    };
    const ctid = value.ctid ?? tx.ctid;
    if (typeof ctid === 'string') record.ctid = ctid;
    found.push(record);
    return found;
  }
  for (const child of Object.values(value)) findTransactions(child, file, found);
  return found;
}

/** All single-transaction fixtures (transactions/**), mainnet and not. */
export function readTransactionFixtures(sub = 'transactions'): FixtureTransaction[] {
  const root = join(fixturesDir, sub);
  const found: FixtureTransaction[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry.endsWith('.json'))
        findTransactions(JSON.parse(readFileSync(path, 'utf8')), relative(fixturesDir, path), found);
    }
  };
  walk(root);
  return found;
}

/** Every fixture ledger file (ledgers/**), relative to the fixtures folder. */
export function listFixtureLedgers(): string[] {
  const root = join(fixturesDir, 'ledgers');
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry.endsWith('.json')) files.push(relative(fixturesDir, path));
    }
  };
  walk(root);
  return files;
}
