import { isDeepStrictEqual } from 'node:util';
import t from 'tap';
import {
  changeVersion,
  normalizeLedger,
  stateChanges,
  transformTransaction,
  withNewestThreading,
} from '../../src/index.js';
import { readFixture } from '@xle/test-helpers';

const ledger = normalizeLedger(
  readFixture('ledgers/historical/rippled-historical-database/ledger-1021029-accounts_created.json'),
);

t.test('versions order changes by ledger, then transaction', async (t) => {
  t.ok(changeVersion(100, 65535) < changeVersion(101, 0));
  t.ok(changeVersion(100, 1) < changeVersion(100, 2));
});

t.test('a payment that creates an account gives an object and an activation', async (t) => {
  const results = ledger.transactions.map((tx) => {
    const doc = transformTransaction(tx, {
      ledgerIndex: ledger.ledger_index,
      closeTime: ledger.close_time,
      networkId: 0,
    });
    return { tx, doc, changes: stateChanges({ ...tx, _date: doc._date }, ledger.ledger_index) };
  });
  const created = results.flatMap((r) =>
    r.changes.accounts.filter((a) => a.activation !== undefined).map((a) => ({ ...a, tx: r.tx })),
  );
  t.ok(created.length > 0, 'the fixture creates accounts');
  const first = created[0];
  t.match(first?.activation, { parent: first?.tx.Account, ledger_index: ledger.ledger_index, tx_hash: first?.tx.hash });
  t.matchSnapshot(first, 'account change with activation');
  const object = results[0]?.changes.objects[0];
  t.matchSnapshot(object, 'ledger object change');
});

t.test('deleted entries become tombstones, not gaps', async (t) => {
  const tx = {
    hash: 'C'.repeat(64),
    Account: 'rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw',
    metaData: {
      TransactionIndex: 4,
      AffectedNodes: [
        {
          DeletedNode: {
            LedgerEntryType: 'Offer',
            LedgerIndex: 'ab'.repeat(32),
            FinalFields: {
              Account: 'rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw',
              TakerGets: '100',
              TakerPays: { currency: 'USD', issuer: 'rvYAfWj5gh67oV6fW32ZzP3Aw4Eubs59B', value: '1' },
            },
          },
        },
      ],
    },
  };
  const { objects } = stateChanges(tx, 5000);
  t.equal(objects.length, 1);
  t.match(objects[0], {
    id: 'AB'.repeat(32),
    version: changeVersion(5000, 4),
    doc: { deleted: true, LedgerEntryType: 'Offer', TakerGets: { native: true, value: '0.0001' } },
  });
  t.same(objects[0]?.doc._accounts, ['rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw']);
});

t.test('documents give back the exact raw ledger entry, for every entry in the fixtures', async (t) => {
  const { listFixtureLedgers } = await import('@xle/test-helpers');
  const { entryFields, rawEntry } = await import('../../src/index.js');
  const entries: Record<string, unknown>[] = [];
  for (const file of listFixtureLedgers()) {
    for (const tx of normalizeLedger(readFixture(file)).transactions) {
      for (const wrapper of (tx.metaData as { AffectedNodes: Record<string, Record<string, unknown>>[] })
        .AffectedNodes) {
        const node = Object.values(wrapper)[0] ?? {};
        for (const part of [node.NewFields, node.FinalFields, node.PreviousFields]) {
          if (part !== undefined)
            entries.push({ ...(part as object), LedgerEntryType: node.LedgerEntryType, index: node.LedgerIndex });
        }
      }
    }
  }
  for (const file of [
    'ledger-state/ledger-32570-accountState.rhd.json',
    'ledger-state/ledgerFull38129-with-accountState.xrpljs.json',
    'ledger-state/ledger_data-71448944-page.sengelbert.json',
  ]) {
    const raw = readFixture<Record<string, unknown>>(file);
    const found = JSON.stringify(raw).length > 0 ? collectStateObjects(raw) : [];
    entries.push(...found);
  }
  t.ok(entries.length > 10000, `${entries.length} entries`);
  let mismatches = 0;
  for (const entry of entries) {
    // Deep equality: key order inside an amount object carries no meaning.
    if (!isDeepStrictEqual(rawEntry(entryFields(entry)), entry)) mismatches += 1;
  }
  t.equal(mismatches, 0, 'normalising is lossless');
});

function collectStateObjects(value: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(value)) for (const item of value) collectStateObjects(item, out);
  else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if (typeof record.LedgerEntryType === 'string' && typeof record.index === 'string') out.push(record);
    else for (const child of Object.values(record)) collectStateObjects(child, out);
  }
  return out;
}

t.test('a ModifiedNode without FinalFields threads its entry, and the newer threading wins', async (t) => {
  const threadedLedger = normalizeLedger(
    readFixture('ledgers/historical/rippled-historical-database/ledger-11119619.json'),
  );
  const root = '62C6E424E3ADA427B61F46642B4C917E1EFE2C56B5598690F37FE8252F866EE8'; // rnuF96W4...'s AccountRoot; the newest of them:
  const found = threadedLedger.transactions
    .flatMap((tx) => stateChanges(tx, threadedLedger.ledger_index).threads.filter((c) => c.id === root))
    .sort((a, b) => b.version - a.version);
  t.equal(found.length, 4, 'four transactions of 11119619 thread it without FinalFields');
  t.match(found[0], {
    doc: {
      index: root,
      LedgerEntryType: 'AccountRoot',
      PreviousTxnID: '2C8546B84A5A234E90C33818B54D10A421B4D4568FB5957457C2B3C0C9653CE6',
      PreviousTxnLgrSeq: 11119619,
      ledger_index: 11119619,
    },
  });
  // Such a node gives no state of its own: no object or account document comes of it.
  const tx = threadedLedger.transactions.find((x) => x.hash === found[0]?.doc.PreviousTxnID);
  const changes = stateChanges(tx as never, threadedLedger.ledger_index);
  t.notOk(
    changes.objects.some((c) => c.id === root),
    'no object write',
  );
  const thread = { version: found[0]?.version as number, doc: found[0]?.doc ?? {} };
  const entry = { Account: 'r', PreviousTxnID: 'A'.repeat(64), PreviousTxnLgrSeq: 7501326, ledger_index: 7501326 };
  t.same(withNewestThreading(entry, changeVersion(7501326, 3), thread), {
    ...entry,
    PreviousTxnID: '2C8546B84A5A234E90C33818B54D10A421B4D4568FB5957457C2B3C0C9653CE6',
    PreviousTxnLgrSeq: 11119619,
    ledger_index: 11119619,
  });
  t.equal(
    withNewestThreading(entry, changeVersion(11200000, 0), thread),
    entry,
    'an entry changed since keeps its own',
  );
  t.equal(withNewestThreading(entry, changeVersion(7501326, 3), undefined), entry, 'no record: unchanged');
});
