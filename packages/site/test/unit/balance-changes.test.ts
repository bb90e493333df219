import BigNumber from 'bignumber.js';
import t from 'tap';
import { getBalanceChanges, type TransactionMetadata } from 'xrpl';
import { balanceChanges } from '../../src/model/balance-changes.js';
import { fixtureTx, transactionFixtures } from '../fixtures/site.js';

t.test('XRP: each AccountRoot Balance difference, the fee included', async (t) => {
  // An XRP payment that created its destination: 2,421.8268 XRP sent, 0.15 XRP fee.
  t.same(balanceChanges(fixtureTx('F4AD54E6FE56').meta), [
    { account: 'rHoPwMC75KVUhBMeV3uDMybKG5JND74teh', changes: [{ currency: 'XRP', code: 'XRP', value: '2421.8268' }] },
    { account: 'rNQEMJA4PsoSrZRn9J6RajAYhcDzzhf8ok', changes: [{ currency: 'XRP', code: 'XRP', value: '-2421.9768' }] },
  ]);
  // AccountDelete: the deleted root goes to zero, 5 XRP of it burnt as the fee.
  t.same(balanceChanges(fixtureTx('91BCF2965F73').meta), [
    { account: 'raf19Ns8czi85kTfia3KJ9ndjSp9baTLyH', changes: [{ currency: 'XRP', code: 'XRP', value: '-19.999988' }] },
    { account: 'raT74sdzpxJUaubcBAQNS8aLqFMU85Rr5J', changes: [{ currency: 'XRP', code: 'XRP', value: '14.999988' }] },
  ]);
});

t.test('trust lines: the low side gains the Balance difference, the high side its opposite', async (t) => {
  const changes = balanceChanges(fixtureTx('AABF5991C454').meta);
  const xrdoge = '5852646F67650000000000000000000000000000';
  const token = `${xrdoge}.rLqUC2eCPohYvJCEBJ77eCCqVL2uEiczjA`;
  t.match(changes, [
    {
      account: 'r3RaNVLvWjqqtFAawC6jbRhgKyFH7HvRS8',
      changes: [
        { currency: 'XRP', value: '-0.04' },
        {
          currency: xrdoge,
          code: 'XRdoge',
          counterparty: 'rLqUC2eCPohYvJCEBJ77eCCqVL2uEiczjA',
          token,
          value: '-17366599.15028',
        },
      ],
    },
    {
      account: 'rprcTynT68nYdKzDTefAZG9HjSHiYcnP4b',
      changes: [{ code: 'XRdoge', counterparty: 'rLqUC2eCPohYvJCEBJ77eCCqVL2uEiczjA', value: '17366599.150289' }],
    },
  ]);
  // The issuer sees both lines from its side: it owes the receiver more and the sender less.
  const issuer = changes.find((c) => c.account === 'rLqUC2eCPohYvJCEBJ77eCCqVL2uEiczjA');
  t.same(
    issuer?.changes.map((c) => [c.counterparty, c.value]).sort(),
    [
      ['r3RaNVLvWjqqtFAawC6jbRhgKyFH7HvRS8', '17366599.15028'],
      ['rprcTynT68nYdKzDTefAZG9HjSHiYcnP4b', '-17366599.150289'],
    ].sort(),
  );
  // Every line's two sides cancel out.
  const total = changes
    .flatMap((a) => a.changes)
    .filter((c) => c.currency === xrdoge)
    .reduce((sum, c) => sum + Number(c.value), 0);
  t.ok(Math.abs(total) < 1e-6, 'trust-line changes sum to zero');
});

t.test('unchanged balances and empty metadata give nothing', async (t) => {
  // An OfferCreate that only placed its offer: the fee is the only change.
  t.same(balanceChanges(fixtureTx('DB244B742B5C').meta), [
    { account: 'r3rhWeE31Jt5sWmi4QiGLMZnY3ENgqw96W', changes: [{ currency: 'XRP', code: 'XRP', value: '-0.005176' }] },
  ]);
  t.same(balanceChanges(undefined), []);
  t.same(balanceChanges({ AffectedNodes: [] }), []);
});

t.test('the same changes as xrpl.js computes, on every real fixture transaction', async (t) => {
  let compared = 0;
  for (const f of transactionFixtures()) {
    const meta = f.tx.metaData as TransactionMetadata;
    const theirs = getBalanceChanges(meta)
      .flatMap((a) =>
        a.balances.map((b) => `${a.account} ${b.currency} ${b.issuer ?? ''} ${new BigNumber(b.value).toFixed()}`),
      )
      .sort();
    const ours = balanceChanges(meta)
      .flatMap((a) =>
        a.changes.map((c) => `${a.account} ${c.currency} ${c.counterparty ?? ''} ${new BigNumber(c.value).toFixed()}`),
      )
      .sort();
    t.same(ours, theirs, String(f.tx.hash));
    compared += 1;
  }
  t.ok(compared > 90, `${compared} transactions compared`);
});
