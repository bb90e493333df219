import t, { type Test } from 'tap';
import { createLogger } from '@xle/core';
import { changeVersion } from '@xle/documents';
import { createTestIndices, readAllDocuments } from '@xle/test-helpers';
import { BatchSink, IngestEngine, LEDGER_KINDS, type WriteOp } from '../../src/index.js';

const logger = createLogger('sink-history-test', 'silent');
const LEDGER = 90_000_005;
const TX_HASH = 'A1'.repeat(32);
const ENTRY = 'E2'.repeat(32);
/** How long the engine takes to answer the deletion guards' read in these tests. */
const GUARD_READ_MS = 400;

/** One history write (a transaction) and one write of ledger state (an offer), as a batch holds them. */
function batch(engine: IngestEngine): WriteOp[] {
  return [
    {
      index: engine.rangeAlias('transactions', LEDGER),
      id: TX_HASH,
      doc: { hash: TX_HASH, ledger_index: LEDGER, TransactionType: 'OfferCreate' },
      ledgerIndex: LEDGER,
    },
    {
      index: engine.index('objects'),
      id: ENTRY,
      doc: { index: ENTRY, LedgerEntryType: 'Offer', ledger_index: LEDGER, deleted: false, _accounts: [] },
      version: changeVersion(LEDGER, 0),
      ledgerIndex: LEDGER,
    },
  ];
}

/** Fresh indices, their engine, the batch above and a sink (the transactions' range created). */
async function setUp(t: Test) {
  const target = await createTestIndices(t);
  const engine = new IngestEngine(target.client, target.naming, logger);
  await engine.ensureRangesBetween(['transactions'], LEDGER, LEDGER);
  return { target, engine, ops: batch(engine), sink: new BatchSink(engine) };
}

/** Every write the engine is asked for: its indices, and when it started (ms since `t0`). */
function recordWrites(engine: IngestEngine, t0: number) {
  const writes: { kinds: string[]; started: number }[] = [];
  const write = engine.write.bind(engine);
  engine.write = async (ops, options) => {
    writes.push({ kinds: [...new Set(ops.map((op) => op.index))], started: performance.now() - t0 });
    return write(ops, options);
  };
  return writes;
}

t.test('history documents are written while the ledger state waits for its guards', async (t) => {
  const { target, engine, ops, sink } = await setUp(t);
  const read = engine.mgetVersioned.bind(engine);
  engine.mgetVersioned = async (docs) => {
    await new Promise((resolve) => setTimeout(resolve, GUARD_READ_MS));
    return read(docs);
  };
  const t0 = performance.now();
  const writes = recordWrites(engine, t0);

  const result = await sink.write(ops);
  t.match(result, { documents: 2, superseded: [], deadLetters: 0 });
  const history = writes.find((w) => w.kinds.includes(ops[0]!.index));
  const state = writes.find((w) => w.kinds.includes(engine.index('objects')));
  t.ok(history && state, `both written (${JSON.stringify(writes)})`);
  t.same(history?.kinds, [ops[0]!.index], 'the history write carries no ledger state');
  t.same(state?.kinds, [engine.index('objects')], 'the state write carries no history');
  t.ok(
    (history?.started ?? Infinity) < GUARD_READ_MS / 2,
    `the history write went out at once (${history?.started} ms)`,
  );
  t.ok((state?.started ?? 0) >= GUARD_READ_MS, `the state write waited for its guards (${state?.started} ms)`);

  await engine.refresh(LEDGER_KINDS);
  t.equal((await readAllDocuments(target.client, ops[0]!.index)).length, 1);
  t.equal((await readAllDocuments(target.client, engine.index('objects'))).length, 1);
});

t.test('a failed state write comes back only once the history write beside it has settled', async (t) => {
  const { engine, ops, sink } = await setUp(t);
  let historySettled = false;
  const write = engine.write.bind(engine);
  engine.write = async (written, options) => {
    if (written.some((op) => op.index === engine.index('objects'))) throw new Error('state refused');
    // The history write is the slow one: the state chain fails first.
    await new Promise((resolve) => setTimeout(resolve, 300));
    try {
      return await write(written, options);
    } finally {
      historySettled = true;
    }
  };
  await t.rejects(sink.write(ops), /state refused/);
  t.ok(historySettled, 'nothing of the batch was still being written when the error came back');
});
