import t from 'tap';
import { indexName } from '@xle/core';
import { normalizeLedger, type Json, type LedgerInput } from '@xle/documents';
import {
  createTestIndices,
  indexContent,
  listFixtureLedgers,
  readAllDocuments,
  readFixture,
  startIngestCli,
  startReplay,
  syntheticLedgers,
  waitUntil,
  exitOf,
} from '@xle/test-helpers';

// `live` follows the tip while a backfill fills older ledgers in another process, in the order
// that used to lose activations: an account's later ledgers first (live), then the ledger that
// created it (the backfill), then later ledgers again (live). The end state must be the one a
// single run in ledger order gives, every created account with its parent, initial balance and
// inception.

const START = 60_000_000;
const KINDS = ['ledgers', 'transactions', 'objects', 'accounts', 'activations'] as const;
const templates = listFixtureLedgers().map((file) => normalizeLedger(readFixture(file)));
const ledgers: LedgerInput[] = [
  ...syntheticLedgers(templates, {
    transactions: 300,
    perLedger: 6,
    startLedger: START,
    accounts: 60,
    revisit: 0.3,
    seed: 'race',
  }),
];
const LAST = START + ledgers.length - 1;

/** Each AccountRoot an account's transactions touched: the ledger that created it, and the ledgers that changed it. */
function accountHistory(): Map<string, { created: number; changed: number[] }> {
  const history = new Map<string, { created: number; changed: number[] }>();
  for (const ledger of ledgers)
    for (const tx of ledger.transactions)
      for (const wrapper of ((tx.metaData as Json).AffectedNodes ?? []) as Json[]) {
        const [kind, node] = Object.entries(wrapper)[0] as [string, Json];
        if (node.LedgerEntryType !== 'AccountRoot') continue;
        const account = ((node.NewFields ?? node.FinalFields ?? {}) as Json).Account;
        if (typeof account !== 'string') continue;
        if (kind === 'CreatedNode') history.set(account, { created: ledger.ledger_index, changed: [] });
        else history.get(account)?.changed.push(ledger.ledger_index);
      }
  return history;
}

const history = accountHistory();
// The account of the race: created after the first ledger, then changed in two later ledgers.
const [account, race] = [...history].find(
  ([, h]) => h.created > START + 2 && new Set(h.changed.filter((l) => l > h.created)).size >= 2,
) ?? [undefined, undefined];
if (account === undefined || race === undefined) throw new Error('the synthetic ledgers hold no account to race on');
const CREATED = race.created;
const [SECOND, THIRD] = [...new Set(race.changed.filter((l) => l > CREATED))] as [number, number];
/** live starts just above the creation; the backfill fills everything below. */
const LIVE_FROM = CREATED + 1;

const cli = startIngestCli;

t.test('live and a backfill in two processes, in the order that lost activations: the state of one run', async (t) => {
  t.ok(SECOND < THIRD && CREATED < SECOND, `account ${account} created in ${CREATED}, changed in ${SECOND}, ${THIRD}`);
  const server = await startReplay(t, ledgers, LAST);

  // The reference: one sequential run of the whole range from the same server.
  const reference = await createTestIndices(t);
  const sequential = cli(['backfill', '--from', String(START), '--to', String(LAST), '--chunk', '10'], {
    ES_INDEX_PREFIX: reference.naming.prefix,
    RIPPLED_URL: server.url,
  });
  t.equal((await exitOf(sequential)).code, 0, 'the sequential run finished');

  const target = await createTestIndices(t);
  server.validated = SECOND;
  const env = { ES_INDEX_PREFIX: target.naming.prefix, RIPPLED_URL: server.url };

  const accountDoc = async (): Promise<Json | undefined> => {
    const found = await target.client.get<Json>(
      { index: indexName(target.naming, 'accounts'), id: account },
      { ignore: [404] },
    );
    return found.found ? found._source : undefined;
  };

  // 1. live indexes from just above the creation up to the account's second ledger.
  const live = cli(['live', '--from', String(LIVE_FROM)], env);
  t.teardown(() => {
    live.kill('SIGKILL');
  });
  await waitUntil(`live to write ${account} at ledger ${SECOND}`, async () => {
    const doc = await accountDoc();
    return typeof doc?._updated_ledger_index === 'number' && doc._updated_ledger_index >= SECOND;
  });
  t.notOk((await accountDoc())?.parent, 'live wrote the account before its creation was indexed');

  // 2. A backfill of everything below, the creation included, in another process, while live runs.
  const backfill = cli(['backfill', '--from', String(START), '--to', String(CREATED), '--chunk', '10'], env);
  t.equal((await exitOf(backfill)).code, 0, 'the backfill finished');
  t.match(await accountDoc(), { parent: String }, 'the backfill added the activation to the newer state');

  // 3. live goes on to the tip: the third change of the account, and everything after it.
  for (let n = SECOND + 1; n <= LAST; n += 1) server.announce(n);
  // The checkpoint records a ledger once its batch is written, activations included.
  await waitUntil('live to record the last ledger', async () => {
    const checkpoint = await target.client.get<Json>(
      { index: indexName(target.naming, 'ingest-state'), id: 'rippled' },
      { ignore: [404] },
    );
    return checkpoint.found && checkpoint._source?.last_ledger === LAST;
  });
  live.kill('SIGTERM');
  t.equal((await exitOf(live)).code, 0, 'live stopped cleanly');
  const after = await accountDoc();
  t.ok(
    typeof after?._updated_ledger_index === 'number' && after._updated_ledger_index >= THIRD,
    'live wrote the account again',
  );
  t.match(after, { parent: String, initial_balance: String, inception: String }, 'and kept its activation');

  for (const kind of KINDS)
    t.same(
      await indexContent(target.client, indexName(target.naming, kind)),
      await indexContent(reference.client, indexName(reference.naming, kind)),
      `${kind}: the same documents as one run in ledger order`,
    );
  const accounts = new Map(
    (await readAllDocuments<Json>(target.client, indexName(target.naming, 'accounts'))).map((doc) => [
      doc.Account,
      doc,
    ]),
  );
  const lost = [...history.keys()].filter((address) => {
    const doc = accounts.get(address);
    return (
      typeof doc?.parent !== 'string' || typeof doc.initial_balance !== 'string' || typeof doc.inception !== 'string'
    );
  });
  t.same(lost, [], `every one of the ${history.size} accounts created in the data keeps its activation`);
});
