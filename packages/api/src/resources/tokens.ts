import { NotFoundError } from '@xle/core';
import { currencyHex, type Json } from '@xle/documents';
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

/** The largest holders of one token (`<currency_hex>.<issuer>`, a token's `id`), with their labels. */
export async function tokenHolders(engine: Engine, token: string, limit: number): Promise<TokenHolder[]> {
  const found = await engine.search<Json>('objects', buildTokenHoldersQuery(token, limit));
  const lines = found.hits.hits.map((h) => h._source ?? {});
  const holders = shapeTokenHolders(token, lines, new Map());
  return shapeTokenHolders(
    token,
    lines,
    await lookupLabels(
      engine,
      holders.map((h) => h.account),
    ),
  );
}

/** Which of these token ids (`<currency_hex>.<issuer>`) the tokens data set holds (one batched lookup). */
export async function knownTokenIds(engine: Engine, ids: Iterable<string>): Promise<Set<string>> {
  return new Set((await engine.mget<Json>('tokens', [...ids])).keys());
}
