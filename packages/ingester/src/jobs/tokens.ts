import type { estypes } from '@elastic/elasticsearch';
import BigNumber from 'bignumber.js';
import { hashes } from 'xrpl';
import { type Client, type IndexNaming, type Logger, ConfigError, indexName } from '@xle/core';
import { decodeCurrency, rippleTimeToIso, trustLineSides, tokenId, isRecord, type Json } from '@xle/documents';
import {
  compositeBuckets,
  scanHits,
  type AsOf,
  type CompositePage,
  type CompositePageRequest,
  type DataSetDocument,
} from './data-set.js';
import {
  computeTokenScores,
  DEFAULT_SCORE_CONFIG,
  SCORE_METRICS,
  type ScoreConfig,
  type ScoreMetric,
} from './token-score.js';
import { normalizeDomain, tokenMetaFromToml, type TomlResult, type TomlSource } from './toml.js';

/** Account flags (https://xrpl.org/docs/references/protocol/ledger-data/ledger-entry-types/accountroot). */
const LSF_DISABLE_MASTER = 0x00100000;
const LSF_GLOBAL_FREEZE = 0x00400000;
/** Addresses nobody holds a key for (the ACCOUNT_ZERO and ACCOUNT_ONE of rippled). */
const BLACKHOLE_KEYS = new Set(['rrrrrrrrrrrrrrrrrrrrrhoLvTp', 'rrrrrrrrrrrrrrrrrrrrBZbvji']);
const HOUR_SECONDS = 3600;
const WINDOWS = { '24h': 24 * HOUR_SECONDS, '7d': 7 * 24 * HOUR_SECONDS } as const;
type Window = keyof typeof WINDOWS;
const PAGE = 1000;
const FETCH_CONCURRENCY = 8;

/** Per token: its trust lines, from the objects index. */
export interface TrustLineStats {
  trustlines: number;
  holders: number;
  /** Σ of holders' balances: what the issuer owes. */
  supply: number;
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

export interface TokenInputs {
  lines: Map<string, TrustLineStats>;
  pools: AmmPool[];
  /** First and last indexed transaction touching the token's trust lines (XRPL epoch seconds). */
  dates: Map<string, { first: number; last: number }>;
  exchanges: Record<Window, Map<string, ExchangeStats>>;
  /** The newest exchange against XRP: XRP per token. */
  lastXrpPrice: Map<string, string>;
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

/**
 * The token's price in XRP: the spot price of its deepest XRP pool when an AMM holds it (that is
 * the state as of the newest ledger), else its newest exchange against XRP on the DEX or an
 * AMM, else 0 (unknown).
 */
export function priceOf(
  token: string,
  pools: readonly AmmPool[],
  lastXrpPrice: ReadonlyMap<string, string>,
): BigNumber {
  let best: { xrp: BigNumber; price: BigNumber } | undefined;
  for (const pool of pools) {
    if (!pool.assets.includes(token) || !pool.assets.includes('XRP')) continue;
    const xrp = new BigNumber(pool.balances.XRP ?? NaN);
    const amount = new BigNumber(pool.balances[token] ?? NaN);
    if (!xrp.gt(0) || !amount.gt(0)) continue;
    if (best === undefined || xrp.gt(best.xrp)) best = { xrp, price: xrp.div(amount) };
  }
  if (best !== undefined) return best.price;
  const last = lastXrpPrice.get(token);
  return last === undefined ? new BigNumber(0) : new BigNumber(last);
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
    const lines = inputs.lines.get(id) ?? { trustlines: 0, holders: 0, supply: 0 };
    const supply = new BigNumber(lines.supply);
    const price = priceOf(id, inputs.pools, inputs.lastXrpPrice);
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
    return { id, currency, issuer, lines, supply, price, marketcap, volumes, amms: ammCount.get(id) ?? 0 };
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
        supply: decimal(r.supply),
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
      },
      ledger_index: asOf.ledger_index,
    };
    if (toml?.outcome === 'ok' && toml.data !== undefined) doc.tomldata = toml.data;
    return { _id: r.id, doc };
  });
}

// ---------------------------------------------------------------- reading the inputs

const keyOf = (bucket: Record<string, unknown>): string => String((bucket.key as { token: unknown }).token);
const num = (agg: unknown, field = 'value'): number =>
  Number((agg as Record<string, unknown> | undefined)?.[field] ?? 0);

/** trustlines, holders and supply per token, by a composite aggregation over live trust lines. */
export async function readTrustLineStats(client: Client, naming: IndexNaming): Promise<Map<string, TrustLineStats>> {
  const out = new Map<string, TrustLineStats>();
  const request: estypes.SearchRequest = {
    index: indexName(naming, 'objects'),
    query: { bool: { filter: [{ term: { LedgerEntryType: 'RippleState' } }, { term: { deleted: false } }] } },
  };
  const buckets = compositeBuckets(
    client,
    request,
    (page) => ({
      tokens: {
        composite: { ...page, sources: [{ token: { terms: { field: '_token' } } }] },
        aggs: { holders: { filter: { range: { _holding: { gt: 0 } } } }, supply: { sum: { field: '_holding' } } },
      },
    }),
    (aggs) => aggs.tokens as CompositePage,
  );
  for await (const b of buckets)
    out.set(keyOf(b), { trustlines: Number(b.doc_count), holders: num(b.holders, 'doc_count'), supply: num(b.supply) });
  return out;
}

/** First and last indexed transaction that touched each token's trust lines. */
export async function readTokenDates(
  client: Client,
  naming: IndexNaming,
): Promise<Map<string, { first: number; last: number }>> {
  const out = new Map<string, { first: number; last: number }>();
  const buckets = compositeBuckets(
    client,
    { index: indexName(naming, 'transactions'), query: { exists: { field: '_tokens' } } },
    (page) => ({
      tokens: {
        composite: { ...page, sources: [{ token: { terms: { field: '_tokens' } } }] },
        aggs: { first: { min: { field: 'date' } }, last: { max: { field: 'date' } } },
      },
    }),
    (aggs) => aggs.tokens as CompositePage,
  );
  for await (const b of buckets) out.set(keyOf(b), { first: num(b.first), last: num(b.last) });
  return out;
}

/**
 * A composite aggregation over the token of each nested `_exchanges` document (optionally only
 * those matching `filter`), with `aggs` per token; `tokensOfExchanges` finds its buckets.
 */
function exchangeTokens(
  page: CompositePageRequest,
  aggs: Record<string, estypes.AggregationsAggregationContainer>,
  filter?: estypes.QueryDslQueryContainer,
): Record<string, estypes.AggregationsAggregationContainer> {
  const tokens: estypes.AggregationsAggregationContainer = {
    composite: { ...page, sources: [{ token: { terms: { field: '_exchanges.token' } } }] },
    aggs,
  };
  return {
    exchanges: {
      nested: { path: '_exchanges' },
      aggs: filter === undefined ? { tokens } : { matching: { filter, aggs: { tokens } } },
    },
  };
}

function tokensOfExchanges(aggs: Record<string, unknown>): CompositePage {
  const nested = aggs.exchanges as Record<string, unknown>;
  return (nested.tokens ?? (nested.matching as Record<string, unknown>).tokens) as CompositePage;
}

/** Exchanges, takers and volumes per token over the window ending at the newest ledger. */
export async function readExchangeStats(
  client: Client,
  naming: IndexNaming,
  asOf: AsOf,
  seconds: number,
): Promise<Map<string, ExchangeStats>> {
  const out = new Map<string, ExchangeStats>();
  const end = Date.parse(asOf.close_time);
  const buckets = compositeBuckets(
    client,
    {
      index: indexName(naming, 'transactions'),
      query: {
        bool: {
          filter: [
            { range: { _date: { gt: new Date(end - seconds * 1000).toISOString(), lte: asOf.close_time } } },
            { nested: { path: '_exchanges', query: { match_all: {} } } },
          ],
        },
      },
    },
    (page) =>
      exchangeTokens(page, {
        takers: { cardinality: { field: '_exchanges.taker', precision_threshold: 40000 } },
        xrp: {
          filter: { term: { '_exchanges.counter': 'XRP' } },
          aggs: { sum: { sum: { field: '_exchanges._counter_value' } } },
        },
        other: {
          filter: { bool: { must_not: { term: { '_exchanges.counter': 'XRP' } } } },
          aggs: { sum: { sum: { field: '_exchanges._value' } } },
        },
      }),
    tokensOfExchanges,
  );
  for await (const b of buckets) {
    const token = keyOf(b);
    if (token === 'XRP') continue;
    out.set(token, {
      exchanges: Number(b.doc_count),
      takers: num(b.takers),
      xrp_volume: num((b.xrp as Record<string, unknown>).sum),
      token_volume_other: num((b.other as Record<string, unknown>).sum),
    });
  }
  return out;
}

/** Each token's newest exchange against XRP, as XRP per token (exact, from the stored strings). */
export async function readLastXrpPrices(client: Client, naming: IndexNaming): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const against = { term: { '_exchanges.counter': 'XRP' } };
  const buckets = compositeBuckets(
    client,
    { index: indexName(naming, 'transactions'), query: { nested: { path: '_exchanges', query: against } } },
    (page) =>
      exchangeTokens(
        page,
        {
          newest: {
            top_hits: {
              size: 1,
              sort: [
                { '_exchanges.order': { order: 'desc' } },
                { '_exchanges._value': { order: 'desc' } },
              ] as estypes.Sort,
              _source: ['_exchanges.value', '_exchanges.counter_value'],
            },
          },
        },
        against,
      ),
    tokensOfExchanges,
  );
  for await (const b of buckets) {
    const hit = ((b.newest as estypes.AggregationsTopHitsAggregate).hits.hits[0]?._source ?? {}) as {
      value?: string;
      counter_value?: string;
    };
    const amount = new BigNumber(hit.value ?? NaN);
    const xrp = new BigNumber(hit.counter_value ?? NaN);
    if (amount.gt(0) && xrp.gt(0)) out.set(keyOf(b), xrp.div(amount).toFixed());
  }
  return out;
}

const assetToken = (asset: unknown): string | undefined => {
  if (!isRecord(asset) || typeof asset.currency !== 'string') return undefined;
  if (asset.native === true || asset.currency === 'XRP') return 'XRP';
  return typeof asset.issuer === 'string' ? tokenId(asset.currency, asset.issuer) : undefined;
};

/** Live AMM pools with their balances (XRP from the pool account, tokens from its trust lines). */
export async function readAmmPools(client: Client, naming: IndexNaming): Promise<AmmPool[]> {
  const pools: AmmPool[] = [];
  const request: estypes.SearchRequest = {
    index: indexName(naming, 'objects'),
    query: { bool: { filter: [{ term: { LedgerEntryType: 'AMM' } }, { term: { deleted: false } }] } },
    sort: [{ index: 'asc' }],
    _source: ['Account', 'Asset', 'Asset2'],
  };
  for await (const hit of scanHits<Json>(client, request)) {
    const source = hit._source ?? {};
    const a = assetToken(source.Asset);
    const b = assetToken(source.Asset2);
    if (typeof source.Account !== 'string' || a === undefined || b === undefined) continue;
    pools.push({ account: source.Account, assets: [a, b], balances: {} });
  }
  const byAccount = new Map(pools.map((p) => [p.account, p]));
  const accounts = [...byAccount.keys()];
  for (let at = 0; at < accounts.length; at += PAGE) {
    const chunk = accounts.slice(at, at + PAGE);
    const roots = await client.mget<{ Balance?: { value?: string }; deleted?: boolean }>({
      index: indexName(naming, 'accounts'),
      ids: chunk,
      _source: ['Balance.value', 'deleted'],
    });
    for (const doc of roots.docs)
      if ('found' in doc && doc.found && doc._source?.Balance?.value !== undefined && doc._source.deleted !== true)
        byAccount.get(doc._id)!.balances.XRP = doc._source.Balance.value;
    const lines = {
      index: indexName(naming, 'objects'),
      query: {
        bool: {
          filter: [
            { term: { LedgerEntryType: 'RippleState' } },
            { term: { deleted: false } },
            { terms: { _holder: chunk } },
          ],
        },
      },
      sort: [{ index: 'asc' }],
      _source: ['Balance', 'HighLimit', 'LowLimit'],
    } satisfies estypes.SearchRequest;
    for await (const hit of scanHits<Json>(client, lines))
      for (const side of trustLineSides(hit._source ?? {})) {
        const pool = byAccount.get(side.holder);
        if (pool?.assets.includes(side.token)) pool.balances[side.token] = side.holding;
      }
  }
  return pools;
}

/** The issuers' account state, signer lists and KYC status. */
export async function readIssuers(
  client: Client,
  naming: IndexNaming,
  issuers: readonly string[],
): Promise<Map<string, IssuerState>> {
  const out = new Map<string, IssuerState>();
  for (let at = 0; at < issuers.length; at += PAGE) {
    const chunk = issuers.slice(at, at + PAGE);
    const signerListOwner = new Map(chunk.map((account) => [hashes.hashSignerListId(account), account]));
    const [roots, kyc, signers] = await Promise.all([
      client.mget<Json>({
        index: indexName(naming, 'accounts'),
        ids: chunk,
        _source: ['_Domain', 'Flags', 'RegularKey', 'deleted'],
      }),
      client.mget<{ kycApproved?: boolean }>({ index: indexName(naming, 'kyc'), ids: chunk, _source: ['kycApproved'] }),
      // A SignerList names no owner: it is found by its id, derived from the owner's address.
      client.mget<{ deleted?: boolean }>({
        index: indexName(naming, 'objects'),
        ids: [...signerListOwner.keys()],
        _source: ['deleted'],
      }),
    ]);
    const withSigners = new Set(
      signers.docs.flatMap((d) =>
        'found' in d && d.found && d._source?.deleted !== true ? [signerListOwner.get(d._id) as string] : [],
      ),
    );
    const approved = new Set(
      kyc.docs.flatMap((d) => ('found' in d && d.found && d._source?.kycApproved === true ? [d._id] : [])),
    );
    for (const doc of roots.docs) {
      if (!('found' in doc) || !doc.found || doc._source === undefined) continue;
      const source = doc._source;
      const state: IssuerState = {
        flags: typeof source.Flags === 'number' ? source.Flags : 0,
        hasSignerList: withSigners.has(doc._id),
        deleted: source.deleted === true,
        kyc: approved.has(doc._id),
      };
      if (typeof source._Domain === 'string') state.domain = source._Domain;
      if (typeof source.RegularKey === 'string') state.regularKey = source.RegularKey;
      out.set(doc._id, state);
    }
  }
  return out;
}

/** Previous toml results, kept in the tokens index, by domain (the fetch cache). */
export async function readTomlCache(client: Client, naming: IndexNaming): Promise<Map<string, TomlResult>> {
  const out = new Map<string, TomlResult>();
  const index = indexName(naming, 'tokens');
  const request: estypes.SearchRequest = {
    index,
    // No tokens index yet (a first run on indices made without it): no cache, not an error.
    ignore_unavailable: true,
    query: { exists: { field: '_toml.fetched_at' } },
    sort: [{ id: 'asc' }],
    _source: ['_toml', 'tomldata'],
  };
  for await (const hit of scanHits<{ _toml: Json; tomldata?: Json }>(client, request)) {
    const toml = hit._source?._toml;
    if (toml === undefined || typeof toml.domain !== 'string' || typeof toml.fetched_at !== 'string') continue;
    const result: TomlResult = {
      domain: toml.domain,
      outcome: toml.outcome as TomlResult['outcome'],
      fetched_at: toml.fetched_at,
    };
    if (typeof toml.reason === 'string') result.reason = toml.reason;
    if (hit._source?.tomldata !== undefined) result.data = hit._source.tomldata;
    out.set(toml.domain, result);
  }
  return out;
}

export interface TomlRefreshOptions {
  source: TomlSource;
  /** A domain's result older than this is fetched again. */
  maxAgeMs: number;
  /** Domains to fetch now whatever their age (`all`: every domain). */
  refresh?: 'all' | ReadonlySet<string>;
  now?: () => Date;
  logger?: Logger;
}

/**
 * Results for every domain: cached ones while fresh, the others fetched (a few at a time). A
 * failed fetch is a result like any other, with its outcome and reason, and is retried when it
 * is older than `maxAgeMs`.
 */
export async function refreshToml(
  domains: readonly string[],
  cache: ReadonlyMap<string, TomlResult>,
  options: TomlRefreshOptions,
): Promise<Map<string, TomlResult>> {
  const now = (options.now ?? (() => new Date()))().getTime();
  const out = new Map<string, TomlResult>();
  const due: string[] = [];
  for (const domain of domains) {
    const cached = cache.get(domain);
    const forced = options.refresh === 'all' || options.refresh?.has(domain) === true;
    if (cached !== undefined && !forced && now - Date.parse(cached.fetched_at) <= options.maxAgeMs)
      out.set(domain, cached);
    else due.push(domain);
  }
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < due.length) {
      const domain = due[next++] as string;
      const result = await options.source.fetch(domain);
      if (result.outcome !== 'ok')
        options.logger?.warn({ domain, outcome: result.outcome, reason: result.reason }, 'xrp-ledger.toml not used');
      out.set(domain, result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(FETCH_CONCURRENCY, due.length) }, worker));
  return out;
}

/** Everything the tokens data set is built from. */
export async function readTokenInputs(
  client: Client,
  naming: IndexNaming,
  asOf: AsOf,
  toml: Omit<TomlRefreshOptions, 'logger'> & { logger?: Logger },
): Promise<TokenInputs> {
  const [lines, pools, dates, day, week, lastXrpPrice] = await Promise.all([
    readTrustLineStats(client, naming),
    readAmmPools(client, naming),
    readTokenDates(client, naming),
    readExchangeStats(client, naming, asOf, WINDOWS['24h']),
    readExchangeStats(client, naming, asOf, WINDOWS['7d']),
    readLastXrpPrices(client, naming),
  ]);
  const issuerIds = new Set<string>([...lines.keys()].map((id) => id.split('.')[1] as string));
  for (const pool of pools)
    for (const asset of pool.assets) if (asset !== 'XRP') issuerIds.add(asset.split('.')[1] as string);
  const issuers = await readIssuers(client, naming, [...issuerIds].sort());
  const domains = new Set<string>();
  for (const issuer of issuers.values()) {
    const normalized = issuer.domain === undefined ? undefined : normalizeDomain(issuer.domain);
    if (normalized !== undefined && 'domain' in normalized) domains.add(normalized.domain);
  }
  const cache = await readTomlCache(client, naming);
  const results = await refreshToml([...domains].sort(), cache, toml);
  return { lines, pools, dates, exchanges: { '24h': day, '7d': week }, lastXrpPrice, issuers, toml: results };
}
