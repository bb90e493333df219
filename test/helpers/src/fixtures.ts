import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesDir } from '@xle/core';

export function readFixture<T = unknown>(relativePath: string): T {
  return JSON.parse(readFileSync(join(fixturesDir, relativePath), 'utf8')) as T;
}

export interface FixtureLedger {
  ledger_index: number | string;
  ledger_hash?: string;
  hash?: string;
  close_time: number;
  transactions: Record<string, unknown>[];
}

/** A rippled `ledger` answer (expanded transactions) from the shared fixtures, envelope removed. */
export function readFixtureLedger(relativePath: string): FixtureLedger {
  const raw = readFixture<Record<string, unknown>>(relativePath);
  const result = (raw.result as Record<string, unknown> | undefined) ?? raw;
  return (result.ledger as FixtureLedger | undefined) ?? (result as unknown as FixtureLedger);
}
