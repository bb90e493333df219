import t from 'tap';
import { createLogger, rangeIndices, ReadEngine } from '@xle/core';
import { createTestIndices, syntheticLedgers } from '@xle/test-helpers';
import { fixtureLedgers, ingest } from '@xle/test-loaded';
import { CursorStore } from '../../src/engine/cursor-store.js';
import { initialState } from '../../src/sql/execute.js';
import type { SqlCursor } from '../../src/sql/execute.js';
import { post, serveSearch } from '../fixtures/serve.js';

/**
 * SQL cursors at mainnet's shape: a history in 100 range indices (ranges of 1,000 ledgers, about one
 * synthetic ledger in each), where a point in time over every range is kilobytes long. The cursor
 * a client holds stays a short token; the state it names is kept in the engine.
 */
const RANGE = 1000;
const RANGES = 100;
const real = fixtureLedgers();
const ledgers = [
  ...syntheticLedgers(real, {
    transactions: RANGES * 5,
    perLedger: 4,
    startLedger: 400_000_000,
    ledgerStride: RANGE,
    seed: 'cursors',
  }),
];

const target = await createTestIndices(t, { es: { rangeLedgers: RANGE } });
await ingest(target, ledgers);
const base = await serveSearch(t, target);
const store = new CursorStore<SqlCursor>(
  new ReadEngine(target.client),
  target.naming,
  createLogger('cursors-test', 'silent'),
);

const ranges = await rangeIndices(target.client, target.naming, 'transactions');
t.ok(ranges.length >= RANGES, `${ranges.length} transaction range indices`);

interface JsonPage {
  rows: [string, number][];
  cursor?: string;
}

t.test('a cursor over 100 range indices stays under 1 KB and pages to the end', async (t) => {
  const query = 'SELECT hash, ledger_index FROM transactions ORDER BY ledger_index, hash';
  const everything = ((await post(`${base}/sql`, { query })).json as JsonPage).rows;
  t.equal(everything.length, RANGES * 5, 'every transaction, streamed without a cursor');
  const first = await post(`${base}/sql`, { query, fetch_size: 30 });
  t.equal(first.headers.get('cursor'), null, 'json carries the cursor in its body only');
  let page = first.json as JsonPage;
  const seen = [...page.rows];
  const sizes: number[] = [];
  while (page.cursor !== undefined) {
    sizes.push(Buffer.byteLength(page.cursor));
    page = (await post(`${base}/sql`, { cursor: page.cursor })).json as JsonPage;
    seen.push(...page.rows);
  }
  t.same(seen, everything, `${sizes.length + 1} pages, every row once, in order`);
  t.ok(Math.max(...sizes) < 1024, `cursors of ${Math.min(...sizes)}–${Math.max(...sizes)} bytes`);
  const rangesRead = new Set(seen.map((r) => Math.floor(r[1] / RANGE))).size;
  t.ok(rangesRead >= RANGES, `the rows come from ${rangesRead} ranges`);

  // The point in time the cursor stands for, as the engine names it: what the cursor used to carry.
  const pit = await target.client.openPointInTime({
    index: `${target.naming.prefix}-${target.naming.network}-transactions`,
    keep_alive: '10s',
  });
  t.ok(pit.id.length > 1024, `the point in time over every range is ${pit.id.length} characters`);
  await target.client.closePointInTime({ id: pit.id });
});

t.test('a page asked again answers the same rows; csv pages carry the cursor in a header', async (t) => {
  const query = 'SELECT hash FROM transactions ORDER BY ledger_index, hash';
  const first = await post(`${base}/sql?format=csv`, { query, fetch_size: 50 });
  const cursor = first.headers.get('cursor');
  t.ok(cursor !== null && cursor.length < 1024, `Cursor header of ${cursor?.length} characters`);
  const again = await post(`${base}/sql?format=csv`, { cursor });
  const twice = await post(`${base}/sql?format=csv`, { cursor });
  t.equal(again.status, 200);
  t.equal(twice.text, again.text, 'a retried page reads the same state and answers the same rows');
  t.not(twice.headers.get('cursor'), again.headers.get('cursor'), 'each page gets its own cursor');
  const closed = await post(`${base}/sql/close`, { cursor: again.headers.get('cursor') });
  t.same(closed.json, { succeeded: true });
  const afterClose = await post(`${base}/sql?format=csv`, { cursor: again.headers.get('cursor') });
  t.equal(afterClose.status, 400, 'a closed cursor is refused');
  t.match(afterClose.json, { error: { code: 'INVALID_CURSOR', message: /closed/ } });
  const stale = await post(`${base}/sql?format=csv`, { cursor: twice.headers.get('cursor') });
  t.equal(stale.status, 400, 'another cursor of the same result, once its point in time is closed');
  t.match(stale.json, { error: { code: 'INVALID_CURSOR' } });
});

t.test('an expired cursor is a 400 INVALID_CURSOR saying when it expired', async (t) => {
  const state = { sql: 'SELECT hash FROM transactions', now: Date.now(), state: initialState(), fetchSize: 10 };
  const issued = Date.now() - 100_000;
  const token = await store.save(state, issued);
  const expired = await post(`${base}/sql`, { cursor: token });
  t.equal(expired.status, 400);
  t.match(expired.json, {
    error: {
      code: 'INVALID_CURSOR',
      message: new RegExp(`expired at ${new Date(issued + 90_000).toISOString()}.*cursors live 90 s between pages`),
      details: { parameter: 'cursor' },
    },
  });
  const fresh = await store.save(state);
  t.equal((await post(`${base}/sql`, { cursor: fresh })).status, 200, 'within its 90 s, the same state answers');
  const never = await post(`${base}/sql`, { cursor: 'AAAAAAAAAAAAAAAAAAAAAA.zzzzzzzz' });
  t.equal(never.status, 400, 'a well-formed token this service never issued');
  t.match(never.json, { error: { code: 'INVALID_CURSOR', message: /not issued by this service/ } });
  const malformed = await post(`${base}/sql`, { cursor: 'not a cursor' });
  t.match(malformed.json, { error: { code: 'INVALID_CURSOR', message: /malformed/ } });
});
