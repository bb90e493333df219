import { decodeLedgerData } from 'ripple-binary-codec';
import { decode, hashes } from 'xrpl';
import { parseRippledTimeText, RIPPLE_EPOCH_OFFSET } from './time.js';
import { isRecord, type Json } from './json.js';

/** One validated ledger in the single shape every transform reads, whatever its source. */
export interface LedgerInput {
  ledger_index: number;
  ledger_hash: string;
  parent_hash: string;
  account_hash?: string;
  transaction_hash?: string;
  /** Seconds since the XRPL epoch. */
  close_time: number;
  close_time_resolution?: number;
  close_flags?: number;
  parent_close_time?: number;
  /** Drops, exact. */
  total_coins: string;
  /** Transactions as rippled's expanded `ledger` gives them: fields, `hash`, `metaData`. */
  transactions: Json[];
  /**
   * The same transactions as received in binary (`tx_blob` and `meta` hex, in the order of
   * `transactions`), when the source sent them so: their hashes are checked on these bytes, which
   * serializing the JSON again would cost milliseconds per transaction. Not part of any document.
   */
  binary?: { tx_blob: string; meta: string }[];
}

export class LedgerShapeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LedgerShapeError';
  }
}

function toInt(value: unknown, field: string): number {
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0)
    throw new LedgerShapeError(`${field} is not an unsigned integer: ${String(value)}`);
  return n;
}

function optionalInt(value: unknown, field: string): number | undefined {
  return value === undefined || value === null ? undefined : toInt(value, field);
}

/**
 * Close time in XRPL-epoch seconds. rippled writes XRPL-epoch seconds; Ripple's Data API v2 wrote
 * Unix seconds. The human form, when present, decides which one a number is.
 */
function closeTimeOf(header: Json, dataApi: boolean): number {
  const raw = toInt(header.close_time, 'close_time');
  const human = parseRippledTimeText(header.close_time_human);
  if (human !== undefined) {
    if (raw + RIPPLE_EPOCH_OFFSET === human) return raw;
    if (raw === human) return raw - RIPPLE_EPOCH_OFFSET;
  }
  return dataApi ? raw - RIPPLE_EPOCH_OFFSET : raw;
}

/** The ledger object inside any envelope: `{result:{ledger}}`, `{ledger}`, `{header,transactions}` or bare. */
function unwrap(raw: Json): { header: Json; transactions: unknown[] } {
  const result = isRecord(raw.result) && !Array.isArray(raw.transactions) ? raw.result : raw;
  if (isRecord(result.header)) {
    return { header: result.header, transactions: Array.isArray(result.transactions) ? result.transactions : [] };
  }
  const ledger = isRecord(result.ledger) ? result.ledger : isRecord(raw.ledger) ? raw.ledger : result;
  return { header: ledger, transactions: Array.isArray(ledger.transactions) ? ledger.transactions : [] };
}

/**
 * One transaction in the expanded v1 shape: fields + `hash` + `metaData`. Accepts rippled v1
 * (`metaData`), v2 (`tx_json` + `meta`), Data API v2 (`tx` + `meta`), and binary (`tx_blob` + hex
 * `meta`, decoded with the XRPL codec, hash = SHA-512Half of "TXN\0" + blob).
 */
function normalizeTransaction(
  raw: unknown,
  ledgerIndex: number,
): { tx: Json; dataApi: boolean; blob?: { tx_blob: string; meta: string } } {
  if (!isRecord(raw))
    throw new LedgerShapeError(`ledger ${ledgerIndex}: a transaction is not an object (not expanded?)`);
  if (typeof raw.tx_blob === 'string') {
    const fields = decode(raw.tx_blob) as Json;
    const meta = typeof raw.meta === 'string' ? (decode(raw.meta) as Json) : raw.meta;
    const tx = { ...fields, hash: hashes.hashSignedTx(raw.tx_blob), metaData: meta };
    if (typeof raw.meta !== 'string') return { tx, dataApi: false };
    return { tx, dataApi: false, blob: { tx_blob: raw.tx_blob, meta: raw.meta } };
  }
  if (isRecord(raw.tx_json))
    return { tx: { ...raw.tx_json, hash: raw.hash, metaData: raw.meta ?? raw.metaData }, dataApi: false };
  if (isRecord(raw.tx))
    return { tx: { ...raw.tx, hash: raw.hash ?? raw.tx.hash, metaData: raw.meta ?? raw.metaData }, dataApi: true };
  const { meta, metaData, ...fields } = raw;
  return { tx: { ...fields, metaData: metaData ?? meta }, dataApi: false };
}

export function normalizeLedger(raw: unknown): LedgerInput {
  if (!isRecord(raw)) throw new LedgerShapeError('a ledger must be a JSON object');
  const { header: found, transactions } = unwrap(raw);
  // A `binary: true` answer gives the header only as `ledger_data`, rippled's serialized header.
  const header: Json =
    typeof found.ledger_data === 'string' ? { ...found, ...(decodeLedgerData(found.ledger_data) as Json) } : found;
  const ledgerIndex = toInt(header.ledger_index ?? header.seqNum ?? raw.ledger_index, 'ledger_index');
  const normalized = transactions
    .map((tx) => normalizeTransaction(tx, ledgerIndex))
    .sort((a, b) => txIndex(a.tx) - txIndex(b.tx));
  const ledgerHash = header.ledger_hash ?? header.hash ?? raw.ledger_hash;
  if (typeof ledgerHash !== 'string' || !/^[0-9A-Fa-f]{64}$/.test(ledgerHash))
    throw new LedgerShapeError(`ledger ${ledgerIndex}: no ledger hash`);
  const totalCoins = header.total_coins ?? header.totalCoins;
  if (typeof totalCoins !== 'string' && typeof totalCoins !== 'number')
    throw new LedgerShapeError(`ledger ${ledgerIndex}: no total_coins`);

  const input: LedgerInput = {
    ledger_index: ledgerIndex,
    ledger_hash: ledgerHash.toUpperCase(),
    parent_hash: String(header.parent_hash ?? '').toUpperCase(),
    close_time: closeTimeOf(
      header,
      normalized.some((n) => n.dataApi),
    ),
    total_coins: String(totalCoins),
    transactions: normalized.map((n) => n.tx),
  };
  const blobs = normalized.flatMap((n) => (n.blob === undefined ? [] : [n.blob]));
  if (blobs.length > 0 && blobs.length === normalized.length) input.binary = blobs;
  if (typeof header.account_hash === 'string') input.account_hash = header.account_hash.toUpperCase();
  if (typeof header.transaction_hash === 'string') input.transaction_hash = header.transaction_hash.toUpperCase();
  const resolution = optionalInt(header.close_time_resolution, 'close_time_resolution');
  if (resolution !== undefined) input.close_time_resolution = resolution;
  const flags = optionalInt(header.close_flags, 'close_flags');
  if (flags !== undefined) input.close_flags = flags;
  const parentClose = optionalInt(header.parent_close_time, 'parent_close_time');
  if (parentClose !== undefined)
    input.parent_close_time = closeTimeOf(
      { close_time: parentClose },
      normalized.some((n) => n.dataApi),
    );
  return input;
}

function txIndex(tx: Json): number {
  const meta = tx.metaData;
  return isRecord(meta) && typeof meta.TransactionIndex === 'number' ? meta.TransactionIndex : Number.MAX_SAFE_INTEGER;
}
