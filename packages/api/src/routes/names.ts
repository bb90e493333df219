import Type from 'typebox';
import type { Engine } from '../engine.js';
import { defineRoute, NoQuery, type AnyRoute } from '../route.js';

const Label = Type.Object(
  {
    name: Type.Optional(Type.String()),
    desc: Type.Optional(Type.String()),
    account: Type.String(),
    domain: Type.Optional(Type.String()),
    twitter: Type.Optional(Type.String()),
    verified: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);

export function nameRoutes(engine: Engine): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/names/well-known',
      summary: 'Labels of well-known accounts',
      tags: ['Other resources'],
      params: Type.Object({}),
      query: NoQuery,
      response: Type.Array(Label),
      handler: async () => {
        const found = await engine.search<Record<string, unknown>>('names', {
          query: { match_all: {} },
          sort: [{ account: { order: 'asc' } }],
          size: 10000,
          _source: ['name', 'username', 'desc', 'account', 'domain', 'twitter', 'verified'],
        });
        return found.hits.hits.map((h) => h._source);
      },
    }),
  ];
}
