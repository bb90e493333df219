import t from 'tap';
import { rangeIndices } from '@xle/core';
import type { LedgerInput } from '@xle/documents';
import { createTestIndices } from '@xle/test-helpers';
import { fixtureLedgers, getJson, ingest, serve } from '../fixtures/serve.js';

/**
 * A ledger's transactions are answered whole or not at all. Its header is read by id (realtime)
 * while its transactions are searched (visible only once their shards refresh), and the ingester
 * writes a ledger's documents in more than one bulk request: near the tip the header can be there
 * before all of its transactions. The answer is cached as immutable, so a part of the list must
 * never be answered: 503 DATA_NOT_READY with Retry-After until the list is whole.
 */
const target = await createTestIndices(t);
const base = await serve(t, target);
const ledgers = fixtureLedgers();
const ledger = ledgers
  .filter((l) => l.transactions.length >= 3)
  .sort((a, b) => a.transactions.length - b.transactions.length)[0] as LedgerInput;
await ingest(target, ledgers);
const path = `${base}/ledger/${ledger.ledger_index}/transactions`;
const hashes = ledger.transactions.map((tx) => String(tx.hash));

t.test('whole: every transaction, immutable', async (t) => {
  const answer = await getJson(path);
  t.equal(answer.status, 200);
  const list = answer.body as { hash: string }[];
  t.same(new Set(list.map((tx) => tx.hash)), new Set(hashes), `its ${hashes.length} transactions`);
  t.match(answer.headers.get('cache-control'), /immutable/);
});

t.test('every fixture ledger answers whole (pseudo-transactions and empty ledgers too)', async (t) => {
  for (const l of ledgers) {
    const answer = await getJson(`${base}/ledger/${l.ledger_index}/transactions`);
    t.equal(answer.status, 200, `ledger ${l.ledger_index}`);
    t.equal((answer.body as unknown[]).length, l.transactions.length, `ledger ${l.ledger_index}: all of them`);
  }
});

t.test('one transaction not searchable yet: 503 DATA_NOT_READY, then whole again', async (t) => {
  const indices = await rangeIndices(target.client, target.naming, 'transactions');
  const missing = hashes[1]!;
  const found = await target.client.search({ index: indices, query: { term: { hash: missing } } });
  const hit = found.hits.hits[0]!;
  await target.client.delete({ index: hit._index, id: hit._id!, refresh: true });

  const answer = await getJson(path);
  t.equal(answer.status, 503, 'not a part of the list');
  t.match(answer.body, {
    error: {
      code: 'DATA_NOT_READY',
      details: { ledger_index: ledger.ledger_index, searchable: hashes.length - 1, tx_count: hashes.length },
    },
  });
  t.equal(answer.headers.get('retry-after'), '1', 'Retry-After');
  t.notMatch(answer.headers.get('cache-control') ?? '', /immutable|max-age=[1-9]/, 'not cacheable');
  t.equal((await getJson(`${base}/ledger/${ledger.ledger_index}`)).status, 200, 'its header answers meanwhile');

  await target.client.index({ index: hit._index, id: hit._id!, document: hit._source, refresh: true });
  const again = await getJson(path);
  t.equal(again.status, 200, 'whole again once searchable');
  t.equal((again.body as unknown[]).length, hashes.length);
});
