import BigNumber from 'bignumber.js';
import Type from 'typebox';
import { NotFoundError } from '@xle/core';
import type { Engine } from '../engine.js';
import { buildLatestLedgersQuery } from '../queries/lookups.js';
import { AccountParam, LimitOffset } from '../schemas/params.js';
import { AnyObject, defineRoute, NoParams, NoQuery, type AnyRoute } from '../route.js';
import { trustLineOf } from './accounts.js';
import { rawEntry, RIPPLE_EPOCH_OFFSET } from '@xle/documents';

type Json = Record<string, unknown>;

interface Issue {
  currency: string;
  issuer?: string;
}

interface IssuedAmount {
  currency: string;
  issuer: string;
  value: string;
}

/** The auction slot lasts 24 hours, split into 20 intervals of 72 minutes (XLS-30). */
const AUCTION_SLOT_SECONDS = 24 * 3600;
const AUCTION_INTERVALS = 20;
/** lsfGlobalFreeze on an AccountRoot; lsfLowFreeze / lsfHighFreeze on a RippleState. */
const GLOBAL_FREEZE = 0x00400000;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** rippled's time text, as amm_info prints an expiration: `2023-Jan-26 00:28:40.000000000 UTC` (pure). */
export function rippledTimeText(rippleSeconds: number): string {
  const d = new Date((rippleSeconds + RIPPLE_EPOCH_OFFSET) * 1000);
  const two = (n: number): string => String(n).padStart(2, '0');
  return (
    `${d.getUTCFullYear()}-${MONTHS[d.getUTCMonth()]}-${two(d.getUTCDate())} ` +
    `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}.000000000 UTC`
  );
}

/**
 * Which 72-minute interval of its 24 hours an auction slot is in at `now` (0-19), or undefined when
 * the slot has expired or not started, as rippled's amm_info computes `time_interval` (pure).
 */
export function auctionTimeInterval(expiration: number, now: number): number | undefined {
  if (expiration < AUCTION_SLOT_SECONDS) return undefined;
  const start = expiration - AUCTION_SLOT_SECONDS;
  if (now < start || now - start >= AUCTION_SLOT_SECONDS) return undefined;
  return Math.floor((now - start) / (AUCTION_SLOT_SECONDS / AUCTION_INTERVALS));
}

/** What the pool holds of one asset, plus whether the issuer froze it. */
export interface PoolSide {
  amount: string | IssuedAmount;
  frozen?: boolean;
}

/**
 * One side of a pool: XRP is the AMM account's balance in drops; a token is the AMM account's
 * trust line to its issuer, seen from the AMM side; frozen when the issuer froze that line or
 * froze globally (pure).
 */
export function poolSide(
  asset: Issue,
  ammAccount: string,
  accountRoot: Json,
  lines: Json[],
  issuerFlags = 0,
): PoolSide {
  if (asset.issuer === undefined) {
    const balance = rawEntry(accountRoot).Balance;
    return { amount: typeof balance === 'string' ? balance : '0' };
  }
  const entry = lines.find((e) => {
    const low = e.LowLimit as Issue;
    const high = e.HighLimit as Issue;
    return low.currency === asset.currency && (low.issuer === asset.issuer || high.issuer === asset.issuer);
  });
  if (entry === undefined)
    return { amount: { currency: asset.currency, issuer: asset.issuer, value: '0' }, frozen: false };
  const line = trustLineOf(rawEntry(entry), ammAccount);
  return {
    amount: { currency: asset.currency, issuer: asset.issuer, value: new BigNumber(line.balance).toFixed() },
    frozen: (issuerFlags & GLOBAL_FREEZE) !== 0 || line.freeze_peer === true,
  };
}

/** An issued amount with its value in plain decimal, as rippled prints it (`3310128109714975e-4` → `331012810971.4975`). */
function plainAmount(value: unknown): unknown {
  const v = value as Partial<IssuedAmount> | undefined;
  if (v === undefined || typeof v !== 'object' || typeof v.value !== 'string') return value;
  return { ...v, value: new BigNumber(v.value).toFixed() };
}

const issueOf = (value: unknown): Issue => {
  const v = value as Issue;
  return v.issuer === undefined ? { currency: 'XRP' } : { currency: v.currency, issuer: v.issuer };
};

/** The spec's AMM info, shaped as rippled's amm_info `amm` object (pure). */
export function shapeAmmInfo(amm: Json, side1: PoolSide, side2: PoolSide, now: number): Json {
  const raw = rawEntry(amm);
  const out: Json = { account: raw.Account, amount: side1.amount, amount2: side2.amount };
  if (side1.frozen !== undefined) out.asset_frozen = side1.frozen;
  if (side2.frozen !== undefined) out.asset2_frozen = side2.frozen;
  const slot = raw.AuctionSlot as Json | undefined;
  if (slot !== undefined) {
    const auction: Json = {
      account: slot.Account,
      discounted_fee: slot.DiscountedFee ?? 0,
      expiration: rippledTimeText(Number(slot.Expiration)),
      price: plainAmount(slot.Price),
    };
    const interval = auctionTimeInterval(Number(slot.Expiration), now);
    if (interval !== undefined) auction.time_interval = interval;
    const auth = slot.AuthAccounts as { AuthAccount: { Account: string } }[] | undefined;
    if (auth !== undefined) auction.auth_accounts = auth.map((a) => ({ account: a.AuthAccount.Account }));
    out.auction_slot = auction;
  }
  out.lp_token = plainAmount(raw.LPTokenBalance);
  out.trading_fee = raw.TradingFee ?? 0;
  const votes = (raw.VoteSlots ?? []) as { VoteEntry: { Account: string; TradingFee?: number; VoteWeight: number } }[];
  out.vote_slots = votes.map(({ VoteEntry: v }) => ({
    account: v.Account,
    trading_fee: v.TradingFee ?? 0,
    vote_weight: v.VoteWeight,
  }));
  return out;
}

/** The spec's AMM pool list entry: the AMM ledger entry plus its XRP `Balance` in XRP (pure). */
export function shapeAmmPool(amm: Json, xrpBalance: number): Json {
  const raw = rawEntry(amm);
  const out: Json = { ...raw, Asset: issueOf(raw.Asset), Asset2: issueOf(raw.Asset2), Balance: xrpBalance };
  out.LPTokenBalance = plainAmount(raw.LPTokenBalance);
  const slot = raw.AuctionSlot as Json | undefined;
  if (slot !== undefined) out.AuctionSlot = { ...slot, Price: plainAmount(slot.Price) };
  return out;
}

/** Newest indexed ledger's close time, the "now" of an auction slot. */
async function latestCloseTime(engine: Engine): Promise<number> {
  const found = await engine.search<{ close_time?: number }>('ledgers', {
    ...buildLatestLedgersQuery(1),
    _source: ['close_time'],
  });
  return found.hits.hits[0]?._source?.close_time ?? 0;
}

const xrpOf = (root: Json): number => (root.Balance as { _value?: number } | undefined)?._value ?? 0;

export function ammRoutes(engine: Engine): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/amm/pools',
      summary: 'AMM pools, ordered by AMM account',
      tags: ['AMM'],
      params: NoParams,
      query: Type.Object(LimitOffset, { additionalProperties: false }),
      response: Type.Array(AnyObject, {
        description:
          'Each entry is the AMM ledger entry with `Balance`, the XRP its account holds (in XRP), ' +
          'ordered by AMM account.',
      }),
      handler: async (_ctx, { query }) => {
        const found = await engine.search<Json>('objects', {
          query: { bool: { filter: [{ term: { LedgerEntryType: 'AMM' } }, { term: { deleted: false } }] } },
          sort: [{ Account: { order: 'asc' } }],
          from: query.offset ?? 0,
          size: Math.min(query.limit ?? 100, 10_000 - (query.offset ?? 0)),
        });
        const amms = found.hits.hits.map((h) => h._source ?? {});
        const roots = await engine.mget<Json>(
          'accounts',
          amms.map((a) => a.Account as string),
        );
        return amms.map((amm) => shapeAmmPool(amm, xrpOf(roots.get(amm.Account as string) ?? {})));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/amm/{AMM_ACCOUNT}',
      summary: 'AMM info: pool balances, LP token, auction slot and votes',
      tags: ['AMM'],
      params: Type.Object({ AMM_ACCOUNT: AccountParam }),
      query: NoQuery,
      response: AnyObject,
      handler: async (_ctx, { params }) => {
        const account = params.AMM_ACCOUNT;
        const root = await engine.get<Json>('accounts', account);
        const ammId = root?.AMMID;
        if (root === undefined || root.deleted === true || typeof ammId !== 'string')
          throw new NotFoundError(`${account} is not an AMM account in the indexed ledgers.`, { account });
        const amm = await engine.get<Json>('objects', ammId);
        if (amm === undefined || amm.deleted === true)
          throw new NotFoundError(`The AMM of ${account} is not found in the indexed ledgers.`, { account });
        const assets = [issueOf(amm.Asset), issueOf(amm.Asset2)];
        const issuers = assets.flatMap((a) => (a.issuer === undefined ? [] : [a.issuer]));
        const [lines, issuerRoots, now] = await Promise.all([
          issuers.length === 0
            ? Promise.resolve([])
            : engine
                .search<Json>('objects', {
                  query: {
                    bool: {
                      filter: [
                        { term: { _accounts: account } },
                        { term: { LedgerEntryType: 'RippleState' } },
                        { term: { deleted: false } },
                        { terms: { _accounts: issuers } },
                      ],
                    },
                  },
                  size: 10,
                })
                .then((r) => r.hits.hits.map((h) => h._source ?? {})),
          engine.mget<Json>('accounts', issuers),
          latestCloseTime(engine),
        ]);
        const flagsOf = (issuer?: string): number =>
          issuer === undefined ? 0 : Number(issuerRoots.get(issuer)?.Flags ?? 0);
        const [side1, side2] = assets.map((a) => poolSide(a, account, root, lines, flagsOf(a.issuer))) as [
          PoolSide,
          PoolSide,
        ];
        return shapeAmmInfo(amm, side1, side2, now);
      },
    }),
  ];
}
