import type { Context, Middleware, Next } from 'koa';
import {
  AppError,
  ConfigError,
  ErrorCode,
  isAppError,
  mapEngineError,
  namingOf,
  readEngineFor,
  type AppDeps,
  type Config,
} from '@xle/core';
import { carriesApiKey } from '../plans/api-keys.js';
import { requestsCovered } from './accounting.js';
import { checkChannel, toRippleTime, verifyClaimSignature } from './channel.js';
import { hasPaymentClaim, parsePaymentClaim, PAYMENT_CLAIM_FORMAT, PAYMENT_CLAIM_HEADER } from './claim-header.js';
import { ChannelMeter } from './meter.js';
import { PaygStore } from '../engine/payg-store.js';

/** The app's configuration, engine client (handed to the store) and logger, and the clock. */
export interface PaymentClaimsDeps extends AppDeps {
  /** The clock that decides whether a channel has expired; the wall clock unless a test sets one. */
  now?: () => Date;
}

/** What an accepted request paid, in `ctx.state.payment`. */
export interface PaymentState {
  channel: string;
  served: number;
  costDrops: string;
}

export const SERVED_HEADER = 'Payment-Channel-Served';
export const REMAINING_HEADER = 'Payment-Channel-Remaining';

/** The service account channels must pay; a pay-as-you-go address cannot start without it. */
export function paygDestinationOf(config: Config): string {
  const destination = config.access.paygDestination;
  if (destination === undefined) {
    throw new ConfigError(
      'Pay-as-you-go is on (access.mode or access.search) but access.paygDestination (PAYG_DESTINATION) is not set: set the service account the payment channels must pay.',
      { problems: [{ path: '/access/paygDestination', message: 'required when pay-as-you-go is on' }] },
    );
  }
  return destination;
}

/** The status a thrown error will be answered with by the shared error handler. */
function statusOf(error: unknown): number {
  const mapped = mapEngineError(error);
  if (isAppError(mapped)) return mapped.status;
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? status : 500;
}

function exposeHeaders(ctx: Context): void {
  const exposed = ctx.response.get('Access-Control-Expose-Headers');
  const names = [SERVED_HEADER, REMAINING_HEADER];
  ctx.set('Access-Control-Expose-Headers', exposed === '' ? names.join(', ') : `${exposed}, ${names.join(', ')}`);
}

/**
 * Pay-as-you-go admission: every request carries a `Payment-Claim` (see claim-header.ts) and is
 * admitted only when, in this order, the header is well formed, the signature verifies (xrpl's
 * claim verification), the PayChannel exists in the indexed ledger objects, pays
 * `access.paygDestination`, has the claim's public key, has not expired (wall clock, or `now`),
 * holds at least the claimed amount, and the claim covers every request served on it so far
 * plus this one at `access.paygDropsPerRequest` each. Every refusal is a 402 with its own code.
 *
 * An admitted request is charged before it runs; when it ends in a 5xx (our failure, not the
 * client's) the charge is given back. A request already admitted by an outer pay-as-you-go
 * middleware (search mounted in the API app) is not charged twice.
 *
 * Throws ConfigError at construction when no destination is configured.
 */
export function paymentClaims(deps: PaymentClaimsDeps & { skip?: (ctx: Context) => boolean }): Middleware {
  const { config, logger, now = () => new Date(), skip = () => false } = deps;
  const destination = paygDestinationOf(config);
  const priceDrops = BigInt(config.access.paygDropsPerRequest);
  const store = new PaygStore(readEngineFor(deps), namingOf(config));
  const meter = new ChannelMeter(store, { priceDrops, now });

  return async (ctx: Context, next: Next) => {
    if (ctx.method === 'OPTIONS' || ctx.state.payment !== undefined || skip(ctx)) return next();
    if (!hasPaymentClaim(ctx)) {
      throw new AppError(
        402,
        ErrorCode.PaymentRequired,
        `This address is pay-as-you-go: send a ${PAYMENT_CLAIM_HEADER} header.`,
        {
          details: { header: PAYMENT_CLAIM_HEADER, format: PAYMENT_CLAIM_FORMAT },
        },
      );
    }
    const claim = parsePaymentClaim(ctx.get(PAYMENT_CLAIM_HEADER));
    verifyClaimSignature(claim);
    const channel = await store.getChannel(claim.channel);
    if (channel === undefined) {
      throw new AppError(402, ErrorCode.ChannelNotFound, 'No open payment channel with this id in the ledger.', {
        details: { channel: claim.channel },
      });
    }
    checkChannel(channel, claim, { destination, now: toRippleTime(now()) });
    const account = await meter.charge(claim, channel);
    const payment: PaymentState = { channel: channel.id, served: account.served, costDrops: account.cost_drops };
    ctx.state.payment = payment;
    ctx.set(SERVED_HEADER, String(account.served));
    ctx.set(REMAINING_HEADER, requestsCovered(account, claim.amountDrops, priceDrops).toString());
    exposeHeaders(ctx);

    let status: number | undefined;
    try {
      await next();
      status = ctx.status;
    } catch (error) {
      status = statusOf(error);
      throw error;
    } finally {
      // Refunded when the fault is ours or the engine's availability (500, 502, 503); an engine
      // timeout (504) did the request's work, so a costly query cannot be made free by timing out.
      if (status === undefined || status === 500 || status === 502 || status === 503) {
        await meter.refund(channel.id).catch((error: unknown) => {
          logger.error({ err: error, channel: channel.id }, 'pay-as-you-go refund failed');
        });
      }
    }
  };
}

/**
 * For addresses that take either credential (`access.search: keys+payg`): a request with a
 * Payment-Claim header goes through pay-as-you-go, any other through `otherwise` (API keys).
 */
export function claimOrElse(payg: Middleware, otherwise: Middleware): Middleware {
  return (ctx, next) => (hasPaymentClaim(ctx) ? payg(ctx, next) : otherwise(ctx, next));
}

/**
 * Pay-as-you-go on the search routes, by `access.search`: `payg` charges every request, `keys+payg`
 * those with a Payment-Claim and no API key (the rule `searchAccess` in plans/middleware.ts uses to
 * let them through), `keys` and `open` none. Mount it after `searchAccess`. A request already paid
 * for at the API app level (search mounted on a pay-as-you-go address) is not charged again.
 */
export function searchPayments(deps: PaymentClaimsDeps): Middleware {
  const mode = deps.config.access.search;
  if (mode !== 'payg' && mode !== 'keys+payg') return (_ctx, next) => next();
  const payg = paymentClaims(deps);
  if (mode === 'payg') return payg;
  return (ctx, next) => (hasPaymentClaim(ctx) && !carriesApiKey(ctx) ? payg(ctx, next) : next());
}
