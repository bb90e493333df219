import t from 'tap';
import { normalizeLedger, type Json, type LedgerInput } from '@xle/documents';
import { listFixtureLedgers, readFixture, syntheticLedgers } from '@xle/test-helpers';
import { ledgerWrites, newestWrites, type BatchContext, type WriteOp } from '../../src/index.js';

// A batch keeps only the newest write of each versioned document. The reference is the engine's
// own rule for external versions (a write or delete at a version not above the held one is
// refused), applied to every write of the batch: what the engine ends with must not change.

const templates: LedgerInput[] = listFixtureLedgers().map((file) => normalizeLedger(readFixture<Json>(file)));
// Synthetic ledgers revisit accounts, so entries change in several ledgers of one batch, as on mainnet.
const ledgers = [...syntheticLedgers(templates, { transactions: 3000, hashed: false, perLedger: 30 })];
const context: BatchContext = {
  index: (kind) => kind,
  rangeAlias: (kind, ledgerIndex) => `${kind}-${Math.floor(ledgerIndex / 1_000_000)}`,
  networkId: 0,
};

function batchOps(batch: readonly LedgerInput[]): WriteOp[] {
  const writes: WriteOp[] = [];
  const accounts: WriteOp[] = [];
  for (const ledger of batch) {
    const built = ledgerWrites(ledger, context);
    writes.push(...built.writes);
    accounts.push(...built.accounts);
  }
  return [...writes, ...accounts];
}

/** What an engine holds after the writes, in the given order, under external versioning. */
function engineState(ops: readonly WriteOp[]): Map<string, { version?: number; doc?: string }> {
  const held = new Map<string, { version?: number; doc?: string }>();
  for (const op of ops) {
    const key = `${op.index}/${op.id}`;
    const current = held.get(key);
    if (op.create === true && current?.doc !== undefined) continue;
    if (op.version !== undefined && current?.version !== undefined && op.version <= current.version) continue;
    held.set(key, {
      ...(op.version === undefined ? {} : { version: op.version }),
      ...(op.delete === true ? {} : { doc: JSON.stringify(op.doc) }),
    });
  }
  return held;
}

t.test('the engine ends with the same documents, in any order of the kept writes', async (t) => {
  for (const size of [10, 40]) {
    const ops = batchOps(ledgers.slice(0, size));
    const kept = newestWrites(ops);
    t.ok(kept.length < ops.length, `${size} ledgers: ${ops.length} writes, ${kept.length} kept`);
    const expected = engineState(ops);
    t.same(engineState(kept), expected, `${size} ledgers: in batch order`);
    t.same(engineState([...kept].reverse()), expected, `${size} ledgers: in reverse order`);
  }
});

t.test('one versioned write per document, except the activation-carrying ones; everything else kept', async (t) => {
  const ops = batchOps(ledgers.slice(0, 40));
  const kept = newestWrites(ops);
  const keptSet = new Set(kept);
  const perDocument = new Map<string, number>();
  for (const op of kept)
    if (op.version !== undefined && op.activation === undefined) {
      const key = `${op.index}/${op.id}`;
      perDocument.set(key, (perDocument.get(key) ?? 0) + 1);
    }
  t.equal([...perDocument.values()].filter((n) => n > 1).length, 0, 'no document written twice');
  t.ok(
    ops.filter((op) => op.version === undefined || op.activation !== undefined).every((op) => keptSet.has(op)),
    'transactions, ledgers and creations with their activation are all kept',
  );
  const order = kept.map((op) => ops.indexOf(op));
  t.same(
    order,
    [...order].sort((a, b) => a - b),
    'the batch order is kept',
  );
  const conditional: WriteOp = {
    ...(ops.find((op) => op.index === 'accounts') as WriteOp),
    versionType: 'external_gte',
  };
  t.equal(newestWrites([conditional, { ...conditional }]).length, 2, 'conditional rewrites are never merged');
});
