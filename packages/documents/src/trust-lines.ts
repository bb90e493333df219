import BigNumber from 'bignumber.js';
import { LedgerEntry } from 'xrpl';
import type { Json } from './json.js';

/** A RippleState entry seen from one of its two accounts, as rippled's account_lines shows it. */
export interface TrustLine {
  account: string;
  balance: string;
  currency: string;
  limit: string;
  limit_peer: string;
  quality_in: number;
  quality_out: number;
  no_ripple?: boolean;
  no_ripple_peer?: boolean;
  freeze?: boolean;
  freeze_peer?: boolean;
  authorized?: boolean;
  peer_authorized?: boolean;
}

/** RippleState flags, as rippled defines them (https://xrpl.org/docs/references/protocol/ledger-data/ledger-entry-types/ripplestate). */
const { lsfLowNoRipple, lsfHighNoRipple, lsfLowFreeze, lsfHighFreeze, lsfLowAuth, lsfHighAuth } =
  LedgerEntry.RippleStateFlags;

const negate = (value: string): string => (value.startsWith('-') ? value.slice(1) : value === '0' ? '0' : `-${value}`);

/** A raw RippleState entry seen from `account`, one of its two sides (pure). */
export function trustLineOf(entry: Json, account: string): TrustLine {
  const low = entry.LowLimit as { issuer: string; value: string; currency: string };
  const high = entry.HighLimit as { issuer: string; value: string; currency: string };
  const balance = (entry.Balance as { value: string }).value;
  const flags = typeof entry.Flags === 'number' ? entry.Flags : 0;
  const isLow = low.issuer === account;
  const [mine, peer] = isLow ? [low, high] : [high, low];
  const own = (lowFlag: number, highFlag: number): boolean => (flags & (isLow ? lowFlag : highFlag)) !== 0;
  const other = (lowFlag: number, highFlag: number): boolean => (flags & (isLow ? highFlag : lowFlag)) !== 0;
  const line: TrustLine = {
    account: peer.issuer,
    balance: isLow ? balance : negate(balance),
    currency: low.currency,
    limit: mine.value,
    limit_peer: peer.value,
    quality_in: Number((isLow ? entry.LowQualityIn : entry.HighQualityIn) ?? 0),
    quality_out: Number((isLow ? entry.LowQualityOut : entry.HighQualityOut) ?? 0),
  };
  if (own(lsfLowNoRipple, lsfHighNoRipple)) line.no_ripple = true;
  if (other(lsfLowNoRipple, lsfHighNoRipple)) line.no_ripple_peer = true;
  if (own(lsfLowFreeze, lsfHighFreeze)) line.freeze = true;
  if (other(lsfLowFreeze, lsfHighFreeze)) line.freeze_peer = true;
  if (own(lsfLowAuth, lsfHighAuth)) line.authorized = true;
  if (other(lsfLowAuth, lsfHighAuth)) line.peer_authorized = true;
  return line;
}

/**
 * What an issuer owes, per currency: the sum of the holders' positive balances (negative from the
 * issuer's side), added exactly in decimal (pure).
 */
export function obligationsOf(lines: readonly TrustLine[]): { currency: string; value: string }[] {
  const totals = new Map<string, BigNumber>();
  for (const line of lines) {
    const balance = new BigNumber(line.balance);
    if (balance.isNegative()) totals.set(line.currency, (totals.get(line.currency) ?? new BigNumber(0)).minus(balance));
  }
  return [...totals].map(([currency, value]) => ({ currency, value: value.toFixed() }));
}
