import t from 'tap';
import { indexName, rangeIndices } from '@xle/core';
import type { LedgerInput } from '@xle/documents';
import { createTestIndices } from '@xle/test-helpers';
import { fixtureLedgers, getJson, ingest, serve } from '../fixtures/serve.js';

/**
 * A ledger's transactions are answered whole or not at all. Its header is read by id (realtime)
 * while its transactions are searched (visible only once their shards refresh), and the ingester
 * writes a ledger's documents in more than one bulk request: near the tip the header can be there
 * before all of its transactions. The answer is cached as immutable, so a part of the list must
 * never be answered: 503 LEDGER_NOT_READY with Retry-After until the list is whole, 500
 * LEDGER_INCOMPLETE when the missing ones were refused by the engine (dead letters), 503
 * INDEX_NOT_FOUND when their range is gone.
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

t.test('every fixture ledger answers whole (a pseudo-transaction too)', async (t) => {
  for (const l of ledgers) {
    const answer = await getJson(`${base}/ledger/${l.ledger_index}/transactions`);
    t.equal(answer.status, 200, `ledger ${l.ledger_index}`);
    t.equal((answer.body as unknown[]).length, l.transactions.length, `ledger ${l.ledger_index}: all of them`);
  }
});

t.test('one transaction not searchable yet: 503 LEDGER_NOT_READY, then whole again', async (t) => {
  const hit = await removeTransaction(hashes[1]!);
  const answer = await getJson(path);
  t.equal(answer.status, 503, 'not a part of the list');
  t.match(answer.body, {
    error: {
      code: 'LEDGER_NOT_READY',
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

t.test('one transaction refused by the engine (a dead letter): 500 LEDGER_INCOMPLETE, not a wait', async (t) => {
  const hit = await removeTransaction(hashes[2]!);
  // What the bulk writer records for a document the engine refused for good.
  await target.client.index({
    index: indexName(target.naming, 'dead-letters'),
    id: `${hit._index}:${hit._id!}:0`,
    document: {
      target_index: hit._index,
      doc_id: hit._id,
      version: 0,
      ledger_index: ledger.ledger_index,
      status: 400,
      error_type: 'document_parsing_exception',
      error_reason: 'a field whose type clashes with the mapping',
      document: hit._source,
      failed_at: new Date().toISOString(),
    },
    refresh: true,
  });
  const answer = await getJson(path);
  t.equal(answer.status, 500, 'waiting will not make it whole');
  t.match(answer.body, {
    error: { code: 'LEDGER_INCOMPLETE', details: { ledger_index: ledger.ledger_index, refused: 1 } },
  });
  t.equal(answer.headers.get('retry-after'), null, 'no Retry-After');
  await target.client.index({ index: hit._index, id: hit._id!, document: hit._source, refresh: true });
  t.equal((await getJson(path)).status, 200, 'whole once the dead letter is replayed');
});

t.test("its transactions' range gone: 503 INDEX_NOT_FOUND, not an empty list", async (t) => {
  const { _index: range } = await findTransaction(hashes[0]!);
  await target.client.indices.delete({ index: range });
  const answer = await getJson(path);
  t.equal(answer.status, 503);
  t.match(answer.body, { error: { code: 'INDEX_NOT_FOUND' } });
});

/** A transaction's document as the engine holds it. */
async function findTransaction(hash: string): Promise<{ _index: string; _id?: string; _source?: unknown }> {
  const indices = await rangeIndices(target.client, target.naming, 'transactions');
  const found = await target.client.search({ index: indices, query: { term: { hash } } });
  return found.hits.hits[0]!;
}

/** Removes a transaction's document from the index (as if not written yet) and returns it. */
async function removeTransaction(hash: string): Promise<{ _index: string; _id?: string; _source?: unknown }> {
  const hit = await findTransaction(hash);
  await target.client.delete({ index: hit._index, id: hit._id!, refresh: true });
  return hit;
}
