import t from 'tap';
import { MAX_NAMED_RANGES, rangeIndices, rangeStart } from '@xle/core';
import { transformTransaction } from '@xle/documents';
import { manyRangesIndices, shardOperations } from '@xle/test-loaded';
import { serveSite } from '../fixtures/serve.js';

/**
 * A page reads only the shards that hold its data, however many ranges the history has (as the
 * API's lookups do, packages/api/test/http/shard-reads.test.ts): the real fixture ledgers and a
 * few synthetic ones in ranges of 1,000 ledgers make more transaction range indices than one
 * search names at once; the cost of a page is read from the engine's own statistics.
 */
const { target, real } = await manyRangesIndices(t);
const base = await serveSite(t, target);
const { client, naming } = target;
const operations = (): Promise<Map<string, number>> => shardOperations(target);

const ranges = await rangeIndices(client, naming, 'transactions');
t.ok(ranges.length > MAX_NAMED_RANGES, `${ranges.length} transaction range indices`);

t.test("a page's account links: known from the account documents, no search over every range", async (t) => {
  // A transaction of the real ledgers whose every named account has an account document.
  let chosen: { hash: string; ledger: number } | undefined;
  for (const l of real) {
    for (const x of l.transactions) {
      const doc = transformTransaction(x, { ledgerIndex: l.ledger_index, closeTime: l.close_time, networkId: 0 });
      const found = await client.mget<unknown>({
        index: `${naming.prefix}-${naming.network}-accounts`,
        ids: doc._accounts,
      });
      if (found.docs.every((d) => 'found' in d && d.found)) chosen = { hash: doc.hash, ledger: l.ledger_index };
      if (chosen !== undefined) break;
    }
    if (chosen !== undefined) break;
  }
  t.ok(chosen, 'a transaction whose accounts are all indexed');
  const page = `${base}/tx/${chosen!.hash}`;
  t.equal((await fetch(page)).status, 200, 'the page answers');
  const before = await operations();
  t.equal((await fetch(page)).status, 200);
  const after = await operations();
  const asked = [...after].filter(([index, n]) => index.includes('-transactions-') && n > (before.get(index) ?? 0));
  t.same(
    asked.map(([index]) => index),
    [
      `${naming.prefix}-${naming.network}-transactions-${String(rangeStart(naming, chosen!.ledger)).padStart(10, '0')}-g1`,
    ],
    "the transaction's own range only",
  );
});
