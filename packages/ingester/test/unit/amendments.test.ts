import { createHash } from 'node:crypto';
import t from 'tap';
import {
  buildAmendmentDocs,
  loadKnownAmendments,
  type AmendmentDoc,
  type AmendmentsEntry,
  type EnableAmendmentTx,
} from '../../src/index.js';
import { readTransactionFixtures } from '@xle/test-helpers';
import { transformTransaction } from '@xle/documents';

const asOf = { ledger_index: 94084608, close_time: '2025-02-12T00:16:10.000Z', total_coins: '99986441776131104' };
const known = loadKnownAmendments();

/** The real EnableAmendment pseudo-transactions of the fixtures, as the transactions index holds them. */
const fixtures = readTransactionFixtures('transactions/mainnet-verified').filter(
  (f) => f.tx.TransactionType === 'EnableAmendment',
);
const indexed = fixtures.map(
  (f) =>
    transformTransaction(f.tx, {
      ledgerIndex: f.ledgerIndex,
      closeTime: f.closeTime,
      networkId: 0,
    }) as unknown as EnableAmendmentTx,
);
/** The Amendments ledger entry as each transaction left it (meta FinalFields). */
const entryAfter = (hash: string): AmendmentsEntry => {
  const fixture = fixtures.find((f) => f.tx.hash === hash);
  const nodes = (
    fixture?.tx.metaData as {
      AffectedNodes: { ModifiedNode?: { LedgerEntryType: string; FinalFields: AmendmentsEntry } }[];
    }
  ).AffectedNodes;
  const node = nodes.find((n) => n.ModifiedNode?.LedgerEntryType === 'Amendments');
  return node?.ModifiedNode?.FinalFields ?? {};
};
const docsOf = (...args: Parameters<typeof buildAmendmentDocs>): Map<string, AmendmentDoc> =>
  new Map(buildAmendmentDocs(...args).map((d) => [d._id, d.doc as unknown as AmendmentDoc]));

const NEGATIVE_UNL = 'B4E4F5D2D6FB84DF7399960A732309C9FD530EAE5941838160042833625A6076';
const EXPANDED_SIGNER_LIST = 'B2A4DB846F0891BF2C76AB2F2ACC8F5B4EC64437135C6E56F3F859DE5FFD5856';

t.test('the bundled list: every id is SHA-512Half of the name, as rippled derives it; no duplicates', async (t) => {
  t.ok(known.length >= 100);
  for (const a of known) {
    const half = createHash('sha512').update(a.name).digest('hex').slice(0, 64).toUpperCase();
    t.equal(a.id, half, a.name);
  }
  t.equal(new Set(known.map((a) => a.id)).size, known.length);
  t.equal(new Set(known.map((a) => a.name)).size, known.length);
});

t.test('four real EnableAmendment transactions are found in the fixtures', async (t) => {
  t.equal(indexed.length, 4);
  t.same(
    indexed.map((tx) => tx.Flags ?? 0).sort((a, b) => a - b),
    [0, 65536, 65536, 131072],
  );
});

t.test('an indexed enabling transaction matches the bundled history (NegativeUNL, ledger 67849217)', async (t) => {
  const docs = docsOf(known, indexed, undefined, asOf);
  const fromHistory = docsOf(known, [], undefined, asOf);
  t.match(docs.get(NEGATIVE_UNL), {
    amendment_id: NEGATIVE_UNL,
    name: 'NegativeUNL',
    introduced: '1.7.3',
    enabled: true,
    majority: null,
    supported: true,
    enabled_on: '2021-11-21T18:38:51.000Z',
    ledger_index: 67849217,
    tx_hash: '1500FADB73E7148191216C53040990E829C7110788B26E7F3246CB3660769EBA',
  });
  t.same(docs.get(NEGATIVE_UNL), fromHistory.get(NEGATIVE_UNL), 'two independent sources agree');
});

t.test('majority follows the flags in ledger order: lost, then gained again', async (t) => {
  // Without the bundled enabling history, ExpandedSignerList is only voted on in these ledgers.
  const unenabled = known.map(({ enabled: _e, ...rest }) => rest);
  const docs = docsOf(unenabled, indexed, undefined, asOf);
  t.match(docs.get(EXPANDED_SIGNER_LIST), {
    enabled: false,
    majority: '2022-09-29T15:28:31.000Z',
    name: 'ExpandedSignerList',
  });
  t.notOk('enabled_on' in (docs.get(EXPANDED_SIGNER_LIST) ?? {}));
  const lostOnly = indexed.filter((tx) => tx.Flags === 131072);
  t.match(docsOf(unenabled, lostOnly, undefined, asOf).get(EXPANDED_SIGNER_LIST), { enabled: false, majority: null });
});

t.test('the Amendments ledger entry is the current truth for majorities and enablement', async (t) => {
  const unenabled = known.map(({ enabled: _e, ...rest }) => rest);
  const gotMajority = indexed.find((tx) => tx.Amendment === EXPANDED_SIGNER_LIST && tx.Flags === 65536);
  const entry = entryAfter(gotMajority?.hash ?? '');
  t.equal(entry.Majorities?.length, 1);
  t.ok((entry.Amendments?.length ?? 0) > 40);
  const docs = docsOf(unenabled, [], entry, asOf);
  const majority = entry.Majorities?.[0]?.Majority;
  t.match(docs.get(EXPANDED_SIGNER_LIST), {
    enabled: false,
    majority: new Date((Number(majority?.CloseTime) + 946684800) * 1000).toISOString(),
  });
  for (const id of entry.Amendments ?? []) t.equal(docs.get(id)?.enabled, true, `${id} is enabled by the entry`);
});

t.test(
  'an amendment the bundled list says was enabled after the newest indexed ledger is not enabled as of it',
  async (t) => {
    const later = known.filter((k) => k.enabled !== undefined && k.enabled.ledger_index > asOf.ledger_index);
    const earlier = known.filter((k) => k.enabled !== undefined && k.enabled.ledger_index <= asOf.ledger_index);
    t.ok(
      later.length >= 10,
      `${later.length} amendments enabled after ledger ${asOf.ledger_index} in the bundled list`,
    );
    const docs = docsOf(known, [], undefined, asOf);
    for (const k of later)
      t.match(
        docs.get(k.id),
        { enabled: false, enabled_on: undefined },
        `${k.name}: not enabled as of ${asOf.ledger_index}`,
      );
    for (const k of earlier)
      t.match(docs.get(k.id), { enabled: true, ledger_index: k.enabled?.ledger_index }, `${k.name}: enabled before`);
    const atTheirLedger = docsOf(known, [], undefined, { ...asOf, ledger_index: Number.MAX_SAFE_INTEGER });
    t.ok(
      later.every((k) => atTheirLedger.get(k.id)?.enabled === true),
      'each enabled once the ledgers reach it',
    );
  },
);

t.test('an amendment nobody bundled still gets a document, neither named nor supported', async (t) => {
  const stranger = 'AA'.repeat(32);
  const docs = docsOf(
    known,
    [{ Amendment: stranger, ledger_index: 90000000, hash: 'BB'.repeat(32), _date: '2024-10-01T00:00:00.000Z' }],
    undefined,
    asOf,
  );
  t.same(docs.get(stranger), {
    amendment_id: stranger,
    enabled: true,
    majority: null,
    supported: false,
    obsolete: false,
    retired: false,
    updated_at: asOf.close_time,
    enabled_on: '2024-10-01T00:00:00.000Z',
    ledger_index: 90000000,
    tx_hash: 'BB'.repeat(32),
  });
  t.equal(docs.size, known.length + 1);
});

t.test('removed amendments are listed, not supported', async (t) => {
  const docs = docsOf(known, [], undefined, asOf);
  const removed = known.filter((k) => k.obsolete);
  t.ok(removed.length >= 12);
  for (const k of removed) t.match(docs.get(k.id), { supported: false, obsolete: true });
});

t.test('votes of the trusted validators fill count, threshold and validations while voting', async (t) => {
  const voting = known.find((k) => k.enabled === undefined && !k.obsolete)!;
  const unknown = 'F'.repeat(64);
  const votes = {
    validators: 35,
    counts: new Map([
      [voting.id, 29],
      [NEGATIVE_UNL, 35],
      [unknown, 2],
    ]),
  };
  const docs = docsOf(known, [], undefined, asOf, votes);
  t.match(docs.get(voting.id), { enabled: false, count: 29, threshold: 28, validations: 35 }, '80 % of 35, rounded up');
  t.notOk('count' in docs.get(NEGATIVE_UNL)!, 'an enabled amendment is not voted on any more');
  t.match(docs.get(unknown), { count: 2, supported: false }, 'a vote for an amendment nobody bundled shows it');
  const other = known.find((k) => k.enabled === undefined && !k.obsolete && k.id !== voting.id)!;
  t.match(docs.get(other.id), { count: 0, validations: 35 });
  t.notOk('count' in docsOf(known, [], undefined, asOf).get(voting.id)!, 'no votes collected: no count');
});
