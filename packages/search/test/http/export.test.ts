import { setTimeout as sleep } from 'node:timers/promises';
import t from 'tap';
import { indexName } from '@xle/core';
import { createTestIndices } from '@xle/test-helpers';
import { serveSearch } from '../fixtures/serve.js';

const ROWS = 30_000;
const target = await createTestIndices(t);
const index = indexName(target.naming, 'transactions');
let body = '';
for (let i = 0; i < ROWS; i += 1) {
  const hash = i.toString(16).toUpperCase().padStart(64, '0');
  body += `{"index":{"_index":"${index}","_id":"${hash}"}}\n{"hash":"${hash}","ledger_index":${80_000_000 + i},"TransactionType":"Payment"}\n`;
}
await target.client.transport.request(
  { method: 'POST', path: '/_bulk', body, querystring: { refresh: 'true', filter_path: 'errors' } },
  { headers: { 'content-type': 'application/x-ndjson' } },
);
const base = await serveSearch(t, target);

/** Search contexts open on this test's index: one per point in time still alive on it. */
async function openContexts(): Promise<number> {
  const stats = await target.client.indices.stats({ index, metric: 'search' });
  return stats._all.total?.search?.open_contexts ?? 0;
}

async function contextsSettle(expected: number): Promise<number> {
  let now = await openContexts();
  for (let i = 0; i < 40 && now !== expected; i += 1) {
    await sleep(100);
    now = await openContexts();
  }
  return now;
}

t.test('a full export streams every row once, then its point in time is closed', async (t) => {
  const idle = await openContexts();
  const response = await fetch(`${base}/sql?format=csv`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'SELECT hash, ledger_index FROM transactions' }),
  });
  const lines = (await response.text()).split('\r\n').filter((l) => l !== '');
  t.equal(lines.length, ROWS + 1, 'a header and every row');
  t.equal(new Set(lines).size, ROWS + 1, 'no row twice');
  t.equal(await contextsSettle(idle), idle, 'no search context left open');
});

t.test('a client that disconnects mid-export stops the engine work', async (t) => {
  const idle = await openContexts();
  const controller = new AbortController();
  const response = await fetch(`${base}/sql?format=csv`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'SELECT hash, ledger_index FROM transactions' }),
    signal: controller.signal,
  });
  const reader = response.body?.getReader();
  const first = await reader?.read();
  t.ok((first?.value?.length ?? 0) > 0, 'the export started');
  t.ok((await openContexts()) > idle, 'a point in time is open while it runs');
  controller.abort();
  t.equal(await contextsSettle(idle), idle, 'the point in time is closed once the client is gone');
});

t.test('a cursor left unused can be closed, which frees its point in time', async (t) => {
  const idle = await openContexts();
  const first = await fetch(`${base}/sql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'SELECT hash FROM transactions', fetch_size: 10 }),
  });
  const { cursor } = (await first.json()) as { cursor: string };
  t.ok((await openContexts()) > idle, 'the cursor holds a point in time');
  const closed = await fetch(`${base}/sql/close`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ cursor }),
  });
  t.same(await closed.json(), { succeeded: true });
  t.equal(await contextsSettle(idle), idle, 'closed');
  const afterClose = await fetch(`${base}/sql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ cursor }),
  });
  t.equal(afterClose.status, 400, 'a closed cursor is a 400, not a 500');
  t.match(await afterClose.json(), { error: { code: 'INVALID_CURSOR', message: /was closed/ } });
});
