import type { Context } from 'koa';
import { AppError, ErrorCode } from '@xle/core';

/**
 * The `Payment-Claim` request header of pay-as-you-go addresses:
 *
 *   Payment-Claim: channel=<64 hex>; amount=<drops>; signature=<hex>; public_key=<66 hex>
 *
 * - four `key=value` pairs separated by `;`, in any order, each exactly once; spaces and tabs
 *   around keys, `=` and values are ignored; keys are case-insensitive; nothing else is allowed;
 * - `channel`: the PayChannel's ledger object id (64 hex digits);
 * - `amount`: the cumulative amount the claim authorises, in drops, as a decimal integer without
 *   sign or leading zeros, from 1 to 10^17 (the XRP supply);
 * - `signature`: hex of the claim signature over (channel, amount), as made by `xrpl`'s
 *   `signPaymentChannelClaim` or rippled's `channel_authorize` (DER secp256k1 or Ed25519: 16 to
 *   144 hex digits, even);
 * - `public_key`: the channel's PublicKey, 66 hex digits (`02`/`03` secp256k1, `ED` Ed25519).
 *
 * Hex values are case-insensitive and normalised to upper case.
 */
export const PAYMENT_CLAIM_HEADER = 'Payment-Claim';

export interface PaymentClaim {
  channel: string;
  /** Cumulative amount in drops. */
  amountDrops: bigint;
  signature: string;
  publicKey: string;
}

/** 10^17 drops: every XRP that exists; no channel can hold more. */
export const MAX_DROPS = 100_000_000_000_000_000n;
const MAX_HEADER_LENGTH = 512;

const FIELDS = {
  channel: /^[0-9A-F]{64}$/,
  amount: /^[1-9][0-9]{0,17}$/,
  signature: /^(?:[0-9A-F]{2}){8,72}$/,
  public_key: /^(?:02|03|ED)[0-9A-F]{64}$/,
} as const;
type FieldName = keyof typeof FIELDS;

export const PAYMENT_CLAIM_FORMAT = 'channel=<64 hex>; amount=<drops>; signature=<hex>; public_key=<66 hex>';

function malformed(reason: string): AppError {
  return new AppError(402, ErrorCode.ClaimMalformed, `Malformed ${PAYMENT_CLAIM_HEADER} header: ${reason}.`, {
    details: { header: PAYMENT_CLAIM_HEADER, format: PAYMENT_CLAIM_FORMAT },
  });
}

/** Parses a header value; throws a 402 CLAIM_MALFORMED AppError naming the first problem. Pure. */
export function parsePaymentClaim(header: string): PaymentClaim {
  if (header.length > MAX_HEADER_LENGTH) throw malformed(`longer than ${MAX_HEADER_LENGTH} characters`);
  const values = new Map<FieldName, string>();
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) throw malformed(`"${part.trim()}" is not a key=value pair`);
    const key = part.slice(0, eq).trim().toLowerCase();
    const value = part
      .slice(eq + 1)
      .trim()
      .toUpperCase();
    if (!Object.hasOwn(FIELDS, key)) throw malformed(`unknown key "${key}"`);
    const name = key as FieldName;
    if (values.has(name)) throw malformed(`"${name}" is given twice`);
    if (!FIELDS[name].test(value)) throw malformed(`"${name}" is not valid`);
    values.set(name, value);
  }
  for (const name of Object.keys(FIELDS) as FieldName[]) {
    if (!values.has(name)) throw malformed(`"${name}" is missing`);
  }
  const amountDrops = BigInt(values.get('amount') as string);
  if (amountDrops > MAX_DROPS) throw malformed('"amount" is more than 10^17 drops');
  return {
    channel: values.get('channel') as string,
    amountDrops,
    signature: values.get('signature') as string,
    publicKey: values.get('public_key') as string,
  };
}

/** The header value for a claim (what a client sends). */
export function formatPaymentClaim(claim: PaymentClaim): string {
  return `channel=${claim.channel}; amount=${claim.amountDrops}; signature=${claim.signature}; public_key=${claim.publicKey}`;
}

/** True when the request carries a non-empty Payment-Claim header (well-formed or not). */
export function hasPaymentClaim(ctx: Pick<Context, 'get'>): boolean {
  return ctx.get(PAYMENT_CLAIM_HEADER) !== '';
}
