import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decode, hashes, unixTimeToRippleTime } from 'xrpl';
import { fixturesDir } from '@xle/core';

/**
 * The fixture ledgers as their files hold them, read here as raw JSON (the binary one decoded by
 * xrpl.js), sharing none of the ingester's code: the independent side of the contract tests.
 */

type Json = Record<string, unknown>;

export interface RawTransaction {
  file: string;
  tx: Json;
  meta: Json;
  ledgerIndex: number;
  /** XRPL epoch seconds. */
  closeTime: number;
  /** The instant the file gives the transaction itself, when it does (ISO 8601). */
  date?: string;
}

export interface RawLedger {
  file: string;
  header: Json;
  /** The `total_coins` digits as written in the file (above 2^53: never through a JSON number). */
  totalCoins: string;
  transactions: RawTransaction[];
}

/**
 * A close time in XRPL epoch seconds: rippled writes it so; the historical database's API wrote
 * Unix seconds (any value past 2^30 is one: XRPL time reaches it in 2034).
 */
export function xrplTime(value: unknown): number {
  const seconds = Number(value);
  return seconds >= 2 ** 30 ? unixTimeToRippleTime(seconds * 1000) : seconds;
}

/** A fixture ledger as its file holds it, whatever its recorder's shape. */
export function readRawLedger(file: string): RawLedger {
  const text = readFileSync(join(fixturesDir, file), 'utf8');
  const root = JSON.parse(text) as Json;
  const body = ((root.result as Json | undefined)?.ledger ?? root.ledger ?? root) as Json;
  const header = (root.header ?? body) as Json;
  const ledgerIndex = Number(header.ledger_index);
  const closeTime = xrplTime(header.close_time);
  const transactions = (body.transactions as Json[]).map((entry): RawTransaction => {
    if (typeof entry.tx_blob === 'string') {
      // The binary rendering: decoded by xrpl.js, hashed by it.
      const tx = decode(entry.tx_blob) as Json;
      tx.hash = hashes.hashSignedTx(entry.tx_blob);
      return { file, tx, meta: decode(String(entry.meta)) as Json, ledgerIndex, closeTime };
    }
    if (typeof entry.tx === 'object' && entry.tx !== null) {
      // The historical database's shape: {hash, ledger_index, date, tx, meta}.
      const tx = { ...(entry.tx as Json), hash: entry.hash };
      const date = new Date(String(entry.date)).toISOString();
      return { file, tx, meta: entry.meta as Json, ledgerIndex, closeTime, date };
    }
    const { metaData, meta, ...tx } = entry;
    return { file, tx, meta: (metaData ?? meta) as Json, ledgerIndex, closeTime };
  });
  const totalCoins = /"total_coins"\s*:\s*"?(\d+)/.exec(text)?.[1] ?? '';
  return { file, header, totalCoins, transactions };
}
