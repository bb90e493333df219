import BigNumber from 'bignumber.js';
import {
  AUCTION_INTERVALS,
  auctionTimeInterval,
  rawEntry,
  rippledTimeText,
  trustLineOf,
  type Json,
} from '@xle/documents';

export interface Issue {
  currency: string;
  issuer?: string;
}

interface IssuedAmount {
  currency: string;
  issuer: string;
  value: string;
}

/** lsfGlobalFreeze on an AccountRoot; lsfLowFreeze / lsfHighFreeze on a RippleState. */
const GLOBAL_FREEZE = 0x00400000;

/** What the pool holds of one asset (null when it is not in the indexed state), plus whether the issuer froze it. */
export interface PoolSide {
  amount: string | IssuedAmount | null;
  frozen?: boolean;
}

/**
 * One side of a pool: XRP is the AMM account's balance in drops; a token is the AMM account's
 * trust line to its issuer, seen from the AMM side; frozen when the issuer froze that line or
 * froze globally (pure). A side whose account root (`accountRoot` undefined) or trust line is not
 * indexed (history only partly indexed) is null: unknown, not zero.
 */
export function poolSide(
  asset: Issue,
  ammAccount: string,
  accountRoot: Json | undefined,
  lines: Json[],
  issuerFlags = 0,
): PoolSide {
  if (asset.issuer === undefined) {
    const balance = accountRoot === undefined ? undefined : rawEntry(accountRoot).Balance;
    return { amount: typeof balance === 'string' ? balance : null };
  }
  const entry = lines.find((e) => {
    const low = e.LowLimit as Issue;
    const high = e.HighLimit as Issue;
    return low.currency === asset.currency && (low.issuer === asset.issuer || high.issuer === asset.issuer);
  });
  if (entry === undefined) return { amount: null };
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

export const issueOf = (value: unknown): Issue => {
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
  // amm_info shows a slot that has an owner; its interval is the 20th (none left) once expired.
  if (slot !== undefined && typeof slot.Account === 'string') {
    const auction: Json = {
      account: slot.Account,
      discounted_fee: slot.DiscountedFee ?? 0,
      expiration: rippledTimeText(Number(slot.Expiration)),
      price: plainAmount(slot.Price),
      time_interval: auctionTimeInterval(Number(slot.Expiration), now) ?? AUCTION_INTERVALS,
    };
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

/** The spec's AMM pool list entry: the AMM ledger entry plus its XRP `Balance` in XRP, null when not indexed (pure). */
export function shapeAmmPool(amm: Json, xrpBalance: number | null): Json {
  const raw = rawEntry(amm);
  const out: Json = { ...raw, Asset: issueOf(raw.Asset), Asset2: issueOf(raw.Asset2), Balance: xrpBalance };
  out.LPTokenBalance = plainAmount(raw.LPTokenBalance);
  const slot = raw.AuctionSlot as Json | undefined;
  if (slot !== undefined) out.AuctionSlot = { ...slot, Price: plainAmount(slot.Price) };
  return out;
}

/** The XRP an account root holds, in XRP; null when the root is not indexed (or deleted). */
export const xrpOf = (root: Json | undefined): number | null =>
  root === undefined || root.deleted === true
    ? null
    : ((root.Balance as { _value?: number } | undefined)?._value ?? null);
