import t from 'tap';
import { createLogger, indexName } from '@xle/core';
import { ActivationEnricher, CheckpointStore, IngestEngine, LEDGER_KINDS, runPipeline } from '../../src/index.js';
import type { WriteOp } from '../../src/index.js';
import { createTestIndices, readAllDocuments } from '@xle/test-helpers';
import { changeVersion, type LedgerInput } from '@xle/documents';

const logger = createLogger('sink-test', 'silent');
const ACCOUNT = 'rN7n7otQDd6FczFgLdSqtcsAUxDkw6fzRH';
const activation = {
  parent: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
  initial_balance: '20',
  _initial_balance: 20,
  inception: '2015-01-01T00:00:00.000Z',
  ledger_index: 100,
  tx_hash: 'A'.repeat(64),
};

t.test('an activation added to newer state keeps that state open to the next change of the same ledger', async (t) => {
  const target = await createTestIndices(t);
  const engine = new IngestEngine(target.client, target.naming, logger);
  const activations = new ActivationEnricher(engine);
  // The sink and enrich stages of one batch, as the pipeline runs them.
  const sink = {
    writeOps: async (_count: number, ops: WriteOp[]) => {
      const result = await engine.write(ops);
      await activations.reapply(result.superseded);
      return { ...result, superseded: result.superseded.length };
    },
  };
  const accounts = indexName(target.naming, 'accounts');
  const write = (ledger: number, txIndex: number, sequence: number, withActivation = false): WriteOp => {
    const op: WriteOp = {
      index: accounts,
      id: ACCOUNT,
      doc: { Account: ACCOUNT, LedgerEntryType: 'AccountRoot', Sequence: sequence },
      version: changeVersion(ledger, txIndex),
      ledgerIndex: ledger,
    };
    if (withActivation) op.activation = activation;
    return op;
  };

  // Ledger 200, transaction 4 arrives first; then the creating ledger 100 (superseded, so its
  // activation is added to the newer document); then ledger 200's transaction 5.
  t.match(await sink.writeOps(1, [write(200, 4, 50)]), { documents: 1, superseded: 0, deadLetters: 0 });
  t.match(await sink.writeOps(1, [write(100, 0, 20, true)]), { superseded: 1, deadLetters: 0 });
  const read = () => target.client.get<Record<string, unknown>>({ index: accounts, id: ACCOUNT });
  const merged = await read();
  t.equal(merged._version, changeVersion(200, 4), 'the newer state keeps its own version');
  t.match(merged._source, { Sequence: 50, parent: activation.parent, tx_hash: activation.tx_hash });

  // As built by the sink, which by then knows the activation: the next change of ledger 200.
  const next = write(200, 5, 51);
  next.doc = { ...next.doc, ...activation };
  t.match(await sink.writeOps(1, [next]), { superseded: 0, deadLetters: 0 }, 'not refused');
  const latest = await read();
  t.equal(latest._version, changeVersion(200, 5));
  t.match(latest._source, { Sequence: 51, parent: activation.parent });
});

t.test('a failed batch ends the run only once every batch still being written has settled', async (t) => {
  const target = await createTestIndices(t);
  const sink = new IngestEngine(target.client, target.naming, logger);
  let settled = 0;
  let failedAt = -1;
  // The second batch's write fails (an engine outage, say); the first is still being written.
  const writeOps = sink.write.bind(sink);
  sink.write = async (ops, options) => {
    const first = ops.some((op) => op.ledgerIndex === 1);
    try {
      if (!first) throw new Error('engine unavailable');
      await new Promise((resolve) => setTimeout(resolve, 300));
      return await writeOps(ops, options);
    } finally {
      settled += 1;
      if (!first) failedAt = settled;
    }
  };
  const ledger = (index: number): LedgerInput =>
    ({
      ledger_index: index,
      ledger_hash: 'B'.repeat(64),
      parent_hash: 'C'.repeat(64),
      close_time: 1,
      transactions: [],
    }) as unknown as LedgerInput;
  async function* source(): AsyncGenerator<LedgerInput> {
    yield ledger(1);
    yield ledger(2);
  }
  await t.rejects(
    runPipeline(source(), sink, new CheckpointStore(sink, 'files'), { batchLedgers: 1 }),
    /engine unavailable/,
  );
  t.equal(settled, 2, 'both writes settled before the error came back');
  t.equal(failedAt, 1, 'the second batch failed first');
  await sink.refresh(LEDGER_KINDS);
  t.equal((await readAllDocuments(target.client, indexName(target.naming, 'ledgers'))).length, 1);
});

t.test('a slow checkpoint record does not hold back the next batches, and checkpoints stay in order', async (t) => {
  const target = await createTestIndices(t);
  const sink = new IngestEngine(target.client, target.naming, logger);
  const checkpoints = new CheckpointStore(sink, 'files');
  const events: string[] = [];
  const writeOps = sink.write.bind(sink);
  sink.write = async (ops, options) => {
    events.push(`write ${ops[0]?.ledgerIndex}`);
    return writeOps(ops, options);
  };
  const record = checkpoints.record.bind(checkpoints);
  checkpoints.record = async (ledgers, documents, deadLetters) => {
    // The engine answering the first checkpoint late, as when its write pool is busy with bulks.
    if (ledgers.includes(1)) await new Promise((resolve) => setTimeout(resolve, 500));
    const next = await record(ledgers, documents, deadLetters);
    events.push(`recorded ${ledgers.join(',')}`);
    return next;
  };
  async function* source(): AsyncGenerator<LedgerInput> {
    for (let index = 1; index <= 4; index += 1) {
      yield {
        ledger_index: index,
        ledger_hash: 'B'.repeat(64),
        parent_hash: 'C'.repeat(64),
        close_time: 1,
        transactions: [],
      } as unknown as LedgerInput;
    }
  }
  const totals = await runPipeline(source(), sink, checkpoints, { batchLedgers: 1 });
  t.ok(
    events.indexOf('write 3') < events.indexOf('recorded 1'),
    `the third batch was written before the first checkpoint came back (${events.join(' | ')})`,
  );
  t.same(
    events.filter((e) => e.startsWith('recorded')),
    ['recorded 1', 'recorded 2', 'recorded 3', 'recorded 4'],
    'checkpoints recorded in batch order',
  );
  t.same(totals.checkpoint?.ranges, [{ from: 1, to: 4 }]);
  t.same((await checkpoints.load())?.ranges, [{ from: 1, to: 4 }], 'the stored checkpoint covers every ledger');
});
