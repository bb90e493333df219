import t from 'tap';
import { buildFactDocs, type FactInputs } from '../../src/index.js';
import { FACT_DESCRIPTIONS, LISTED_OBJECT_TYPES, XRP_BRACKETS } from '@xle/documents';

const asOf = { ledger_index: 94084608, close_time: '2025-02-12T00:16:10.000Z', total_coins: '99986441776131104' };
const inputs: FactInputs = {
  objectCounts: { Offer: 3, AccountRoot: 2, Oracle: 1 },
  totalCoinsDrops: asOf.total_coins,
  accounts: 2,
  inAccounts: 0.1 + 0.2,
  inEscrow: 100,
  inPayChannels: { amount: 100, balance: 78.241262 },
  brackets: XRP_BRACKETS.map((_, i) => ({ accounts: i, balance: i * 1.5 })),
  amm: {
    pools: 2,
    poolsXrp: 1,
    xrpLocked: '39866.687388',
    xrpPoolsUnindexed: 0,
    tradingFeeSum: 679,
    auctionSlotsActive: 0,
  },
};

t.test('every fact is documented, every listed object type present, values decimal strings', async (t) => {
  const docs = buildFactDocs(inputs, asOf);
  const byId = new Map(docs.map((d) => [d._id, d.doc]));
  for (const type of LISTED_OBJECT_TYPES) t.ok(byId.has(`ObjectCount.${type}`), type);
  t.equal(byId.get('ObjectCount.Oracle')?.value, '1', 'types beyond the listed ones appear too');
  t.equal(byId.get('ObjectCount.Check')?.value, '0');
  for (const ns of ['AMM', 'XRP'] as const) {
    const ids = docs.filter((d) => d.doc.namespace === ns).map((d) => d.doc.fact_id as string);
    t.same(ids.sort(), Object.keys(FACT_DESCRIPTIONS[ns]).sort(), `${ns} facts and their documentation agree`);
  }
  for (const d of docs) t.match(d.doc.value, /^\d+(\.\d+)?$/, d._id);
  t.equal(byId.get('XRP.total_supply')?.value, '99986441776.131104', 'exact from drops');
  t.equal(byId.get('XRP.destroyed')?.value, '13558223.868896');
  t.equal(byId.get('XRP.in_accounts')?.value, '0.3', 'sums are rounded to drops');
  t.equal(byId.get('XRP.in_paychannels')?.value, '21.758738');
  t.equal(byId.get('XRP.accounts_100000000_plus')?.value, '8');
  t.equal(byId.get('XRP.balance_0_20')?.value, '0');
  t.equal(byId.get('AMM.trading_fee_avg')?.value, '339.5');
  t.equal(byId.get('AMM.xrp_locked')?.value, '39866.687388', 'the XRP pools hold, exact');
  t.equal(
    buildFactDocs({ ...inputs, amm: { ...inputs.amm, pools: 0, tradingFeeSum: 0 } }, asOf).find(
      (d) => d._id === 'AMM.trading_fee_avg',
    )?.doc.value,
    '0',
    'no pool: a mean of 0, not NaN',
  );
  t.same(byId.get('AMM.pools'), {
    namespace: 'AMM',
    fact_id: 'pools',
    value: '2',
    _value: 2,
    ledger_index: 94084608,
    computed_at: asOf.close_time,
  });
});
