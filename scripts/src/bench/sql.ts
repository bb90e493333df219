#!/usr/bin/env node
/**
 * SQL export: rows/s of a CSV export of generated transactions through POST /api/v1/sql, next to
 * the engine's own point-in-time paging of the same query, and the API process's memory growth:
 *
 *   pnpm bench:sql [--rows N] [--port P]
 *
 * Data: N transaction documents (default 1,000,000) cloned from the real fixture transactions,
 * each with its own hash and ledger index, bulk-loaded into indices of a fresh prefix (deleted at
 * the end). The search API runs in its own process so that its peak RSS (VmHWM) is its own.
 * Needs a running engine (`pnpm engine start`) or ES_URL.
 */
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { engineUrl, indexName, ReadEngine, repoRoot } from '@xle/core';
import { EXPORT_PAGE_SIZE } from '@xle/search';
import { benchIndices, loadGeneratedTransactions, mb, memoryOf, numericOptions } from './common.js';

const { numbers } = numericOptions('pnpm bench:sql [--rows N] [--port P]', { rows: 1_000_000, port: 3091 });
const ROWS = numbers.rows;
const PORT = numbers.port;
const PAGE = EXPORT_PAGE_SIZE;
const COLUMNS = ['hash', 'ledger_index', 'TransactionType', 'Account', 'Amount._value', '_date'];
const SQL = `SELECT hash, ledger_index, TransactionType, Account, "Amount._value", _date FROM transactions`;

const { config, client, naming, drop } = await benchIndices('sql', {}, 300_000);
const transactions = indexName(naming, 'transactions');

/** The engine paging the same query by itself: point in time, search_after, the same fields. */
async function rawPaging(): Promise<{ rows: number; seconds: number }> {
  const started = performance.now();
  let rows = 0;
  const pages = new ReadEngine(client).hits(
    { sort: [{ _shard_doc: 'asc' }], _source: COLUMNS, track_total_hits: false },
    { pit: { index: transactions, keepAlive: '2m' }, pageSize: PAGE },
  );
  for await (const page of pages) rows += page.hits.length;
  return { rows, seconds: (performance.now() - started) / 1000 };
}

/** POST /sql?format=csv, reading the stream to the end without keeping it. */
async function export_(base: string): Promise<{ rows: number; seconds: number; bytes: number }> {
  const started = performance.now();
  const response = await fetch(`${base}/api/v1/sql?format=csv`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: SQL }),
  });
  if (response.status !== 200 || response.body === null)
    throw new Error(`export answered ${response.status}: ${await response.text()}`);
  let lines = 0;
  let bytes = 0;
  for await (const chunk of response.body) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines += 1;
  }
  return { rows: lines - 1, seconds: (performance.now() - started) / 1000, bytes };
}

const server = spawn(process.execPath, [`${repoRoot}packages/search/dist/src/server.js`], {
  env: {
    ...process.env,
    ES_URL: engineUrl(config),
    ES_INDEX_PREFIX: naming.prefix,
    SEARCH_PORT: String(PORT),
    // No API key in this benchmark: it measures the export, not the access check.
    SEARCH_ACCESS: 'open',
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});
try {
  console.log(`SQL export benchmark: ${ROWS.toLocaleString('en')} rows, engine ${engineUrl(config)}`);
  await loadGeneratedTransactions(client, naming, ROWS);
  const base = `http://127.0.0.1:${PORT}`;
  for (let i = 0; i < 50; i += 1) {
    if ((await fetch(`${base}/api/v1/sql`, { method: 'POST' }).catch(() => undefined)) !== undefined) break;
    await sleep(100);
  }
  // Warm both paths on a small query, then measure the API process from its settled size.
  await fetch(`${base}/api/v1/sql?format=csv`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: `${SQL} LIMIT 20000` }),
  }).then((r) => r.arrayBuffer());
  const raw = await rawPaging();
  const before = memoryOf(server.pid as number);
  const ours = await export_(base);
  const after = memoryOf(server.pid as number);
  const rawRate = raw.rows / raw.seconds;
  const ourRate = ours.rows / ours.seconds;
  console.log('path                          rows        seconds   rows/s');
  console.log(
    `engine PIT paging (direct)    ${String(raw.rows).padEnd(11)} ${raw.seconds.toFixed(1).padStart(7)}   ${Math.round(rawRate)}`,
  );
  console.log(
    `POST /sql?format=csv          ${String(ours.rows).padEnd(11)} ${ours.seconds.toFixed(1).padStart(7)}   ${Math.round(ourRate)}`,
  );
  console.log(
    `csv export speed: ${((ourRate / rawRate) * 100).toFixed(1)} % of the engine's own paging (${mb(ours.bytes)} of CSV)`,
  );
  console.log(
    `API process memory: RSS ${mb(before.rss)} before the export, peak ${mb(after.peak)}; growth ${mb(Math.max(0, after.peak - before.rss))}`,
  );
} finally {
  server.kill('SIGTERM');
  await drop();
}
