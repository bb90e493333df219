import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fixturesDir } from '@xle/core';
import { isRecord, RIPPLE_EPOCH_OFFSET, type Json, type LedgerInput } from '@xle/documents';

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

/**
 * A fixture's time in XRPL-epoch seconds, whatever unit its recorder wrote: rippled writes XRPL
 * seconds; an explorer's mocks Unix milliseconds (past 10^11), others Unix seconds (past 2^30,
 * which XRPL time reaches only in 2034) or ISO text.
 */
function closeTimeOf(value: unknown): number {
  if (typeof value === 'number') {
    if (value >= 1e11) return Math.round(value / 1000) - RIPPLE_EPOCH_OFFSET;
    if (value >= 2 ** 30) return value - RIPPLE_EPOCH_OFFSET;
    return value;
  }
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

/**
 * Real single-transaction fixtures (transaction and metadata as a `tx` answer gave them) in
 * ledgers of their own at their real ledger index, for tests that need transactions no fixture
 * ledger holds (EnableAmendment, AMMDeposit ...). The ledger header is the test's: its hash and
 * parent hash are made from the index (`AAAA...<index>`) and its total coins fixed, since the
 * answers give none; nothing of the transactions is changed. One ledger per distinct hash.
 */
export function transactionLedgers(which: (tx: Json) => boolean): LedgerInput[] {
  return readTransactionFixtures()
    .filter((f) => which(f.tx))
    .filter((f, i, all) => all.findIndex((g) => g.tx.hash === f.tx.hash) === i)
    .map((f) => ({
      ledger_index: f.ledgerIndex,
      ledger_hash: String(f.ledgerIndex).padStart(64, 'A'),
      parent_hash: String(f.ledgerIndex - 1).padStart(64, 'A'),
      close_time: f.closeTime,
      total_coins: '99990000000000000',
      transactions: [f.tx],
    }));
}

/**
 * A data-set document as two runs over the same ledgers must both write it: wall-clock times and
 * the as-of ledger a record was computed at say when, not what, and are left out; a token's supply
 * is the engine's double-precision sum of its trust lines, whose last digits depend on the order
 * the engine adds them in (its segments differ between two indices built in different batches),
 * so it is compared to 12 significant digits.
 */
export function comparableDataSet(source: Json | undefined): unknown {
  if (source === undefined) return source;
  const { computed_at: _computed, ledger_index: _ledger, _toml, ...rest } = source;
  const digits = (n: unknown): unknown =>
    typeof n === 'number' ? Number(n.toPrecision(12)) : Number(Number(n).toPrecision(12));
  if (rest.supply !== undefined) {
    rest.supply = digits(rest.supply);
    rest.marketcap = digits(rest.marketcap);
    const metrics = rest.metrics as Json;
    rest.metrics = { ...metrics, supply: digits(metrics.supply), marketcap: digits(metrics.marketcap) };
  }
  if (_toml === undefined) return rest;
  const toml = _toml as Json;
  // When a toml file was read is wall-clock time.
  return {
    ...rest,
    _toml: { ...toml, fetched_at: 'omitted', data_fetched_at: toml.data_fetched_at === null ? null : 'omitted' },
  };
}
