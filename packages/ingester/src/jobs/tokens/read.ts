import type { estypes } from '@elastic/elasticsearch';
import BigNumber from 'bignumber.js';
import { hashes } from 'xrpl';
import type { CompositePage, CompositePageRequest, Logger } from '@xle/core';
import { HOLDING_SUM_AGGS, holdingSumOf, isRecord, tokenId, trustLineSides, type Json } from '@xle/documents';
import type { IngestEngine, ReadTarget } from '../../engine/ingest-engine.js';
import { inLedgerRanges, type AsOf } from '../data-set.js';
import type { LedgerRange } from '../../pipeline/checkpoint.js';
import { normalizeDomain, refreshToml, type TomlRefreshOptions, type TomlResult } from '../toml.js';
import {
  WINDOWS,
  type AmmPool,
  type ExchangeStats,
  type IssuerState,
  type LastXrpPrice,
  type TokenHistory,
  type TokenInputs,
  type TrustLineStats,
} from './build.js';

/** Accounts looked up at once. */
const PAGE = 1000;

const keyOf = (bucket: Record<string, unknown>): string => String((bucket.key as { token: unknown }).token);
const num = (agg: unknown, field = 'value'): number =>
  Number((agg as Record<string, unknown> | undefined)?.[field] ?? 0);

/** Tokens whose trust lines are counted in one aggregation of `readTrustLineStats`. */
const TOKENS_AT_ONCE = 1000;

/**
 * trustlines, holders and supply per token, by a composite aggregation over live trust lines: of
 * every token, or only of `tokens` (their lines alone are read, through the `_token` terms).
 */
export async function readTrustLineStats(
  engine: IngestEngine,
  tokens?: readonly string[],
  logger?: Logger,
): Promise<Map<string, TrustLineStats>> {
  const out = new Map<string, TrustLineStats>();
  let inexact = 0;
  const lines = [{ term: { LedgerEntryType: 'RippleState' } }, { term: { deleted: false } }];
  const chunks: (readonly string[] | undefined)[] = [];
  if (tokens === undefined) chunks.push(undefined);
  else for (let at = 0; at < tokens.length; at += TOKENS_AT_ONCE) chunks.push(tokens.slice(at, at + TOKENS_AT_ONCE));
  for (const chunk of chunks) {
    const wanted = chunk === undefined ? undefined : new Set(chunk);
    const request: estypes.SearchRequest = {
      query: { bool: { filter: chunk === undefined ? lines : [...lines, { terms: { _token: [...chunk] } }] } },
    };
    const buckets = engine.composite(
      'objects',
      request,
      (page) => ({
        tokens: {
          composite: { ...page, sources: [{ token: { terms: { field: '_token' } } }] },
          aggs: {
            holders: { filter: { range: { _holding: { gt: 0 } } } },
            ...HOLDING_SUM_AGGS,
            // Lines written before the exact parts were (an engine kept from an older release):
            // their doubles are added, and counted, until the state is written again.
            unparted: {
              filter: {
                bool: { filter: [{ range: { _holding: { gt: 0 } } }], must_not: [{ exists: { field: '_holding_e' } }] },
              },
              aggs: { sum: { sum: { field: '_holding' } } },
            },
          },
        },
      }),
      (aggs) => aggs.tokens as CompositePage,
    );
    for await (const b of buckets) {
      const token = keyOf(b);
      // A line of two tokens (both sides trust) is a bucket of each; only the asked ones count.
      if (wanted !== undefined && !wanted.has(token)) continue;
      const unparted = b.unparted as { doc_count: number; sum: { value: number } };
      if (unparted.doc_count > 0) inexact += unparted.doc_count;
      out.set(token, {
        trustlines: Number(b.doc_count),
        holders: num(b.holders, 'doc_count'),
        supply: holdingSumOf(b)
          .plus(unparted.doc_count > 0 ? unparted.sum.value : 0)
          .toFixed(),
      });
    }
  }
  if (inexact > 0)
    logger?.warn(
      { lines: inexact },
      'trust lines without exact holding parts (written by an older release): their supply is a sum of doubles until the state is written again',
    );
  return out;
}

/** First and last indexed transaction that touched each token's trust lines (of the ledgers in `within`). */
export async function readTokenDates(
  engine: IngestEngine,
  within?: estypes.QueryDslQueryContainer,
  target: ReadTarget = 'transactions',
): Promise<Map<string, { first: number; last: number }>> {
  const out = new Map<string, { first: number; last: number }>();
  const buckets = engine.composite(
    target,
    { query: { bool: { filter: [{ exists: { field: '_tokens' } }, ...(within === undefined ? [] : [within])] } } },
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
  engine: IngestEngine,
  asOf: AsOf,
  seconds: number,
): Promise<Map<string, ExchangeStats>> {
  const out = new Map<string, ExchangeStats>();
  const end = Date.parse(asOf.close_time);
  const buckets = engine.composite(
    'transactions',
    {
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

/**
 * Each token's newest exchange against XRP (of the ledgers in `within`), as XRP per token (exact,
 * from the stored strings), with its order (ledger × 65,536 + transaction index).
 */
export async function readLastXrpPrices(
  engine: IngestEngine,
  within?: estypes.QueryDslQueryContainer,
  target: ReadTarget = 'transactions',
): Promise<Map<string, LastXrpPrice>> {
  const out = new Map<string, LastXrpPrice>();
  const against = { term: { '_exchanges.counter': 'XRP' } };
  const exchanged = { nested: { path: '_exchanges', query: against } };
  const buckets = engine.composite(
    target,
    { query: within === undefined ? exchanged : { bool: { filter: [exchanged, within] } } },
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
              _source: ['_exchanges.value', '_exchanges.counter_value', '_exchanges.order'],
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
      order?: number;
    };
    const amount = new BigNumber(hit.value ?? NaN);
    const xrp = new BigNumber(hit.counter_value ?? NaN);
    if (amount.gt(0) && xrp.gt(0)) out.set(keyOf(b), { price: xrp.div(amount).toFixed(), order: hit.order ?? 0 });
  }
  return out;
}

const assetToken = (asset: unknown): string | undefined => {
  if (!isRecord(asset) || typeof asset.currency !== 'string') return undefined;
  if (asset.native === true || asset.currency === 'XRP') return 'XRP';
  return typeof asset.issuer === 'string' ? tokenId(asset.currency, asset.issuer) : undefined;
};

/** Live AMM pools with their balances (XRP from the pool account, tokens from its trust lines). */
export async function readAmmPools(engine: IngestEngine): Promise<AmmPool[]> {
  const pools: AmmPool[] = [];
  const request: estypes.SearchRequest = {
    query: { bool: { filter: [{ term: { LedgerEntryType: 'AMM' } }, { term: { deleted: false } }] } },
    sort: [{ index: 'asc' }],
    _source: ['Account', 'Asset', 'Asset2'],
  };
  for await (const hit of engine.scan<Json>('objects', request)) {
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
    const roots = await engine.mget<{ Balance?: { value?: string }; deleted?: boolean }>('accounts', chunk, [
      'Balance.value',
      'deleted',
    ]);
    for (const [account, root] of roots)
      if (root.Balance?.value !== undefined && root.deleted !== true)
        byAccount.get(account)!.balances.XRP = root.Balance.value;
    const lines = {
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
    for await (const hit of engine.scan<Json>('objects', lines))
      for (const side of trustLineSides(hit._source ?? {})) {
        const pool = byAccount.get(side.holder);
        if (pool?.assets.includes(side.token)) pool.balances[side.token] = side.holding;
      }
  }
  return pools;
}

/** The issuers' account state, signer lists and KYC status. */
export async function readIssuers(engine: IngestEngine, issuers: readonly string[]): Promise<Map<string, IssuerState>> {
  const out = new Map<string, IssuerState>();
  for (let at = 0; at < issuers.length; at += PAGE) {
    const chunk = issuers.slice(at, at + PAGE);
    const signerListOwner = new Map(chunk.map((account) => [hashes.hashSignerListId(account), account]));
    const [roots, kyc, signers] = await Promise.all([
      engine.mget<Json>('accounts', chunk, ['_Domain', 'Flags', 'RegularKey', 'deleted']),
      engine.mget<{ kycApproved?: boolean }>('kyc', chunk, ['kycApproved']),
      // A SignerList names no owner: it is found by its id, derived from the owner's address.
      engine.mget<{ deleted?: boolean }>('objects', [...signerListOwner.keys()], ['deleted']),
    ]);
    const withSigners = new Set(
      [...signers].flatMap(([id, list]) => (list.deleted !== true ? [signerListOwner.get(id) as string] : [])),
    );
    const approved = new Set([...kyc].flatMap(([id, record]) => (record.kycApproved === true ? [id] : [])));
    for (const [account, source] of roots) {
      const state: IssuerState = {
        flags: typeof source.Flags === 'number' ? source.Flags : 0,
        hasSignerList: withSigners.has(account),
        deleted: source.deleted === true,
        kyc: approved.has(account),
      };
      if (typeof source._Domain === 'string') state.domain = source._Domain;
      if (typeof source.RegularKey === 'string') state.regularKey = source.RegularKey;
      out.set(account, state);
    }
  }
  return out;
}

/** Previous toml results, kept in the tokens index, by domain (the fetch cache). */
export async function readTomlCache(engine: IngestEngine): Promise<Map<string, TomlResult>> {
  const out = new Map<string, TomlResult>();
  const request: estypes.SearchRequest = {
    // No tokens index yet (a first run on indices made without it): no cache, not an error.
    ignore_unavailable: true,
    query: { exists: { field: '_toml.fetched_at' } },
    sort: [{ id: 'asc' }],
    _source: ['_toml', 'tomldata'],
  };
  for await (const hit of engine.scan<{ _toml: Json; tomldata?: Json }>('tokens', request)) {
    const toml = hit._source?._toml;
    if (toml === undefined || typeof toml.domain !== 'string' || typeof toml.fetched_at !== 'string') continue;
    const result: TomlResult = {
      domain: toml.domain,
      // Recorded before the outcome of an unparsable file was named `invalid`.
      outcome: (toml.outcome === 'malformed' ? 'invalid' : toml.outcome) as TomlResult['outcome'],
      fetched_at: toml.fetched_at,
    };
    if (typeof toml.reason === 'string') result.reason = toml.reason;
    if (typeof toml.source === 'string') result.source = toml.source;
    if (typeof toml.data_fetched_at === 'string') result.data_fetched_at = toml.data_fetched_at;
    if (hit._source?.tomldata !== undefined) result.data = hit._source.tomldata;
    out.set(toml.domain, result);
  }
  return out;
}

/**
 * What each token's history says (its first and last transaction and its newest exchange against
 * XRP) and its trust lines' figures. A first run reads every indexed transaction and every live
 * trust line. A later run (`since`: the ledgers indexed since the last run) starts from what the
 * token documents recorded (`_history`, `trustlines`, `holders`, `metrics.supply`), reads only the new
 * ledgers, older or newer, from their ranges, and counts again the trust lines of the tokens those
 * ledgers touched (a trust line changes only through a transaction, which names its token in
 * `_tokens`; a state snapshot makes the next run a first one): a run costs what changed, not the
 * length of history nor the size of the state.
 */
export async function readTokenHistory(
  engine: IngestEngine,
  since: readonly LedgerRange[] | undefined,
  logger?: Logger,
): Promise<Pick<TokenInputs, 'dates' | 'lastXrpPrice' | 'lines'>> {
  if (since === undefined) {
    const [dates, lastXrpPrice, lines] = await Promise.all([
      readTokenDates(engine),
      readLastXrpPrices(engine),
      readTrustLineStats(engine, undefined, logger),
    ]);
    return { dates, lastXrpPrice, lines };
  }
  const dates: TokenInputs['dates'] = new Map();
  const lastXrpPrice: TokenInputs['lastXrpPrice'] = new Map();
  const lines: TokenInputs['lines'] = new Map();
  let whole = true;
  for await (const hit of engine.scanAll<StoredToken>('tokens', {
    _source: ['id', '_history', 'trustlines', 'holders', 'metrics.supply'],
  })) {
    const stored = hit._source;
    if (stored === undefined) continue;
    const history = stored._history;
    if (history === undefined) whole = false;
    else {
      if (history.first !== null && history.last !== null)
        dates.set(stored.id, { first: history.first, last: history.last });
      if (history.xrp_price !== null)
        lastXrpPrice.set(stored.id, { price: history.xrp_price, order: history.xrp_order ?? 0 });
    }
    if (
      typeof stored.trustlines !== 'number' ||
      typeof stored.holders !== 'number' ||
      typeof stored.metrics?.supply !== 'string'
    )
      whole = false;
    else if (stored.trustlines > 0)
      lines.set(stored.id, { trustlines: stored.trustlines, holders: stored.holders, supply: stored.metrics.supply });
  }
  // Documents written before these fields were recorded: read everything once.
  if (!whole) return readTokenHistory(engine, undefined, logger);
  if (since.length === 0) return { dates, lastXrpPrice, lines };
  const within = inLedgerRanges(since);
  const target = await engine.rangesHolding('transactions', since);
  const [newDates, newPrices] = await Promise.all([
    readTokenDates(engine, within, target),
    readLastXrpPrices(engine, within, target),
  ]);
  for (const [id, d] of newDates) {
    const known = dates.get(id);
    dates.set(
      id,
      known === undefined ? d : { first: Math.min(known.first, d.first), last: Math.max(known.last, d.last) },
    );
  }
  for (const [id, p] of newPrices) {
    const known = lastXrpPrice.get(id);
    if (known === undefined || p.order > known.order) lastXrpPrice.set(id, p);
  }
  const touched = [...newDates.keys()].sort();
  const counted = await readTrustLineStats(engine, touched, logger);
  for (const id of touched) {
    const stats = counted.get(id);
    if (stats === undefined) lines.delete(id);
    else lines.set(id, stats);
  }
  return { dates, lastXrpPrice, lines };
}

/** What a token document keeps for the next run. */
interface StoredToken {
  id: string;
  _history?: TokenHistory;
  trustlines?: number;
  holders?: number;
  /** The exact supply (the top-level `supply` is its nearest double). */
  metrics?: { supply?: string };
}

/** Everything the tokens data set is built from. */
export async function readTokenInputs(
  engine: IngestEngine,
  asOf: AsOf,
  since: readonly LedgerRange[] | undefined,
  toml: Omit<TomlRefreshOptions, 'logger'> & { logger?: Logger },
): Promise<TokenInputs> {
  const [pools, { dates, lastXrpPrice, lines }, day, week] = await Promise.all([
    readAmmPools(engine),
    readTokenHistory(engine, since, toml.logger),
    readExchangeStats(engine, asOf, WINDOWS['24h']),
    readExchangeStats(engine, asOf, WINDOWS['7d']),
  ]);
  const issuerIds = new Set<string>([...lines.keys()].map((id) => id.split('.')[1] as string));
  for (const pool of pools)
    for (const asset of pool.assets) if (asset !== 'XRP') issuerIds.add(asset.split('.')[1] as string);
  const issuers = await readIssuers(engine, [...issuerIds].sort());
  const domains = new Set<string>();
  for (const issuer of issuers.values()) {
    const normalized = issuer.domain === undefined ? undefined : normalizeDomain(issuer.domain);
    if (normalized !== undefined && 'domain' in normalized) domains.add(normalized.domain);
  }
  const cache = await readTomlCache(engine);
  const results = await refreshToml([...domains].sort(), cache, toml);
  return { lines, pools, dates, exchanges: { '24h': day, '7d': week }, lastXrpPrice, issuers, toml: results };
}
