import BigNumber from 'bignumber.js';
import t from 'tap';
import { encode } from 'xrpl';
import { createLogger, indexName } from '@xle/core';
import {
  IngestEngine,
  ingestLedgers,
  RippledSource,
  seedState,
  SNAPSHOT_TX_INDEX,
  snapshotOps,
} from '../../src/index.js';
import { createTestIndices, indexContent, readAllDocuments, readFixture, ReplayRippled } from '@xle/test-helpers';
import type { TestIndices } from '@xle/test-helpers';
import { changeVersion, type Json, normalizeLedger, parseStatePage, rawEntry, type StatePage } from '@xle/documents';

const logger = createLogger('state-test', 'silent');
const STATE_32570 = 'ledger-state/ledger-32570-accountState.rhd.json';
const FULL_38129 = 'ledger-state/ledgerFull38129-with-accountState.xrpljs.json';
const PAGE_71448944 = 'ledger-state/ledger_data-71448944-page.sengelbert.json';
const PAGE_38202000 = 'ledger-state/ledger_data-38202000-first-page.xrpljs.json';

const pageOf = (file: string): StatePage => parseStatePage(readFixture(file), file);
async function* pages(...list: StatePage[]): AsyncGenerator<StatePage> {
  yield* list;
}
const seed = (target: TestIndices, ...list: StatePage[]) =>
  seedState(pages(...list), new IngestEngine(target.client, target.naming, logger));

/** The live objects of the index, as raw ledger entries by id. */
async function liveEntries(target: TestIndices): Promise<Map<string, Json>> {
  const docs = await readAllDocuments<Json>(target.client, indexName(target.naming, 'objects'));
  return new Map(docs.filter((d) => d.deleted === false).map((d) => [d.index as string, rawEntry(d)]));
}

const contentOf = async (target: TestIndices): Promise<unknown> => ({
  objects: await indexContent(target.client, indexName(target.naming, 'objects')),
  accounts: await indexContent(target.client, indexName(target.naming, 'accounts')),
});

t.test('every state file of the fixtures parses', async (t) => {
  const dump = pageOf(STATE_32570);
  t.match(dump, { ledger_index: 32570, whole: true });
  t.equal(dump.entries.length, 260);
  const full = pageOf(FULL_38129);
  t.match(full, { ledger_index: 38129, whole: true });
  t.equal(full.entries.length, 261);
  const page = pageOf(PAGE_71448944);
  t.match(page, { ledger_index: 71448944, whole: false, marker: /^[0-9A-F]{64}$/ });
  t.equal(page.entries.length, 256);
  t.match(pageOf(PAGE_38202000), { ledger_index: 38202000, whole: false, marker: String });
  for (const entry of [...dump.entries, ...page.entries])
    t.match(entry, { index: /^[0-9A-F]{64}$/, LedgerEntryType: String });

  // binary: true pages carry {data, index}; they decode to the same entries.
  const binary = page.entries
    .slice(0, 20)
    .map(({ index, ...fields }) => ({ data: encode(fields as Parameters<typeof encode>[0]), index }));
  const decoded = parseStatePage({ result: { ledger_index: 71448944, state: binary } });
  // The codec writes amounts in plain decimal where rippled's JSON may use an exponent
  // ("1000000000000000e-4"): the same number.
  const numeric = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(numeric)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value).map(([k, v]) => [
              k,
              k === 'value' ? new BigNumber(v as string).toFixed() : numeric(v),
            ]),
          )
        : value;
  t.same(numeric(decoded.entries), numeric(page.entries.slice(0, 20)));

  t.throws(() => parseStatePage({ result: { state: [] } }), /names no ledger_index/);
  t.throws(() => parseStatePage({ ledger_index: 5, state: [{ index: 'zz' }] }), /64-hex index/);
  t.throws(
    () => parseStatePage({ ledger_index: 5, state: [{ data: 'nothex', index: 'A'.repeat(64) }] }),
    /not a serialized/,
  );
  t.throws(() => parseStatePage({ transactions: [] }), /neither a ledger with accountState nor a ledger_data page/);

  const { objects, accounts } = snapshotOps(dump, (kind) => `x-mainnet-${kind}`);
  t.equal(objects.length, 260);
  t.equal(accounts.length, 136, 'one account document per AccountRoot');
  t.ok(
    objects.every((o) => o.version === changeVersion(32570, SNAPSHOT_TX_INDEX)),
    'the version after every transaction of the ledger',
  );
});

t.test('seeding 32570 then 38129 gives exactly the 38129 dump, and nothing goes backwards', async (t) => {
  const target = await createTestIndices(t);
  const first = await seed(target, pageOf(STATE_32570));
  t.match(first, { ledger_index: 32570, entries: 260, whole: true, deadLetters: 0 });
  t.equal((await liveEntries(target)).size, 260);

  // The ledger's own transaction, then its state: the state is the truth after it.
  await ingestLedgers(
    [normalizeLedger(readFixture(FULL_38129))],
    new IngestEngine(target.client, target.naming, logger),
  );
  const second = await seed(target, pageOf(FULL_38129));
  t.match(second, { ledger_index: 38129, entries: 261, whole: true });
  const expected = new Map(pageOf(FULL_38129).entries.map(({ index, ...fields }) => [index as string, fields]));
  const live = await liveEntries(target);
  t.equal(live.size, expected.size, 'exactly the entries of the dump are live');
  for (const [id, fields] of expected) t.same(live.get(id), { ...fields, index: id }, id);

  const after = await contentOf(target);
  const older = await seed(target, pageOf(STATE_32570));
  t.equal(older.superseded, 260 + 136, 'an older snapshot is refused entry by entry');
  t.equal(older.removed, 0);
  t.same(await contentOf(target), after, 'replaying an older snapshot changes nothing');
  await ingestLedgers(
    [normalizeLedger(readFixture(FULL_38129))],
    new IngestEngine(target.client, target.naming, logger),
  );
  t.same(await contentOf(target), after, 'nor does replaying the ledger itself');

  const accounts = await readAllDocuments<Json>(target.client, indexName(target.naming, 'accounts'));
  t.equal(accounts.filter((a) => a.deleted === false).length, 137);
  const state = await target.client.get<Json>({ index: indexName(target.naming, 'ingest-state'), id: 'state.38129' });
  t.match(state._source, { kind: 'state', ledger_index: 38129, documents: 261, status: 'complete' });
});

t.test('a whole snapshot retires objects and accounts gone by its ledger', async (t) => {
  const target = await createTestIndices(t);
  await seed(target, pageOf(STATE_32570));
  const ghost = pageOf(PAGE_71448944).entries.find((e) => e.LedgerEntryType === 'AccountRoot')!;
  // An account and its root as an older ledger (100) left them: not in the 32570 state.
  await seed(target, { ledger_index: 100, entries: [ghost], whole: false });
  t.ok((await liveEntries(target)).has(ghost.index as string));
  const again = await seed(target, pageOf(STATE_32570));
  t.equal(again.removed, 2, 'the object and the account');
  t.notOk((await liveEntries(target)).has(ghost.index as string));
  const account = await target.client.get<Json>({
    index: indexName(target.naming, 'accounts'),
    id: ghost.Account as string,
  });
  t.match(account._source, { deleted: true, _updated_ledger_index: 32570 });
  const partial = await seed(target, pageOf(PAGE_38202000));
  t.match(partial, { whole: false, removed: 0 }, 'a partial snapshot retires nothing');
});

t.test('from rippled ledger_data pages, and after a failure half-way', async (t) => {
  const server = new ReplayRippled();
  await server.start();
  t.teardown(() => server.stop());
  const dump = pageOf(FULL_38129);
  server.addState(38129, dump.entries, 50);
  server.addLedger(readFixture(FULL_38129));
  server.validated = 38129;
  const source = new RippledSource({ url: server.url, logger, backoffMs: 20, maxBackoffMs: 200 });
  t.teardown(() => source.close());

  const fromFile = await createTestIndices(t);
  await seed(fromFile, dump);
  const fromRippled = await createTestIndices(t);
  const result = await seedState(
    source.statePages(38129, 100),
    new IngestEngine(fromRippled.client, fromRippled.naming, logger),
  );
  t.match(result, { ledger_index: 38129, entries: 261, whole: true });
  t.equal(server.commands.filter((c) => c === 'ledger_data').length, 6, '261 entries in pages of 50');
  t.same(await contentOf(fromRippled), await contentOf(fromFile), 'the same indices as from the dump');

  // A run that fails after two pages, then a whole run: the same indices as an uninterrupted one.
  const interrupted = await createTestIndices(t);
  async function* failing(): AsyncGenerator<StatePage> {
    let n = 0;
    for await (const page of source.statePages(38129, 50)) {
      if ((n += 1) > 2) throw new Error('connection lost');
      yield page;
    }
  }
  await t.rejects(
    seedState(failing(), new IngestEngine(interrupted.client, interrupted.naming, logger)),
    /connection lost/,
  );
  const unrecorded = await interrupted.client.get(
    { index: indexName(interrupted.naming, 'ingest-state'), id: 'state.38129' },
    { ignore: [404] },
  );
  t.notOk(unrecorded.found, 'an unfinished seeding is not recorded');
  await seedState(source.statePages(38129, 100), new IngestEngine(interrupted.client, interrupted.naming, logger));
  t.same(await contentOf(interrupted), await contentOf(fromFile));
});
