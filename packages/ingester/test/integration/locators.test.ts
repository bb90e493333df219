import t from 'tap';
import { createLogger, indexName } from '@xle/core';
import { normalizeLedger } from '@xle/documents';
import { createTestIndices, indexContent, listFixtureLedgers, readFixture, runIngestCli } from '@xle/test-helpers';
import { IngestEngine, ingestLedgers } from '../../src/index.js';

/**
 * Every indexed transaction and ledger has a locator (its hash → its ledger), written with it;
 * `pnpm ingest locators` writes those that data indexed before the locators index existed lacks,
 * the same documents, and a second run changes nothing.
 */
const target = await createTestIndices(t);
const engine = new IngestEngine(target.client, target.naming, createLogger('locators-test', 'silent'));
const ledgers = listFixtureLedgers().map((file) => normalizeLedger(readFixture(file)));
await ingestLedgers(ledgers, engine);
const locators = indexName(target.naming, 'locators');
const env = { ES_INDEX_PREFIX: target.naming.prefix };

t.test('written with the data: one per transaction and per ledger, each naming its ledger', async (t) => {
  // One fixture ledger is recorded twice (two sources): distinct hashes.
  const transactions = new Set(ledgers.flatMap((l) => l.transactions.map((tx) => (tx as { hash: string }).hash))).size;
  const ledgerHashes = new Set(ledgers.map((l) => l.ledger_hash)).size;
  const written = await indexContent(target.client, locators);
  t.equal(written.count, transactions + ledgerHashes, `${transactions} transactions and ${ledgerHashes} ledgers`);
  const ledger = ledgers[3];
  const tx = ledger?.transactions[0] as { hash: string } | undefined;
  for (const hash of [ledger?.ledger_hash, tx?.hash]) {
    const found = await target.client.get<{ ledger_index: number }>({ index: locators, id: String(hash) });
    t.equal(found._source?.ledger_index, ledger?.ledger_index, `${hash} is in ledger ${ledger?.ledger_index}`);
  }
});

t.test('`ingest locators` writes the missing ones, and only once', async (t) => {
  const before = await indexContent(target.client, locators);
  // As before the locators index existed: none.
  await target.client.indices.delete({ index: locators });
  t.equal(await runIngestCli(['locators'], env), 0, 'exit 0');
  await target.client.indices.refresh({ index: locators });
  t.same(await indexContent(target.client, locators), before, 'the same documents as written with the data');
  const versions = await target.client.search({ index: locators, size: 1, version: true });
  const version = versions.hits.hits[0]?._version;
  t.equal(await runIngestCli(['locators'], env), 0, 'again: exit 0');
  await target.client.indices.refresh({ index: locators });
  t.same(await indexContent(target.client, locators), before, 'unchanged');
  const again = await target.client.get({ index: locators, id: String(versions.hits.hits[0]?._id) });
  t.equal(again._version, version, 'nothing written the second time');
});
