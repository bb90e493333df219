import { AppError, ErrorCode } from '@xle/core';
import type { PaymentClaim } from './claim-header.js';
import type { PayChannelState } from './channel.js';

/** The latest (highest) valid claim on a channel: what the operator redeems with PaymentChannelClaim. */
export interface LatestClaim {
  amount_drops: string;
  signature: string;
  public_key: string;
  received_at: string;
}

/** One document of the payg-channels index, `_id` = channel id (index-templates/indices/payg-channels.json). */
export interface ChannelAccount {
  channel: string;
  account: string;
  destination: string;
  public_key: string;
  /** Requests admitted (and not refunded) on this channel. */
  served: number;
  /** What they cost, in drops: the sum of each request's price when it was admitted. */
  cost_drops: string;
  latest_claim: LatestClaim;
  updated_at: string;
}

/**
 * Admits one request on a channel: the claim's cumulative amount must cover everything served so
 * far plus this request, so a stale claim (signed before later requests) or a replayed one (already
 * used up) is refused with CLAIM_INSUFFICIENT. Returns the account to write; the latest claim is
 * replaced only by a higher one. Pure.
 */
export function admitRequest(
  current: ChannelAccount | undefined,
  claim: PaymentClaim,
  channel: PayChannelState,
  priceDrops: bigint,
  at: Date,
): ChannelAccount {
  const served = current?.served ?? 0;
  const cost = BigInt(current?.cost_drops ?? '0');
  const required = cost + priceDrops;
  if (claim.amountDrops < required) {
    throw new AppError(
      402,
      ErrorCode.ClaimInsufficient,
      `The claim does not cover the ${served} request(s) already served on this channel plus this one; sign a claim for at least ${required} drops.`,
      {
        details: {
          channel: claim.channel,
          served,
          cost_drops: cost.toString(),
          price_drops: priceDrops.toString(),
          required_drops: required.toString(),
          claimed_drops: claim.amountDrops.toString(),
        },
      },
    );
  }
  const stamp = at.toISOString();
  const higher = current === undefined || claim.amountDrops > BigInt(current.latest_claim.amount_drops);
  return {
    channel: channel.id,
    account: channel.account,
    destination: channel.destination,
    public_key: channel.publicKey,
    served: served + 1,
    cost_drops: required.toString(),
    latest_claim: higher
      ? {
          amount_drops: claim.amountDrops.toString(),
          signature: claim.signature,
          public_key: claim.publicKey,
          received_at: stamp,
        }
      : current.latest_claim,
    updated_at: stamp,
  };
}

/** Gives one request's price back (a request answered with a 5xx). Never below zero. Pure. */
export function refundRequest(current: ChannelAccount, priceDrops: bigint, at: Date): ChannelAccount {
  if (current.served === 0) return current;
  const cost = BigInt(current.cost_drops) - priceDrops;
  return {
    ...current,
    served: current.served - 1,
    cost_drops: (cost < 0n ? 0n : cost).toString(),
    updated_at: at.toISOString(),
  };
}

/** Further requests a claim of `amountDrops` pays for on this account. Pure. */
export function requestsCovered(account: ChannelAccount, amountDrops: bigint, priceDrops: bigint): bigint {
  const left = amountDrops - BigInt(account.cost_drops);
  return left <= 0n ? 0n : left / priceDrops;
}
