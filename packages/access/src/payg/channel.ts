import BigNumber from 'bignumber.js';
import { verifyPaymentChannelClaim } from 'xrpl';
import { AppError, ErrorCode } from '@xle/core';
import type { PaymentClaim } from './claim-header.js';
import { dropsToXrpString, RIPPLE_EPOCH_OFFSET } from '@xle/documents';

/** The fields of an indexed PayChannel ledger entry the checks need, amounts in drops. */
export interface PayChannelState {
  id: string;
  account: string;
  destination: string;
  publicKey: string;
  /** Total the source put in the channel. */
  amountDrops: bigint;
  /** What the destination has already redeemed on ledger. */
  balanceDrops: bigint;
  /** Seconds since the Ripple epoch. */
  expiration?: number;
  cancelAfter?: number;
}

/** A clock time in XRPL-epoch seconds, rounded down (an expiration is past from its second on). */
export function toRippleTime(date: Date): number {
  return Math.floor(date.getTime() / 1000) - RIPPLE_EPOCH_OFFSET;
}

/** A normalised XRP amount document (`{ value: "<XRP>", native: true }`) → drops; undefined if not XRP. */
function amountDocDrops(amount: unknown): bigint | undefined {
  if (typeof amount !== 'object' || amount === null) return undefined;
  const { value, native } = amount as { value?: unknown; native?: unknown };
  if (native !== true || typeof value !== 'string') return undefined;
  const drops = new BigNumber(value).shiftedBy(6);
  return drops.isInteger() && !drops.isNegative() ? BigInt(drops.toFixed()) : undefined;
}

/**
 * The live PayChannel in a document of the objects index (entry fields as `entryFields` writes
 * them); undefined for a tombstone (`deleted`), another entry type, or a non-XRP channel. Pure.
 */
export function channelFromDoc(id: string, doc: Record<string, unknown>): PayChannelState | undefined {
  if (doc.LedgerEntryType !== 'PayChannel' || doc.deleted === true) return undefined;
  const amountDrops = amountDocDrops(doc.Amount);
  const balanceDrops = doc.Balance === undefined ? 0n : amountDocDrops(doc.Balance);
  const { Account, Destination, PublicKey, Expiration, CancelAfter } = doc;
  if (amountDrops === undefined || balanceDrops === undefined) return undefined;
  if (typeof Account !== 'string' || typeof Destination !== 'string' || typeof PublicKey !== 'string') return undefined;
  const channel: PayChannelState = {
    id: id.toUpperCase(),
    account: Account,
    destination: Destination,
    publicKey: PublicKey.toUpperCase(),
    amountDrops,
    balanceDrops,
  };
  if (typeof Expiration === 'number') channel.expiration = Expiration;
  if (typeof CancelAfter === 'number') channel.cancelAfter = CancelAfter;
  return channel;
}

function paymentError(code: ErrorCode, message: string, details?: Record<string, unknown>): AppError {
  return new AppError(402, code, message, details === undefined ? {} : { details });
}

/**
 * Checks the claim's signature with xrpl's own claim verification (which takes the amount in
 * XRP). No I/O, so it runs before the engine is asked anything: a forged claim costs one verify.
 */
export function verifyClaimSignature(claim: PaymentClaim): void {
  let valid: boolean;
  try {
    valid = verifyPaymentChannelClaim(
      claim.channel,
      dropsToXrpString(claim.amountDrops.toString()),
      claim.signature,
      claim.publicKey,
    );
  } catch {
    // A signature that is not DER / a public key that is not on the curve: also not a valid claim.
    valid = false;
  }
  if (!valid) {
    throw paymentError(
      ErrorCode.ClaimSignatureInvalid,
      'The claim signature does not verify for this channel, amount and public key.',
      { channel: claim.channel },
    );
  }
}

export interface ChannelRules {
  /** The service account every channel must pay (`access.paygDestination`). */
  destination: string;
  /** Current time, seconds since the Ripple epoch. */
  now: number;
}

/**
 * The channel-side acceptance rules, in this order: it pays the service, the claim's key is its
 * key, it has not expired, the claim is above what was already redeemed (Balance), and the
 * channel holds at least the claimed amount. Throws a 402. Pure.
 *
 * A channel is expired when its Expiration (set by a source's close request) or its CancelAfter
 * (fixed at creation) is at or before `now`: from then on it can be closed at any moment and a
 * claim on it may never be redeemed.
 */
export function checkChannel(channel: PayChannelState, claim: PaymentClaim, rules: ChannelRules): void {
  if (channel.destination !== rules.destination) {
    throw paymentError(ErrorCode.ChannelWrongDestination, `The channel does not pay ${rules.destination}.`, {
      channel: channel.id,
      destination: rules.destination,
    });
  }
  if (channel.publicKey !== claim.publicKey) {
    throw paymentError(ErrorCode.ChannelKeyMismatch, "The claim's public key is not the channel's PublicKey.", {
      channel: channel.id,
    });
  }
  for (const [field, at] of [
    ['Expiration', channel.expiration],
    ['CancelAfter', channel.cancelAfter],
  ] as const) {
    if (at !== undefined && at <= rules.now) {
      throw paymentError(ErrorCode.ChannelExpired, `The channel expired (${field}).`, {
        channel: channel.id,
        [field]: at,
      });
    }
  }
  if (claim.amountDrops <= channel.balanceDrops) {
    // Redeemed already: the ledger paid the service this much, so the claim is worth nothing more.
    throw paymentError(ErrorCode.ClaimInsufficient, "The claim is not above what the channel's Balance already paid.", {
      channel: channel.id,
      claimed_drops: claim.amountDrops.toString(),
      redeemed_drops: channel.balanceDrops.toString(),
    });
  }
  if (claim.amountDrops > channel.amountDrops) {
    throw paymentError(ErrorCode.ChannelUnderfunded, 'The claim is for more than the channel holds.', {
      channel: channel.id,
      claimed_drops: claim.amountDrops.toString(),
      channel_drops: channel.amountDrops.toString(),
    });
  }
}
