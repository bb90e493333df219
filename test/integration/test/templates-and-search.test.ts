import t from 'tap';
import { applyTemplates, deleteTemplatesAndIndices, indexName, INDEX_KINDS } from '@xle/core';
import { createTestIndices, readFixtureLedger } from '@xle/test-helpers';
import { transformTransaction } from '@xle/documents';

/**
 * The foundation's end-to-end check: per-run indices from the real templates on the real engine,
 * one real mainnet transaction indexed through the transform, found by hash, ctid, Account and a
 * range on Amount._value, then the indices deleted.
 */
t.test('a real mainnet transaction is indexed and found by hash, ctid, Account and amount range', async (t) => {
  const { client, naming } = await createTestIndices(t);
  const index = indexName(naming, 'transactions');
  for (const kind of INDEX_KINDS)
    t.ok(await client.indices.exists({ index: indexName(naming, kind) }), `${kind} index exists`);

  const ledger = readFixtureLedger('ledgers/recent/ledger-83258110.expanded.json');
  const raw = ledger.transactions.find(
    (tx) => tx.hash === 'B0DAF34D43E286943C5BBE79BA2CBDAC9C385E194FE2959DEAAFA4B4C71E505E',
  );
  t.ok(raw, 'fixture transaction present');
  const doc = transformTransaction(raw ?? {}, { ledgerIndex: 83258110, closeTime: ledger.close_time, networkId: 0 });
  const indexed = await client.index({ index, id: doc.hash, document: doc, refresh: 'wait_for' });
  t.equal(indexed.result, 'created');

  const find = async (query: object): Promise<string[]> => {
    const result = await client.search({ index, query });
    return result.hits.hits.map((h) => h._id ?? '');
  };
  t.same(await find({ term: { hash: doc.hash } }), [doc.hash], 'by hash');
  t.same(await find({ term: { ctid: 'C4F66AFE00000000' } }), [doc.hash], 'by ctid');
  t.same(await find({ term: { Account: 'rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw' } }), [doc.hash], 'by Account');
  t.same(await find({ range: { 'Amount._value': { gte: 12000, lte: 12200 } } }), [doc.hash], 'by Amount._value range');
  t.same(await find({ range: { 'Amount._value': { gt: 12136 } } }), [], 'range excludes it when it should');
  t.same(await find({ term: { 'Amount._currency': 'xSTIK' } }), [doc.hash], 'by decoded currency');
  t.same(await find({ term: { 'meta.TransactionResult': 'tesSUCCESS' } }), [doc.hash], 'by result');

  const mapping = await client.indices.getMapping({ index });
  const properties = Object.values(mapping)[0]?.mappings.properties ?? {};
  t.equal(properties.Amount?.type ?? 'object', 'object');
  t.equal((properties._Fee as { type?: string } | undefined)?.type, 'double');

  const again = await applyTemplates(client, naming);
  t.ok(
    again.changes.every((c) => c.action === 'unchanged'),
    'applying twice changes nothing',
  );

  await deleteTemplatesAndIndices(client, naming);
  t.notOk(await client.indices.exists({ index }), 'indices deleted');
  // A wildcard that matches nothing is a 404.
  const templates = await client.indices.getIndexTemplate({ name: `${naming.prefix}-*` }, { ignore: [404] });
  t.equal(templates.index_templates?.length ?? 0, 0, 'templates deleted');
});

t.test('an unknown future field never breaks indexing', async (t) => {
  const { client, naming } = await createTestIndices(t);
  const index = indexName(naming, 'transactions');
  const ledger = readFixtureLedger('ledgers/recent/ledger-83258110.expanded.json');
  const first = ledger.transactions[0] ?? {};
  const doc = transformTransaction(first, { ledgerIndex: 83258110, closeTime: ledger.close_time, networkId: 0 });
  // A field some future amendment might add, once as a string and once as an object.
  await client.index({
    index,
    id: 'A'.repeat(64),
    document: { ...doc, hash: 'A'.repeat(64), FutureField: 'x' },
    refresh: 'wait_for',
  });
  const second = await client.index({
    index,
    id: 'B'.repeat(64),
    document: { ...doc, hash: 'B'.repeat(64), FutureField: { nested: 1 } },
    refresh: 'wait_for',
  });
  t.equal(second.result, 'created', 'no mapping conflict: unknown fields are kept in _source, not mapped');
  const fetched = await client.get<{ FutureField: unknown }>({ index, id: 'B'.repeat(64) });
  t.same(fetched._source?.FutureField, { nested: 1 });
});
