import type { Context, Middleware } from 'koa';
import { AppError, ErrorCode, namingOf, readEngineFor, TtlCache, type AppDeps } from '@xle/core';
import { hasPaymentClaim } from '../payg/claim-header.js';
import { carriesApiKey, readCredential, type Credential } from './api-keys.js';
import { BurstLimiter } from './burst-limiter.js';
import { clientAddress } from './client-address.js';
import { ApiKeyStore, type ApiKeyRecord } from '../engine/api-key-store.js';
import { planLimitsOf, secondsUntilUtcMidnight, utcDay, type Plan } from './plans.js';
import { UsageStore } from '../engine/usage-store.js';
import { QuotaLeases } from './quota-leases.js';
import { UsageCounter, type CounterKey } from './usage-counter.js';

/** The app's configuration, engine client (handed to the stores) and logger, and the clock. */
export interface PlanLimitsDeps extends AppDeps {
  /** Injectable clock (ms since the epoch) for the burst window and the UTC day. */
  now?: () => number;
  /** How long a key's record is used as read; after that it is read again (default access.keyCacheSeconds). */
  keyCacheMs?: number;
}

/** A cached key record is never used older than this, even while it cannot be read again. */
export const KEY_MAX_AGE_MS = 60_000;

/** Who a request is counted for, left in `ctx.state.access` for later middleware. */
export interface AccessState {
  plan: Plan;
  /** Client address (free) or key id (subscription plans). */
  client: string;
  keyId?: string;
}

export interface PlanLimitsOptions {
  /** Refuse requests without a subscription key (the search API has no free plan). */
  requireKey?: boolean;
}

/** Answered without counting against the daily quota (bursts still apply). */
export const UNMETERED_PATHS: ReadonlySet<string> = new Set(['/api/v1/ping', '/api/v1/openapi.json', '/api/v1/docs']);

/** Requests no plan counts: health, the OpenAPI document and the reference (its script included). */
export const isUnmetered = (path: string): boolean => UNMETERED_PATHS.has(path) || path.startsWith('/api/v1/docs/');

/** The search routes: mounted in the API app they keep their own door (`searchAccess`), without a free plan. */
export const SEARCH_PATHS = /^\/api\/v1\/(search|sql)(\/|$)/i;

export const RATE_LIMIT_HEADERS = [
  'RateLimit-Policy',
  'RateLimit',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
] as const;

/** One window of a plan as the IETF RateLimit fields name it: the per-second burst, the UTC day. */
interface WindowState {
  name: 'second' | 'day';
  quota: number;
  /** The window's length in seconds. */
  window: number;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
}

/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers: Structured Field lists
 * of named policies): `RateLimit-Policy: "second";q=10;w=1, "day";q=10000;w=86400` and
 * `RateLimit: "second";r=9;t=1, "day";r=9965;t=43200` (pure).
 */
export function rateLimitFields(windows: readonly WindowState[]): { policy: string; limit: string } {
  return {
    policy: windows.map((w) => `"${w.name}";q=${w.quota};w=${w.window}`).join(', '),
    limit: windows.map((w) => `"${w.name}";r=${Math.max(0, w.remaining)};t=${w.reset}`).join(', '),
  };
}

/** Cached keys and remembered counts: the oldest are dropped past this many (they are only a hint). */
const MAX_REMEMBERED = 50_000;

function unauthorized(code: string, message: string, details?: Record<string, unknown>): AppError {
  return new AppError(401, code, message, details === undefined ? {} : { details });
}

/**
 * The plans of the Limits table as one Koa middleware: identify the plan (an API key in
 * `X-API-Key` or `Authorization: Bearer`, else the free plan by client address), take one request
 * from the per-second burst (memory of this process), then count it against the daily quota
 * (shared, in the engine). Every counted answer carries X-RateLimit-Limit / -Remaining / -Reset,
 * Reset being the seconds until 00:00 UTC; a refusal is a 429 with Retry-After and the shared
 * error body. A key that is malformed, unknown or revoked is a 401, never the free plan.
 */
export function planLimits(deps: PlanLimitsDeps, options: PlanLimitsOptions = {}): Middleware {
  const { config, client } = deps;
  const now = deps.now ?? Date.now;
  const keyCacheMs = deps.keyCacheMs ?? config.access.keyCacheSeconds * 1000;
  const limits = planLimitsOf(config.access);
  const keys = new ApiKeyStore(client, namingOf(config));
  const quota = new QuotaLeases(new UsageCounter(new UsageStore(readEngineFor(deps), namingOf(config)), now), {
    block: config.access.quotaBlock,
    now,
    logger: deps.logger,
  });
  deps.closing?.add(() => quota.close());
  const burst = new BurstLimiter();
  // A record older than KEY_MAX_AGE_MS is gone from the cache: it is read in line again.
  const keyCache = new TtlCache<string, { record: ApiKeyRecord; readAt: number; refresh?: Promise<unknown> }>({
    ttlMs: KEY_MAX_AGE_MS,
    maxEntries: MAX_REMEMBERED,
    now,
  });
  const remembered = new TtlCache<string, number>({ ttlMs: Infinity, maxEntries: MAX_REMEMBERED });
  const keylessSearchElsewhere = options.requireKey !== true && config.search.mount && config.access.search !== 'open';

  /** Reads the key's record and caches it (or forgets it when unknown or revoked). */
  async function readKey(key: string): Promise<ApiKeyRecord | undefined> {
    const record = await keys.find(key);
    if (record === undefined || record.revoked || keyCacheMs <= 0) keyCache.delete(key);
    else keyCache.set(key, { record, readAt: now() });
    return record?.revoked === true ? undefined : record;
  }

  /**
   * A key's record: as cached while younger than `keyCacheMs`; then still the cached one while
   * it is read again in the background (so a revocation is seen within `keyCacheMs` plus one
   * read); read in line when nothing is cached or the record is older than KEY_MAX_AGE_MS.
   */
  async function findKey(key: string): Promise<ApiKeyRecord | undefined> {
    const cached = keyCache.get(key);
    if (cached === undefined) return readKey(key);
    if (now() - cached.readAt >= keyCacheMs)
      cached.refresh ??= readKey(key).catch((error: unknown) => {
        cached.refresh = undefined;
        deps.logger.warn({ err: error }, 'could not read an API key again; using the cached record');
      });
    return cached.record;
  }

  async function identify(ctx: Context, credential: Credential): Promise<AccessState> {
    if (credential.kind === 'malformed')
      throw unauthorized(ErrorCode.InvalidApiKey, 'The API key is not valid.', { reason: credential.reason });
    if (credential.kind === 'key') {
      const record = await findKey(credential.key);
      if (record === undefined) throw unauthorized(ErrorCode.InvalidApiKey, 'The API key is unknown or revoked.');
      return { plan: record.plan, client: record.key_id, keyId: record.key_id };
    }
    if (options.requireKey === true)
      throw unauthorized(ErrorCode.ApiKeyRequired, 'This address needs an API key of a subscription plan.');
    const address = clientAddress(
      ctx.request.socket.remoteAddress ?? '',
      ctx.get('X-Forwarded-For'),
      config.access.proxyHops,
    );
    return { plan: 'free', client: address };
  }

  /**
   * The RateLimit fields for every window that applies, and X-RateLimit-* for `legacy`: the day's
   * quota on a counted answer, the burst on a refusal of it.
   */
  function setHeaders(ctx: Context, windows: readonly WindowState[], legacy: WindowState | undefined): void {
    const { policy, limit } = rateLimitFields(windows);
    ctx.set('RateLimit-Policy', policy);
    ctx.set('RateLimit', limit);
    if (legacy === undefined) return;
    ctx.set('X-RateLimit-Limit', String(legacy.quota));
    ctx.set('X-RateLimit-Remaining', String(Math.max(0, legacy.remaining)));
    ctx.set('X-RateLimit-Reset', String(legacy.reset));
  }

  return async (ctx, next) => {
    const credential = readCredential({ apiKey: ctx.get('X-API-Key'), authorization: ctx.get('Authorization') });
    // A keyless search request is neither free nor counted here: searchAccess answers it (401, or
    // pay-as-you-go), so it does not use up the address's free quota for nothing.
    if (credential.kind === 'none' && keylessSearchElsewhere && SEARCH_PATHS.test(ctx.path)) return next();
    const exposed = ctx.response.get('Access-Control-Expose-Headers');
    ctx.set('Access-Control-Expose-Headers', [exposed, ...RATE_LIMIT_HEADERS].filter(Boolean).join(', '));
    let access: AccessState;
    try {
      access = await identify(ctx, credential);
    } catch (error) {
      if (error instanceof AppError && error.status === 401) ctx.set('WWW-Authenticate', 'Bearer realm="api"');
      throw error;
    }
    ctx.state.access = access;
    const limit = limits[access.plan];
    const at = now();
    const key: CounterKey = { plan: access.plan, client: access.client, day: utcDay(at) };
    const id = `${key.plan}.${key.client}`;
    const reset = secondsUntilUtcMidnight(at);
    const metered = !isUnmetered(ctx.path);

    const taken = burst.take(id, limit.perSecond, at);
    const second: WindowState = {
      name: 'second',
      quota: limit.perSecond,
      window: 1,
      remaining: taken.remaining,
      reset: 1,
    };
    const dayOf = (count: number): WindowState => ({
      name: 'day',
      quota: limit.perDay,
      window: 86_400,
      remaining: limit.perDay - count,
      reset,
    });
    if (!taken.allowed) {
      deps.metrics?.quotaRefusals.inc({ plan: access.plan, window: 'second' });
      const day = metered ? [dayOf(remembered.get(`${id}.${key.day}`) ?? 0)] : [];
      setHeaders(ctx, [second, ...day], second);
      throw new AppError(
        429,
        ErrorCode.RateLimited,
        `The ${access.plan} plan allows ${limit.perSecond} requests per second; the window resets in 1 s.`,
        {
          retryAfter: 1,
          details: { plan: access.plan, limit: limit.perSecond, window: 'second', reset: 1 },
        },
      );
    }
    if (!metered) {
      setHeaders(ctx, [second], undefined);
      return next();
    }

    const { allowed, count } = await quota.consume(key, limit.perDay);
    remembered.set(`${id}.${key.day}`, count);
    const day = dayOf(count);
    setHeaders(ctx, [second, day], day);
    if (!allowed) {
      deps.metrics?.quotaRefusals.inc({ plan: access.plan, window: 'day' });
      throw new AppError(
        429,
        ErrorCode.QuotaExceeded,
        `The ${access.plan} plan allows ${limit.perDay} requests per UTC day; the day resets in ${reset} s (00:00 UTC).`,
        {
          retryAfter: reset,
          details: { plan: access.plan, limit: limit.perDay, window: 'day', reset },
        },
      );
    }
    return next();
  };
}

/**
 * The search API's door, per `access.search`: `keys` admits subscription keys only, `keys+payg`
 * also lets through requests that carry a Payment-Claim and no key (the pay-as-you-go middleware,
 * mounted after this one, must then check the claim), `payg` and `open` add nothing here. When the
 * plans middleware already counted the request (search mounted in the API app), it is not counted
 * again; only the plan is checked.
 */
export function searchAccess(deps: PlanLimitsDeps): Middleware {
  const mode = deps.config.access.search;
  if (mode === 'open' || mode === 'payg') return (_ctx, next) => next();
  const limiter = planLimits(deps, { requireKey: true });
  return async (ctx, next) => {
    if (mode === 'keys+payg' && !carriesApiKey(ctx) && hasPaymentClaim(ctx)) return next();
    const upstream = ctx.state.access as AccessState | undefined;
    if (upstream === undefined) return limiter(ctx, next);
    if (upstream.plan === 'free') {
      ctx.set('WWW-Authenticate', 'Bearer realm="api"');
      throw unauthorized(ErrorCode.ApiKeyRequired, 'The search API needs an API key of a subscription plan.');
    }
    return next();
  };
}
