import BigNumber from 'bignumber.js';
import { totalHits } from '@xle/core';
import {
  bracketName,
  LISTED_OBJECT_TYPES,
  RIPPLE_EPOCH_OFFSET,
  XRP_BRACKETS,
  type FactNamespace,
} from '@xle/documents';
import type { IngestEngine } from '../engine/ingest-engine.js';
import type { AsOf, DataSetDocument } from './data-set.js';

/** What the facts job reads from the engine (all of it aggregations over the indexed state). */
export interface FactInputs {
  objectCounts: Record<string, number>;
  totalCoinsDrops: string;
  accounts: number;
  inAccounts: number;
  inEscrow: number;
  inPayChannels: { amount: number; balance: number };
  brackets: { accounts: number; balance: number }[];
  amm: AmmFacts;
}

/**
 * The AMM facts, all from the live AMM entries (the pools `/amm/pools` lists): the XRP locked is
 * the balance of each XRP pool's account; a pool whose account is not in the indexed state (its
 * history only partly indexed) is counted apart, never as zero XRP.
 */
export interface AmmFacts {
  pools: number;
  poolsXrp: number;
  /** XRP, an exact decimal string. */
  xrpLocked: string;
  xrpPoolsUnindexed: number;
  /** Σ TradingFee of the pools (the mean is taken when the facts are built). */
  tradingFeeSum: number;
  auctionSlotsActive: number;
}

/** XRP amounts to 6 decimals (drops), as decimal strings without exponent. */
const xrp = (value: number | BigNumber): string => new BigNumber(value).decimalPlaces(6).toFixed();

const GENESIS_XRP = new BigNumber('100000000000');

/** The fact documents, `_id` = `<namespace>.<fact_id>` (pure). */
export function buildFactDocs(inputs: FactInputs, asOf: AsOf): DataSetDocument[] {
  const facts: [FactNamespace, string, string][] = [];
  const types = new Set<string>([...LISTED_OBJECT_TYPES, ...Object.keys(inputs.objectCounts)]);
  for (const type of [...types].sort()) facts.push(['ObjectCount', type, String(inputs.objectCounts[type] ?? 0)]);
  const supply = new BigNumber(inputs.totalCoinsDrops).shiftedBy(-6);
  facts.push(
    ['XRP', 'total_supply', supply.toFixed()],
    ['XRP', 'destroyed', GENESIS_XRP.minus(supply).toFixed()],
    ['XRP', 'accounts', String(inputs.accounts)],
    ['XRP', 'in_accounts', xrp(inputs.inAccounts)],
    ['XRP', 'in_escrow', xrp(inputs.inEscrow)],
    ['XRP', 'in_paychannels', xrp(new BigNumber(inputs.inPayChannels.amount).minus(inputs.inPayChannels.balance))],
  );
  inputs.brackets.forEach((b, i) => {
    facts.push(['XRP', `accounts_${bracketName(i)}`, String(b.accounts)]);
    facts.push(['XRP', `balance_${bracketName(i)}`, xrp(b.balance)]);
  });
  const amm = inputs.amm;
  facts.push(
    ['AMM', 'pools', String(amm.pools)],
    ['AMM', 'pools_xrp', String(amm.poolsXrp)],
    ['AMM', 'xrp_locked', amm.xrpLocked],
    ['AMM', 'xrp_pools_unindexed', String(amm.xrpPoolsUnindexed)],
    [
      'AMM',
      'trading_fee_avg',
      amm.pools === 0 ? '0' : new BigNumber(amm.tradingFeeSum).div(amm.pools).decimalPlaces(2).toFixed(),
    ],
    ['AMM', 'auction_slots_active', String(amm.auctionSlotsActive)],
  );
  return facts.map(([namespace, fact_id, value]) => ({
    _id: `${namespace}.${fact_id}`,
    doc: {
      namespace,
      fact_id,
      value,
      _value: Number(value),
      ledger_index: asOf.ledger_index,
      computed_at: asOf.close_time,
    },
  }));
}

const live = { term: { deleted: false } };

interface SumAgg {
  value: number | null;
}
interface CountAgg {
  doc_count: number;
}

/** Reads the facts' inputs with aggregations over the indexed accounts and ledger objects. */
export async function readFactInputs(engine: IngestEngine, asOf: AsOf): Promise<FactInputs> {
  const rippleNow = Math.floor(Date.parse(asOf.close_time) / 1000) - RIPPLE_EPOCH_OFFSET;
  const [objectAggs, accountAggs, amm] = await Promise.all([
    engine.search('objects', {
      size: 0,
      query: { bool: { filter: [live] } },
      aggs: {
        types: { terms: { field: 'LedgerEntryType', size: 200 } },
        escrow: {
          filter: { bool: { filter: [{ term: { LedgerEntryType: 'Escrow' } }, { term: { 'Amount.native': true } }] } },
          aggs: { xrp: { sum: { field: 'Amount._value' } } },
        },
        channels: {
          filter: {
            bool: { filter: [{ term: { LedgerEntryType: 'PayChannel' } }, { term: { 'Amount.native': true } }] },
          },
          aggs: { amount: { sum: { field: 'Amount._value' } }, balance: { sum: { field: 'Balance._value' } } },
        },
      },
    }),
    engine.search('accounts', {
      size: 0,
      track_total_hits: true,
      query: { bool: { filter: [live] } },
      aggs: {
        total: { sum: { field: 'Balance._value' } },
        brackets: {
          range: {
            field: 'Balance._value',
            ranges: XRP_BRACKETS.map((from, i) => {
              const to = XRP_BRACKETS[i + 1];
              return to === undefined ? { from } : { from, to };
            }),
          },
          aggs: { balance: { sum: { field: 'Balance._value' } } },
        },
      },
    }),
    readAmmFacts(engine, rippleNow),
  ]);
  const o = objectAggs.aggregations as Record<string, unknown>;
  const a = accountAggs.aggregations as Record<string, unknown>;
  const typeBuckets = (o.types as { buckets: { key: string; doc_count: number }[] }).buckets;
  const escrow = o.escrow as CountAgg & { xrp: SumAgg };
  const channels = o.channels as CountAgg & { amount: SumAgg; balance: SumAgg };
  const brackets = (a.brackets as { buckets: (CountAgg & { balance: SumAgg })[] }).buckets;
  return {
    objectCounts: Object.fromEntries(typeBuckets.map((b) => [b.key, b.doc_count])),
    totalCoinsDrops: asOf.total_coins,
    accounts: totalHits(accountAggs.hits),
    inAccounts: (a.total as SumAgg).value ?? 0,
    inEscrow: escrow.xrp.value ?? 0,
    inPayChannels: { amount: channels.amount.value ?? 0, balance: channels.balance.value ?? 0 },
    brackets: brackets.map((b) => ({ accounts: b.doc_count, balance: b.balance.value ?? 0 })),
    amm,
  };
}

/** Pool accounts looked up at once. */
const ACCOUNTS_AT_ONCE = 1000;

interface AmmEntry {
  Account?: string;
  Asset?: { native?: boolean };
  Asset2?: { native?: boolean };
  TradingFee?: number;
  AuctionSlot?: { Account?: string; Expiration?: number };
}

/**
 * The AMM facts from the live AMM entries, a page of pools at a time, and the balances of the XRP
 * pools' accounts (in XRP, exact). AuctionSlot is a flattened field, which ranges compare as text,
 * so expirations are compared here: a slot is active when held and expiring after `now`.
 */
async function readAmmFacts(engine: IngestEngine, now: number): Promise<AmmFacts> {
  const facts: AmmFacts = {
    pools: 0,
    poolsXrp: 0,
    xrpLocked: '0',
    xrpPoolsUnindexed: 0,
    tradingFeeSum: 0,
    auctionSlotsActive: 0,
  };
  const xrpPools: string[] = [];
  const pools = engine.scan<AmmEntry>('objects', {
    query: { bool: { filter: [live, { term: { LedgerEntryType: 'AMM' } }] } },
    sort: [{ index: 'asc' }],
    _source: [
      'Account',
      'Asset.native',
      'Asset2.native',
      'TradingFee',
      'AuctionSlot.Account',
      'AuctionSlot.Expiration',
    ],
  });
  for await (const hit of pools) {
    const pool = hit._source ?? {};
    facts.pools += 1;
    facts.tradingFeeSum += Number(pool.TradingFee ?? 0);
    const slot = pool.AuctionSlot;
    if (slot?.Account !== undefined && Number(slot.Expiration ?? 0) > now) facts.auctionSlotsActive += 1;
    if ((pool.Asset?.native === true || pool.Asset2?.native === true) && typeof pool.Account === 'string') {
      facts.poolsXrp += 1;
      xrpPools.push(pool.Account);
    }
  }
  let locked = new BigNumber(0);
  for (let at = 0; at < xrpPools.length; at += ACCOUNTS_AT_ONCE) {
    const chunk = xrpPools.slice(at, at + ACCOUNTS_AT_ONCE);
    const roots = await engine.mget<{ Balance?: { value?: string }; deleted?: boolean }>('accounts', chunk, [
      'Balance.value',
      'deleted',
    ]);
    for (const account of chunk) {
      const root = roots.get(account);
      const balance = root?.deleted === true ? undefined : root?.Balance?.value;
      if (balance === undefined) facts.xrpPoolsUnindexed += 1;
      else locked = locked.plus(balance);
    }
  }
  facts.xrpLocked = locked.toFixed();
  return facts;
}
