#!/usr/bin/env node
/**
 * Bulk export: documents/s of GET /api/v1/export/transactions (NDJSON) over N generated
 * transactions, next to the engine's own point-in-time paging of the same range in the same
 * order, and the API process's memory growth:
 *
 *   pnpm bench:export [--rows N] [--rounds R]
 *
 * Data: N transaction documents (default 1,000,000) cloned from the real fixture transactions,
 * each with its own hash and place (see loadGeneratedTransactions), in indices of a fresh prefix
 * (deleted at the end). The API runs in its own process in the default configuration (plans
 * mode, an Enterprise key); the direct side is this process paging with the engine client, as a
 * program that talks to Elasticsearch itself would. R rounds alternate which side goes first;
 * the median of each side's rates is reported. Needs a running engine or ES_URL.
 */
import { ApiKeyStore } from '@xle/access';
import { engineUrl, indexName, ReadEngine } from '@xle/core';
import {
  benchIndices,
  GENERATED_FIRST_LEDGER,
  loadGeneratedTransactions,
  mb,
  memoryOf,
  numericOptions,
  startApiProcess,
  TRANSACTIONS_PER_LEDGER,
} from './common.js';

const { numbers } = numericOptions('pnpm bench:export [--rows N] [--rounds R]', { rows: 1_000_000, rounds: 3 });
const ROWS = numbers.rows;
/** The engine page of both sides (the API's own export page). */
const PAGE = 1000;
const FROM = GENERATED_FIRST_LEDGER;
const TO = GENERATED_FIRST_LEDGER + Math.ceil(ROWS / TRANSACTIONS_PER_LEDGER) - 1;

const { config, client, naming, drop } = await benchIndices('export', {}, 300_000);
const transactions = indexName(naming, 'transactions');

/** The engine's own paging of the same range, in the same order, whole documents. */
async function direct(): Promise<{ docs: number; seconds: number }> {
  const started = performance.now();
  let docs = 0;
  const pages = new ReadEngine(client).hits(
    {
      query: { bool: { filter: [{ range: { ledger_index: { gte: FROM, lte: TO } } }] } },
      sort: [{ ledger_index: 'asc' }, { 'meta.TransactionIndex': 'asc' }],
      track_total_hits: false,
    },
    { pit: { index: transactions, keepAlive: '2m' }, pageSize: PAGE },
  );
  for await (const page of pages) docs += page.hits.length;
  return { docs, seconds: (performance.now() - started) / 1000 };
}

/** GET /export/transactions, read to the end without keeping it (lines counted). */
async function ours(base: string, key: string): Promise<{ docs: number; seconds: number; bytes: number }> {
  const started = performance.now();
  const response = await fetch(`${base}/api/v1/export/transactions?from_ledger=${FROM}&to_ledger=${TO}`, {
    headers: { 'X-API-Key': key, 'Accept-Encoding': 'identity' },
  });
  if (response.status !== 200 || response.body === null)
    throw new Error(`export answered ${response.status}: ${await response.text()}`);
  let docs = 0;
  let bytes = 0;
  for await (const chunk of response.body) {
    bytes += chunk.length;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) docs += 1;
  }
  return { docs, seconds: (performance.now() - started) / 1000, bytes };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

console.log(`Export benchmark: ${ROWS.toLocaleString('en')} transactions, engine ${engineUrl(config)}`);
await loadGeneratedTransactions(client, naming, ROWS);
const { key } = await new ApiKeyStore(client, naming).create('enterprise', 'bench:export');
const api = await startApiProcess(config);
try {
  // Warm both paths on a small range, then measure the API process from its settled size.
  await fetch(`${api.url}/api/v1/export/transactions?from_ledger=${FROM}&to_ledger=${FROM + 500}`, {
    headers: { 'X-API-Key': key },
  }).then((r) => r.arrayBuffer());
  const before = memoryOf(api.child.pid as number);
  const rates = { direct: [] as number[], ours: [] as number[] };
  let bytes = 0;
  for (let round = 0; round < numbers.rounds; round += 1) {
    const order = round % 2 === 0 ? (['direct', 'ours'] as const) : (['ours', 'direct'] as const);
    for (const side of order) {
      const result = side === 'direct' ? await direct() : await ours(api.url, key);
      if (result.docs !== ROWS) throw new Error(`${side} read ${result.docs} documents, not ${ROWS}`);
      if ('bytes' in result) bytes = Number(result.bytes);
      rates[side].push(result.docs / result.seconds);
      console.log(
        `  round ${round + 1} ${side.padEnd(6)} ${result.seconds.toFixed(1).padStart(6)} s  ${Math.round(result.docs / result.seconds)} docs/s`,
      );
    }
  }
  const after = memoryOf(api.child.pid as number);
  const [d, o] = [median(rates.direct), median(rates.ours)];
  console.log('side                                        docs/s (median)');
  console.log(`engine PIT paging (direct, same range)      ${Math.round(d)}`);
  console.log(`GET /export/transactions (NDJSON)           ${Math.round(o)}`);
  console.log(`export speed: ${((o / d) * 100).toFixed(1)} % of the engine's own paging (${mb(bytes)} of NDJSON)`);
  console.log(
    `API process memory: RSS ${mb(before.rss)} before the exports, peak ${mb(after.peak)}; growth ${mb(Math.max(0, after.peak - before.rss))}`,
  );
} finally {
  await api.close();
  await drop();
}
