import t from 'tap';
import { decode, encode } from 'ripple-binary-codec';
import { hashes } from 'xrpl';
import {
  checkLedgerChain,
  encodeAsStored,
  encodeLedgerHeader,
  hashLedgerHeader,
  normalizeLedger,
  verifyLedger,
  type Json,
  type LedgerInput,
} from '../../src/index.js';
import { listFixtureLedgers, readFixture } from '@xle/test-helpers';

const load = (file: string): LedgerInput => normalizeLedger(readFixture(file));
const historical = (n: number): string => `ledgers/historical/rippled-historical-database/ledger-${n}.json`;
const RECENT = 'ledgers/recent/ledger-94084608.json';

/** A deep copy of a ledger with one transaction changed by `change`. */
function withTransaction(ledger: LedgerInput, index: number, change: (tx: Json) => void): LedgerInput {
  const copy = structuredClone(ledger);
  const tx = copy.transactions[index];
  if (tx === undefined) throw new Error(`no transaction ${index}`);
  change(tx);
  return copy;
}

t.test('every fixture ledger verifies, or says why it cannot be checked or is refused', async (t) => {
  const files = listFixtureLedgers();
  t.equal(files.length, 62);
  const results = files.map((file) => {
    const ledger = load(file);
    return { file, ledger, result: verifyLedger(ledger) };
  });
  const named = (status: string): string[] =>
    results.filter((r) => r.result.status === status).map((r) => r.file.replace(/^.*\//, ''));

  t.same(
    named('verified'),
    [
      'ledger-45136164.explorer.json',
      'ledger-11618225.json',
      'ledger-20005122.json',
      'ledger-22027923.json', // Data API v2: Unix close times, converted back before hashing
      'ledger-29136413-escrow.json',
      'ledger-29709909-paychan.json',
      'ledger-83258110.binary.json',
      'ledger-83258110.expanded.json',
      'ledger-90150378.json', // DeliveredAmount "-1", encoded as rippled stores it
      'ledger-94084608.json',
    ],
    'every ledger with the whole header and its metadata',
  );
  // Pre-2014 headers (rippled-historical-database, xrpl.js 7501326) have no parent_close_time
  // and close_flags: their transactions do hash to transaction_hash, but that hash itself cannot
  // be tied to ledger_hash.
  const cannot = results.filter((r) => r.result.status === 'cannot-check');
  t.equal(cannot.length, 51);
  for (const { file, result } of cannot)
    t.match(
      result,
      {
        reason:
          /the header has no parent_close_time, close_flags: ledger_hash cannot be recomputed \(the transactions do hash to its transaction_hash\)$/,
      },
      file,
    );
  // An xrpl4j test ledger (negative-balance-ledgers): every transaction's fields verify, the tree
  // of fields and metadata does not (MANIFEST.md); its header does.
  t.same(named('refused'), ['ledger-87704323.json']);
  t.match(verifyLedger(load('ledgers/recent/ledger-87704323.json')), {
    status: 'refused',
    check: 'transaction_hash',
    reason:
      /^ledger 87704323: the 22 transactions hash to [0-9A-F]{64}, the header says transaction_hash 85080CCE\w+: every transaction's fields hash to its own hash and their positions run from 0 without a gap, so the metadata of at least one is not what the ledger holds/,
  });
  const edited = load('ledgers/recent/ledger-87704323.json');
  t.equal(hashLedgerHeader(edited), edited.ledger_hash, 'its header alone verifies');

  // xrpl.js computes both hashes with its own SHAMap and header code: it agrees on every ledger
  // this module verifies.
  // (90150378 aside: xrpl.js serializes with the codec, which refuses its negative DeliveredAmount;
  // the header's own transaction_hash is the independent source there.)
  for (const { file, ledger, result } of results) {
    if (result.status !== 'verified' || ledger.ledger_index === 90150378) continue;
    const txs = ledger.transactions.map(({ DeliverMax, ...tx }) =>
      tx.Amount === undefined && DeliverMax !== undefined ? { ...tx, Amount: DeliverMax } : tx,
    );
    t.equal(hashes.hashTxTree(txs as never), ledger.transaction_hash, `${file}: xrpl.js tree hash`);
    t.equal(hashes.hashLedgerHeader(ledger as never), ledger.ledger_hash, `${file}: xrpl.js header hash`);
  }
});

t.test('a negative native amount is encoded as rippled stores it', async (t) => {
  // STAmount::add (rippled src/libxrpl/protocol/STAmount.cpp): a native amount is its 62-bit
  // magnitude, with cPositive (0x4000000000000000) set only when it is not negative.
  const blob = encodeAsStored({
    TransactionResult: 'tesSUCCESS',
    TransactionIndex: 0,
    DeliveredAmount: '-1',
    AffectedNodes: [],
  });
  t.match(blob, /60120000000000000001/, 'DeliveredAmount (field header 6012) holds 0x0000000000000001');
  t.same(decode(blob).DeliveredAmount, '-1', 'the codec reads it back as -1');
  t.same(decode(encodeAsStored({ Fee: '12' })), { Fee: '12' }, 'other amounts as the codec writes them');
  t.throws(
    () => encode({ TransactionResult: 'tesSUCCESS', DeliveredAmount: '-1' }),
    /illegal amount/,
    'which the codec alone refuses',
  );
  const ledger = load('ledgers/recent/ledger-90150378.json');
  const tx = ledger.transactions.find((x) => (x.metaData as Json).DeliveredAmount === '-1');
  t.equal(tx?.hash, 'D540F1E2' + String(tx?.hash).slice(8), 'the fixture transaction with the negative amount');
  t.same(verifyLedger(ledger), { status: 'verified' }, 'and its ledger reproduces transaction_hash');
});

t.test('a transaction out of its position is named', async (t) => {
  const ledger = load(RECENT);
  const swapped = withTransaction(ledger, 5, (tx) => {
    (tx.metaData as Json).TransactionIndex = 4;
  });
  t.match(verifyLedger(swapped), {
    status: 'refused',
    check: 'transaction_hash',
    reason: /transaction [0-9A-F]{64}: position 4 is another transaction's too$/,
  });
});

t.test('one altered transaction is refused on the transaction hash', async (t) => {
  const ledger = load(RECENT);
  t.same(verifyLedger(ledger), { status: 'verified' });

  const fee = withTransaction(ledger, 3, (tx) => {
    tx.Fee = String(Number(tx.Fee) + 1);
  });
  t.match(verifyLedger(fee), {
    status: 'refused',
    check: 'transaction_hash',
    reason: new RegExp(`^ledger 94084608: transaction ${String(ledger.transactions[3]?.hash)}: its fields hash to`),
  });

  // A changed transaction whose `hash` is made to match still leaves the tree.
  const rehashed = withTransaction(fee, 3, (tx) => {
    const { hash: _hash, metaData: _meta, DeliverMax: _max, ...fields } = tx;
    tx.hash = hashes.hashSignedTx(fields as never);
  });
  t.match(verifyLedger(rehashed), {
    status: 'refused',
    check: 'transaction_hash',
    reason: /the 83 transactions hash to [0-9A-F]{64}, the header says transaction_hash/,
  });

  const meta = withTransaction(ledger, 10, (tx) => {
    (tx.metaData as Json).TransactionResult = 'tecUNFUNDED_OFFER';
  });
  t.match(verifyLedger(meta), { status: 'refused', check: 'transaction_hash', reason: /transactions hash to/ });

  const dropped = structuredClone(ledger);
  dropped.transactions.splice(5, 1);
  t.match(verifyLedger(dropped), {
    status: 'refused',
    check: 'transaction_hash',
    reason: /position 82 of a list of 82: the transaction at position 5 is missing$/,
  });
});

t.test('one altered header field is refused on the ledger hash', async (t) => {
  const ledger = load(RECENT);
  for (const change of [
    (l: LedgerInput) => (l.close_time += 10),
    (l: LedgerInput) => (l.total_coins = String(BigInt(l.total_coins) + 1n)),
    (l: LedgerInput) => (l.account_hash = 'A'.repeat(64)),
    (l: LedgerInput) => (l.parent_hash = 'B'.repeat(64)),
    (l: LedgerInput) => (l.close_flags = 1),
  ]) {
    const copy = structuredClone(ledger);
    change(copy);
    t.match(verifyLedger(copy), {
      status: 'refused',
      check: 'ledger_hash',
      reason: /^ledger 94084608: the header fields hash to [0-9A-F]{64}, not to ledger_hash/,
    });
  }
  const claimed = structuredClone(ledger);
  claimed.transaction_hash = 'C'.repeat(64);
  t.match(verifyLedger(claimed), { status: 'refused', check: 'transaction_hash' }, 'a changed root fails the tree');
});

t.test('binary transactions are hashed as received; a rippled binary header decodes', async (t) => {
  const binary = load('ledgers/recent/ledger-83258110.binary.json');
  t.equal(binary.binary?.length, 40, 'the blobs are kept');
  t.same(verifyLedger(binary), { status: 'verified' });
  const expanded = load('ledgers/recent/ledger-83258110.expanded.json');
  t.equal(expanded.binary, undefined, 'JSON transactions have no blobs');

  const altered = structuredClone(binary);
  const first = altered.binary?.[0];
  if (first === undefined) throw new Error('no blob');
  first.meta = first.meta.replace(/E1F1031000$/, 'E1F1031001');
  t.match(verifyLedger(altered), { status: 'refused', check: 'transaction_hash' });

  // rippled's `binary: true` answer: the header only as `ledger_data`, beside the hash and index.
  const raw = readFixture<{ header: Json; transactions: Json[] }>('ledgers/recent/ledger-83258110.binary.json');
  const answer = {
    ledger: { ledger_data: encodeLedgerHeader(binary), closed: true, transactions: raw.transactions },
    ledger_hash: binary.ledger_hash,
    ledger_index: binary.ledger_index,
    validated: true,
  };
  const fromAnswer = normalizeLedger(answer);
  t.same(verifyLedger(fromAnswer), { status: 'verified' });
  const { binary: _blobs, ...header } = fromAnswer;
  const { binary: _same, ...expected } = binary;
  t.same(header, expected, 'the same ledger as the file');
});

t.test('what is missing is named', async (t) => {
  const ledger = load(RECENT);
  const noMeta = withTransaction(ledger, 0, (tx) => {
    delete tx.metaData;
  });
  t.match(verifyLedger(noMeta), {
    status: 'cannot-check',
    reason:
      /^ledger 94084608: 1 of 83 transactions have no metadata \(first: [0-9A-F]{64}\): transaction_hash cannot be recomputed$/,
  });
  const noRoot = structuredClone(ledger);
  delete noRoot.transaction_hash;
  t.match(verifyLedger(noRoot), {
    status: 'cannot-check',
    reason: /the header has no transaction_hash: ledger_hash cannot be recomputed; the header has no transaction_hash/,
  });
  const empty: LedgerInput = { ...structuredClone(ledger), transactions: [], transaction_hash: '0'.repeat(64) };
  t.match(verifyLedger(empty), { status: 'refused', check: 'ledger_hash' }, 'an empty tree hashes to zero');
});

t.test('consecutive ledgers chain by parent_hash', async (t) => {
  const run = Array.from({ length: 21 }, (_, i) => load(historical(11119607 + i)));
  for (let i = 1; i < run.length; i += 1) {
    const [previous, next] = [run[i - 1], run[i]] as [LedgerInput, LedgerInput];
    t.equal(checkLedgerChain(previous, next), undefined, `${next.ledger_index}`);
  }
  const [a, b] = [run[9], structuredClone(run[10])] as [LedgerInput, LedgerInput];
  b.parent_hash = b.parent_hash.replace(/^./, (c) => (c === '0' ? '1' : '0'));
  t.equal(
    checkLedgerChain(a, b),
    `ledger 11119617 names parent ${b.parent_hash}, but ledger 11119616 is ${a.ledger_hash}`,
  );
  t.equal(checkLedgerChain(a, run[12] as LedgerInput), 'ledger 11119619 does not follow ledger 11119616');
});
