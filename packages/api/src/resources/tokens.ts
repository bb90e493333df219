import { NotFoundError } from '@xle/core';
import { HOLDING_SUM_AGGS, currencyHex, holdingSumOf, type Json } from '@xle/documents';
import type { Engine } from '../engine.js';
import { lookupLabels } from '../enrich/labels.js';
import { buildTokenHoldersQuery, buildTokenQuery, buildTokensQuery, type TokenSort } from '../queries/tokens.js';
import { labelOf } from '../shapers/labels.js';
import { shapeToken, shapeTokenHolders, shapeTokens, type TokenHolder } from '../shapers/token.js';

export interface TokensQuery {
  sort?: TokenSort;
  direction?: 'asc' | 'desc';
  limit?: number;
  offset?: number;
}

/** GET /tokens: a page of tokens, by score unless told otherwise. */
export async function tokenList(engine: Engine, query: TokensQuery): Promise<Json[]> {
  const sort = query.sort ?? 'score';
  const direction = query.direction ?? (sort === 'code' ? 'asc' : 'desc');
  const found = await engine.search<Json>(
    'tokens',
    buildTokensQuery(sort, direction, query.limit ?? 100, query.offset ?? 0),
  );
  return labelledTokens(
    engine,
    found.hits.hits.map((h) => h._source ?? {}),
  );
}

/** Token documents as the token list shows them: without their toml data, each with its issuer's label. */
export async function labelledTokens(engine: Engine, docs: readonly Json[]): Promise<Json[]> {
  return shapeTokens(
    docs,
    await lookupLabels(
      engine,
      docs.map((d) => d.issuer as string),
    ),
  );
}

/** GET /token/{CODE}.{ISSUER}: one token with its XLS-26 toml data. The issuer follows the last dot. */
export async function tokenByCode(engine: Engine, token: string): Promise<Json> {
  const at = token.lastIndexOf('.');
  const code = token.slice(0, at);
  const issuer = token.slice(at + 1);
  const found = await engine.search<Json>('tokens', buildTokenQuery(code, currencyHex(code), issuer));
  const doc = found.hits.hits[0]?._source;
  if (doc === undefined)
    throw new NotFoundError(`Token ${token} is not an issued token in the indexed ledgers.`, { token });
  return shapeToken(doc, labelOf(await lookupLabels(engine, [issuer]), issuer), true);
}

/** A token's largest holders and the supply their shares are of, read together. */
export interface TokenHolders {
  holders: TokenHolder[];
  /** Σ of every holder's balance, exact, from the same search as `holders` (one state, one basis). */
  supply: string;
  /** Accounts holding a positive balance. */
  count: number;
}

/**
 * The largest holders of one token (`<currency_hex>.<issuer>`, a token's `id`), with their labels,
 * and the exact supply and holder count of the same lines in the same search, so that every share
 * is of the figure it is shown beside.
 */
export async function tokenHolders(engine: Engine, token: string, limit: number): Promise<TokenHolders> {
  const found = await engine.search<Json>('objects', {
    ...buildTokenHoldersQuery(token, limit),
    aggs: { ...HOLDING_SUM_AGGS },
    track_total_hits: true,
  });
  const lines = found.hits.hits.map((h) => h._source ?? {});
  const accounts = shapeTokenHolders(token, lines, new Map()).map((h) => h.account);
  const total = found.hits.total;
  return {
    holders: shapeTokenHolders(token, lines, await lookupLabels(engine, accounts)),
    supply: holdingSumOf(found.aggregations).toFixed(),
    count: typeof total === 'number' ? total : (total?.value ?? 0),
  };
}

/** Which of these token ids (`<currency_hex>.<issuer>`) the tokens data set holds (one batched lookup). */
export async function knownTokenIds(engine: Engine, ids: Iterable<string>): Promise<Set<string>> {
  return new Set((await engine.mget<Json>('tokens', [...ids])).keys());
}
