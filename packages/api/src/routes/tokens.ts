import Type from 'typebox';
import { defineRoute, NoParams, NoQuery, type AnyRoute } from '@xle/core';
import type { Engine } from '../engine.js';
import { TOKEN_SORTS } from '../queries/tokens.js';
import { tokenByCode, tokenList } from '../resources/tokens.js';
import { TokenParam } from '../schemas/params.js';
import { LimitOffset } from '../schemas/queries.js';
import { Token, Tokens } from '../schemas/responses/objects.js';

export { TOKEN_SORTS };

const TokensQuery = Type.Object(
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
);

export function tokenRoutes(engine: Engine): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/tokens',
      dataSet: { job: 'tokens' },
      summary: 'Issued tokens with metrics and score',
      tags: ['NFT, AMM, token'],
      params: NoParams,
      query: TokensQuery,
      response: Tokens,
      handler: ({ query }) => tokenList(engine, query),
    }),
    defineRoute({
      method: 'get',
      path: '/token/{TOKEN}',
      dataSet: { job: 'tokens' },
      summary: 'One issued token with its XLS-26 toml data',
      tags: ['NFT, AMM, token'],
      params: Type.Object({ TOKEN: TokenParam }),
      query: NoQuery,
      response: Token,
      handler: ({ params }) => tokenByCode(engine, params.TOKEN),
    }),
  ];
}
