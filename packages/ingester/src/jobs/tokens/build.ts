import BigNumber from 'bignumber.js';
import { ConfigError } from '@xle/core';
import { decodeCurrency, rippleTimeToIso, type Json } from '@xle/documents';
import type { AsOf, DataSetDocument } from '../data-set.js';
import {
  computeTokenScores,
  DEFAULT_SCORE_CONFIG,
  SCORE_METRICS,
  type ScoreConfig,
  type ScoreMetric,
} from '../token-score.js';
import { normalizeDomain, tokenMetaFromToml, type TomlResult } from '../toml.js';

/** Account flags (https://xrpl.org/docs/references/protocol/ledger-data/ledger-entry-types/accountroot). */
const LSF_DISABLE_MASTER = 0x00100000;
const LSF_GLOBAL_FREEZE = 0x00400000;
/** Addresses nobody holds a key for (the ACCOUNT_ZERO and ACCOUNT_ONE of rippled). */
const BLACKHOLE_KEYS = new Set(['rrrrrrrrrrrrrrrrrrrrrhoLvTp', 'rrrrrrrrrrrrrrrrrrrrBZbvji']);
const HOUR_SECONDS = 3600;
/** The windows of the exchange metrics, in seconds. */
export const WINDOWS = { '24h': 24 * HOUR_SECONDS, '7d': 7 * 24 * HOUR_SECONDS } as const;
type Window = keyof typeof WINDOWS;

/** Per token: its trust lines, from the objects index. */
export interface TrustLineStats {
  trustlines: number;
  holders: number;
  /** Σ of holders' balances, exact (a decimal string): what the issuer owes. */
  supply: string;
}

/** Exchanges of one token in one time window, from the transactions index. */
export interface ExchangeStats {
  exchanges: number;
  takers: number;
  /** XRP paid or received against the token. */
  xrp_volume: number;
  /** Amount of the token exchanged against other tokens (valued at the token's price). */
  token_volume_other: number;
}

export interface IssuerState {
  domain?: string;
  flags: number;
  regularKey?: string;
  hasSignerList: boolean;
  deleted: boolean;
  kyc: boolean;
}

export interface AmmPool {
  account: string;
  assets: [string, string];
  /** Pool balances by token id (`XRP` for XRP), exact decimal strings, when known. */
  balances: Record<string, string>;
}

export interface LastXrpPrice {
  price: string;
  order: number;
}

/**
 * What a token document records of its history (`_history`, stored, not indexed), so the next run
 * reads only the ledgers indexed since: first and last transaction (XRPL epoch seconds) and the
 * newest exchange against XRP.
 */
export interface TokenHistory {
  first: number | null;
  last: number | null;
  xrp_price: string | null;
  xrp_order: number | null;
}

export interface TokenInputs {
  lines: Map<string, TrustLineStats>;
  pools: AmmPool[];
  /** First and last indexed transaction touching the token's trust lines (XRPL epoch seconds). */
  dates: Map<string, { first: number; last: number }>;
  exchanges: Record<Window, Map<string, ExchangeStats>>;
  /** The newest exchange against XRP: XRP per token, and its order (ledger × 65,536 + transaction index). */
  lastXrpPrice: Map<string, LastXrpPrice>;
  issuers: Map<string, IssuerState>;
  /** XLS-26 results by domain. */
  toml: Map<string, TomlResult>;
}

/** Parses `metric=weight,...` over the documented defaults; an unknown metric is a config error. */
export function scoreConfigOf(weights: string | undefined): ScoreConfig {
  const config: ScoreConfig = { ...DEFAULT_SCORE_CONFIG, weights: { ...DEFAULT_SCORE_CONFIG.weights } };
  for (const pair of (weights ?? '').split(',').filter((p) => p !== '')) {
    const [name, value] = pair.split('=');
    const weight = Number(value);
    if (!(SCORE_METRICS as readonly string[]).includes(name ?? '') || !Number.isFinite(weight) || weight < 0)
      throw new ConfigError(
        `TOKEN_SCORE_WEIGHTS: ${pair} is not <metric>=<weight> with a metric of ${SCORE_METRICS.join(', ')}`,
      );
    config.weights[name as ScoreMetric] = weight;
  }
  return config;
}

/** A decimal string of at most 17 significant digits (what a double can hold), never exponent form. */
const decimal = (n: BigNumber): string => (n.isFinite() ? n.precision(17, BigNumber.ROUND_HALF_EVEN).toFixed() : '0');

/** `blackholed`: the master key is disabled and no regular key or signer list can sign. */
export function isBlackholed(issuer: IssuerState | undefined): boolean {
  if (issuer === undefined || issuer.deleted) return false;
  return (
    (issuer.flags & LSF_DISABLE_MASTER) !== 0 &&
    !issuer.hasSignerList &&
    (issuer.regularKey === undefined || BLACKHOLE_KEYS.has(issuer.regularKey))
  );
}

/** Where a token's price comes from: its deepest XRP pool's spot price, or its newest exchange against XRP. */
export type PriceSource = 'amm' | 'last_trade';

/**
 * The token's price in XRP and where it comes from: the spot price of its deepest XRP pool when an
 * AMM holds it (that is the state as of the newest ledger), else its newest exchange against XRP
 * on the DEX or an AMM, else no price (`source` null, price 0: the spec's number).
 */
export function priceOf(
  token: string,
  pools: readonly AmmPool[],
  lastXrpPrice: ReadonlyMap<string, LastXrpPrice>,
): { price: BigNumber; source: PriceSource | null } {
  let best: { xrp: BigNumber; price: BigNumber } | undefined;
  for (const pool of pools) {
    if (!pool.assets.includes(token) || !pool.assets.includes('XRP')) continue;
    const xrp = new BigNumber(pool.balances.XRP ?? NaN);
    const amount = new BigNumber(pool.balances[token] ?? NaN);
    if (!xrp.gt(0) || !amount.gt(0)) continue;
    if (best === undefined || xrp.gt(best.xrp)) best = { xrp, price: xrp.div(amount) };
  }
  if (best !== undefined) return { price: best.price, source: 'amm' };
  const last = lastXrpPrice.get(token);
  return last === undefined
    ? { price: new BigNumber(0), source: null }
    : { price: new BigNumber(last.price), source: 'last_trade' };
}

/**
 * The tokens data set (pure): one document per issued currency and issuer that has a trust line
 * or an AMM pool, `_id` = `<currency_hex>.<issuer>`. Volumes are in XRP: what was paid against
 * XRP, plus exchanges against other tokens valued at the token's price.
 */
export function buildTokenDocs(
  inputs: TokenInputs,
  asOf: AsOf,
  config: ScoreConfig = DEFAULT_SCORE_CONFIG,
): DataSetDocument[] {
  const ids = new Set<string>(inputs.lines.keys());
  const ammCount = new Map<string, number>();
  for (const pool of inputs.pools)
    for (const asset of new Set(pool.assets)) {
      if (asset === 'XRP') continue;
      ids.add(asset);
      ammCount.set(asset, (ammCount.get(asset) ?? 0) + 1);
    }
  const sorted = [...ids].sort();
  const rows = sorted.map((id) => {
    const [currency = '', issuer = ''] = id.split('.');
    const lines = inputs.lines.get(id) ?? { trustlines: 0, holders: 0, supply: '0' };
    const supply = new BigNumber(lines.supply);
    const { price, source } = priceOf(id, inputs.pools, inputs.lastXrpPrice);
    const marketcap = supply.times(price);
    const volumes = Object.fromEntries(
      (Object.keys(WINDOWS) as Window[]).map((w) => {
        const stats = inputs.exchanges[w].get(id);
        const volume = new BigNumber(stats?.xrp_volume ?? 0).plus(
          new BigNumber(stats?.token_volume_other ?? 0).times(price),
        );
        return [w, { exchanges: stats?.exchanges ?? 0, takers: stats?.takers ?? 0, volume }];
      }),
    ) as Record<Window, { exchanges: number; takers: number; volume: BigNumber }>;
    return { id, currency, issuer, lines, supply, price, source, marketcap, volumes, amms: ammCount.get(id) ?? 0 };
  });
  const scores = computeTokenScores(
    rows.map((r) => ({
      amms: r.amms,
      trustlines: r.lines.trustlines,
      holdingWallets: r.lines.holders,
      totalSupply: r.supply.toNumber(),
      price: r.price.toNumber(),
      marketCap: r.marketcap.toNumber(),
    })),
    config,
  );
  return rows.map((r, i) => {
    const code = decodeCurrency(r.currency);
    const issuer = inputs.issuers.get(r.issuer);
    const dates = inputs.dates.get(r.id);
    const normalized = issuer?.domain === undefined ? undefined : normalizeDomain(issuer.domain);
    const domain = normalized !== undefined && 'domain' in normalized ? normalized.domain : undefined;
    const toml = domain === undefined ? undefined : inputs.toml.get(domain);
    const meta = tokenMetaFromToml(
      toml?.outcome === 'ok' ? toml.data : undefined,
      { code, currency: r.currency, issuer: r.issuer },
      issuer?.kyc === true,
    );
    const doc: Json = {
      id: r.id,
      token: `${code}.${r.issuer}`,
      code,
      currency: r.currency,
      issuer: r.issuer,
      amms: r.amms,
      holders: r.lines.holders,
      trustlines: r.lines.trustlines,
      createdAt: dates === undefined ? null : rippleTimeToIso(dates.first),
      updatedAt: dates === undefined ? null : rippleTimeToIso(dates.last),
      blackholed: isBlackholed(issuer),
      disabled: issuer !== undefined && (issuer.deleted || (issuer.flags & LSF_GLOBAL_FREEZE) !== 0),
      marketcap: r.marketcap.toNumber(),
      price: r.price.toNumber(),
      price_source: r.source,
      // Sort keys only where a price is known, so that a token without one sorts last either way.
      ...(r.source === null ? {} : { _price: r.price.toNumber(), _marketcap: r.marketcap.toNumber() }),
      supply: r.supply.toNumber(),
      score: Number((scores[i] ?? 0).toFixed(12)),
      meta,
      metrics: {
        trustlines: r.lines.trustlines,
        holders: r.lines.holders,
        exchanges_24h: r.volumes['24h'].exchanges,
        exchanges_7d: r.volumes['7d'].exchanges,
        takers_24h: r.volumes['24h'].takers,
        takers_7d: r.volumes['7d'].takers,
        supply: r.supply.toFixed(), // exact: the holders' shares are of this figure
        marketcap: decimal(r.marketcap),
        price: decimal(r.price),
        volume_24h: decimal(r.volumes['24h'].volume),
        volume_7d: decimal(r.volumes['7d'].volume),
      },
      _toml: {
        domain: domain ?? null,
        outcome:
          toml?.outcome ??
          (issuer?.domain === undefined
            ? 'no_domain'
            : normalized !== undefined && 'reason' in normalized
              ? 'invalid_domain'
              : 'not_fetched'),
        reason: toml?.reason ?? (normalized !== undefined && 'reason' in normalized ? normalized.reason : null),
        fetched_at: toml?.fetched_at ?? null,
        source: toml?.source ?? null,
        data_fetched_at: toml?.data === undefined ? null : (toml.data_fetched_at ?? toml.fetched_at),
      },
      ledger_index: asOf.ledger_index,
      _history: {
        first: dates?.first ?? null,
        last: dates?.last ?? null,
        xrp_price: inputs.lastXrpPrice.get(r.id)?.price ?? null,
        xrp_order: inputs.lastXrpPrice.get(r.id)?.order ?? null,
      } satisfies TokenHistory,
    };
    if (toml?.data !== undefined) doc.tomldata = toml.data;
    return { _id: r.id, doc };
  });
}
