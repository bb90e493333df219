import Type from 'typebox';
import { NotFoundError } from '@xle/core';
import type { Engine } from '../engine.js';
import { labelOf, lookupLabels, type Label } from '../labels.js';
import { LimitOffset, TokenParam } from '../schemas/params.js';
import { AnyObject, defineRoute, NoQuery, type AnyRoute } from '../route.js';
import { currencyHex } from '@xle/documents';

type Json = Record<string, unknown>;

export const TOKEN_SORTS = [
  'code',
  'trustlines',
  'holders',
  'amms',
  'price',
  'supply',
  'marketcap',
  'score',
  'createdAt',
  'updatedAt',
] as const;
type TokenSort = (typeof TOKEN_SORTS)[number];

/** The engine field each sort key orders by (`code` case-insensitively). */
const SORT_FIELD: Record<TokenSort, string> = {
  code: 'code.lower',
  trustlines: 'trustlines',
  holders: 'holders',
  amms: 'amms',
  price: 'price',
  supply: 'supply',
  marketcap: 'marketcap',
  score: 'score',
  createdAt: 'createdAt',
  updatedAt: 'updatedAt',
};

/**
 * The spec's Token (pure): the stored document without the job's bookkeeping, `tomldata` only
 * when asked for (token info, not the list), `toml_status` telling when the issuer's
 * xrp-ledger.toml was last fetched and with what outcome, and the issuer's label.
 */
export function shapeToken(doc: Json, label: Label | null, withToml: boolean): Json {
  const { _toml, tomldata, ledger_index: _ledger, ...token } = doc;
  const shaped: Json = { ...token, toml_status: _toml ?? null, IssuingAccount: label };
  if (withToml) shaped.tomldata = tomldata ?? null;
  return shaped;
}

export function tokenRoutes(engine: Engine): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/tokens',
      dataSet: { job: 'tokens' },
      summary: 'Issued tokens with metrics and score',
      tags: ['NFT, AMM, token'],
      params: Type.Object({}),
      query: Type.Object(
        {
          ...LimitOffset,
          sort: Type.Optional(
            Type.Union(
              TOKEN_SORTS.map((s) => Type.Literal(s)),
              { default: 'score', description: 'Field to order by (default score).' },
            ),
          ),
          direction: Type.Optional(
            Type.Union([Type.Literal('asc'), Type.Literal('desc')], {
              description: 'asc or desc (default: asc for code, desc otherwise).',
            }),
          ),
        },
        { additionalProperties: false },
      ),
      response: Type.Array(AnyObject, { description: 'Tokens without tomldata; ties ordered by id.' }),
      handler: async (_ctx, { query }) => {
        const sort: TokenSort = (query.sort as TokenSort | undefined) ?? 'score';
        const direction = query.direction ?? (sort === 'code' ? 'asc' : 'desc');
        const found = await engine.search<Json>('tokens', {
          query: { match_all: {} },
          sort: [{ [SORT_FIELD[sort]]: { order: direction, missing: '_last' } }, { id: 'asc' }],
          from: query.offset ?? 0,
          size: Math.min(query.limit ?? 100, 10_000 - (query.offset ?? 0)),
          _source: { excludes: ['tomldata'] },
        });
        const docs = found.hits.hits.map((h) => h._source ?? {});
        const labels = await lookupLabels(
          engine,
          docs.map((d) => d.issuer as string),
        );
        return docs.map((d) => shapeToken(d, labelOf(labels, d.issuer), false));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/token/{TOKEN}',
      dataSet: { job: 'tokens' },
      summary: 'One issued token with its XLS-26 toml data',
      tags: ['NFT, AMM, token'],
      params: Type.Object({ TOKEN: TokenParam }),
      query: NoQuery,
      response: AnyObject,
      handler: async (_ctx, { params }) => {
        const at = params.TOKEN.lastIndexOf('.');
        const code = params.TOKEN.slice(0, at);
        const issuer = params.TOKEN.slice(at + 1);
        const hex = currencyHex(code);
        const found = await engine.search<Json>('tokens', {
          query: {
            bool: {
              filter: [{ term: { issuer } }],
              should: [{ term: { code } }, ...(hex === undefined ? [] : [{ term: { currency: hex } }])],
              minimum_should_match: 1,
            },
          },
          sort: [{ currency: 'asc' }],
          size: 1,
        });
        const doc = found.hits.hits[0]?._source;
        if (doc === undefined)
          throw new NotFoundError(`Token ${params.TOKEN} is not an issued token in the indexed ledgers.`, {
            token: params.TOKEN,
          });
        const labels = await lookupLabels(engine, [issuer]);
        return shapeToken(doc, labelOf(labels, issuer), true);
      },
    }),
  ];
}
