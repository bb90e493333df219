import t from 'tap';
import {
  deliveredAmount,
  normalizeLedger,
  syntheticMetaFields,
  transformTransaction,
  type Json,
} from '../../src/index.js';
import { listFixtureLedgers, readFixture, readTransactionFixtures } from '@xle/test-helpers';

// rippled adds `delivered_amount` to every JSON answer that can carry one; the binary metadata
// does not hold it. Every fixture recorded from rippled (ledgers and single transactions) is the
// independent source: the rule, applied to the metadata without the field, must give what
// rippled wrote.

interface Case {
  where: string;
  tx: Json;
  ledgerIndex: number;
  closeTime: number;
}

function cases(): Case[] {
  const found: Case[] = [];
  for (const file of listFixtureLedgers()) {
    let ledger;
    try {
      ledger = normalizeLedger(readFixture(file));
    } catch {
      continue; // not a ledger answer (the fixtures hold a few other shapes)
    }
    for (const tx of ledger.transactions)
      found.push({ where: file, tx, ledgerIndex: ledger.ledger_index, closeTime: ledger.close_time });
  }
  for (const fixture of readTransactionFixtures())
    if (fixture.ledgerIndex > 0)
      found.push({
        where: fixture.file,
        tx: fixture.tx,
        ledgerIndex: fixture.ledgerIndex,
        closeTime: fixture.closeTime,
      });
  return found;
}

const all = cases();

t.test('the rule gives what rippled wrote, on every fixture transaction that carries it', async (t) => {
  let compared = 0;
  let unavailable = 0;
  for (const { where, tx, ledgerIndex, closeTime } of all) {
    const meta = tx.metaData as Json | undefined;
    if (meta === undefined || meta.delivered_amount === undefined) continue;
    const { delivered_amount: written, ...rest } = meta;
    t.same(deliveredAmount(tx, rest, ledgerIndex, closeTime), written, `${where} ${String(tx.hash)}`);
    compared += 1;
    if (written === 'unavailable') unavailable += 1;
  }
  t.ok(compared >= 60, `${compared} transactions compared`);
  t.comment(`${unavailable} of them unavailable`);
});

t.test('no delivered amount where rippled writes none', async (t) => {
  let checked = 0;
  for (const { where, tx, ledgerIndex, closeTime } of all) {
    const meta = tx.metaData as Json | undefined;
    // Only answers that carry rippled's synthetic fields at all (any Payment of them has one).
    if (meta === undefined || meta.delivered_amount !== undefined) continue;
    if (!all.some((c) => c.where === where && (c.tx.metaData as Json | undefined)?.delivered_amount !== undefined))
      continue;
    t.equal(deliveredAmount(tx, meta, ledgerIndex, closeTime), undefined, `${where} ${String(tx.hash)}`);
    checked += 1;
  }
  t.ok(checked > 100, `${checked} transactions without one`);
});

t.test('the document: computed when the answer had none, the same as when it had one', async (t) => {
  for (const { tx, ledgerIndex, closeTime } of all.slice(0, 400)) {
    const meta = tx.metaData as Json | undefined;
    if (meta?.delivered_amount === undefined) continue;
    const context = { ledgerIndex, closeTime, networkId: 0 };
    const { delivered_amount: _written, ...rest } = meta;
    t.same(
      transformTransaction({ ...tx, metaData: rest }, context),
      transformTransaction(tx, context),
      String(tx.hash),
    );
  }
});

t.test('before ledger 4594095 and without DeliveredAmount: unavailable, never a made-up amount', async (t) => {
  const tx = { TransactionType: 'Payment', Amount: '1000' };
  t.equal(deliveredAmount(tx, { TransactionResult: 'tesSUCCESS' }, 4594094, 445000000), 'unavailable');
  t.equal(deliveredAmount(tx, { TransactionResult: 'tesSUCCESS' }, 4594095, 445000000), '1000');
  t.equal(deliveredAmount(tx, { TransactionResult: 'tesSUCCESS' }, 4000000, 446000001), '1000', 'or closed after');
  t.equal(deliveredAmount(tx, { TransactionResult: 'tecPATH_PARTIAL' }, 90000000, 0), undefined, 'failed');
  t.equal(deliveredAmount({ TransactionType: 'OfferCreate' }, { TransactionResult: 'tesSUCCESS' }, 9e7, 0), undefined);
  t.same(
    deliveredAmount(tx, { TransactionResult: 'tesSUCCESS', DeliveredAmount: '7' }, 9e7, 0),
    '7',
    'DeliveredAmount wins',
  );
});

const SYNTHETIC = ['nftoken_id', 'nftoken_ids', 'offer_id', 'mpt_issuance_id'] as const;

t.test('nftoken_id, nftoken_ids, offer_id and mpt_issuance_id: what rippled wrote, where it wrote them', async (t) => {
  let compared = 0;
  const all = [
    ...cases(),
    ...readTransactionFixtures('rpc').map((f) => ({
      where: f.file,
      tx: f.tx,
      ledgerIndex: f.ledgerIndex,
      closeTime: f.closeTime,
    })),
  ];
  for (const { where, tx, ledgerIndex, closeTime } of all) {
    const meta = tx.metaData as Json | undefined;
    if (meta === undefined || !SYNTHETIC.some((field) => meta[field] !== undefined)) continue;
    const stripped: Json = { ...meta };
    for (const field of SYNTHETIC) delete stripped[field];
    const computed = syntheticMetaFields(tx, stripped, ledgerIndex, closeTime);
    for (const field of SYNTHETIC) t.same(computed[field], meta[field], `${where} ${String(tx.hash)} ${field}`);
    compared += 1;
  }
  t.ok(compared >= 5, `${compared} transactions compared`);
});
