import t from 'tap';
import { indexName, rangeIndices } from '@xle/core';
import type { LedgerInput } from '@xle/documents';
import { createTestIndices } from '@xle/test-helpers';
import { fixtureLedgers, getJson, ingest, serve, withoutAnswerCache } from '../fixtures/serve.js';

/**
 * An index deleted under a running app (an operator's mistake, or a `--recreate-stale` under way):
 * the routes that read it answer 503 INDEX_NOT_FOUND with Retry-After, never a 500, and never name
 * the index.
 */
const HASH = 'B0DAF34D43E286943C5BBE79BA2CBDAC9C385E194FE2959DEAAFA4B4C71E505E';

const target = await createTestIndices(t);
// Without the answer cache: a transaction read before the deletion would otherwise still be
// answered from memory for its minute (shard-reads.test.ts tests the cache).
const base = await serve(t, withoutAnswerCache(target));
// One real ledger: its transactions have locators that point into a range index.
const ledger = fixtureLedgers()[0] as LedgerInput;
await ingest(target, [ledger]);
const located = (ledger.transactions[0] as { hash: string }).hash;

t.test('the range indices deleted under the app: 503 INDEX_NOT_FOUND', async (t) => {
  t.equal((await getJson(`${base}/ledgers`)).status, 200, 'answers while the indices are there');
  t.equal((await getJson(`${base}/tx/${HASH}`)).status, 404, 'a transaction not indexed is 404');
  t.equal((await getJson(`${base}/tx/${located}`)).status, 200, 'an indexed one is there');
  for (const kind of ['ledgers', 'transactions'] as const)
    for (const index of await rangeIndices(target.client, target.naming, kind))
      await target.client.indices.delete({ index });
  // The locator of `located` says where it is: its range gone is the index missing, not the transaction.
  for (const path of ['/ledgers', `/tx/${located}`, `/ledger/${ledger.ledger_hash}`]) {
    const answer = await getJson(`${base}${path}`);
    t.equal(answer.status, 503, path);
    t.match(answer.body, { error: { code: 'INDEX_NOT_FOUND' } }, path);
    t.equal(answer.headers.get('retry-after'), '30', `${path}: Retry-After`);
    t.notMatch(JSON.stringify(answer.body), target.naming.prefix, `${path}: no index named`);
  }
  // The locators gone too: a hash cannot be told indexed or not.
  await target.client.indices.delete({ index: indexName(target.naming, 'locators') });
  const answer = await getJson(`${base}/tx/${HASH}`);
  t.equal(answer.status, 503, 'a hash without the locators index');
  t.match(answer.body, { error: { code: 'INDEX_NOT_FOUND' } });
});
