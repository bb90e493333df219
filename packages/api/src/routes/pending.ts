import Type, { type TObject } from 'typebox';
import { DataNotReadyError } from '@xle/core';
import { LimitOffset, PublicKeyParam, TokenParam } from '../schemas/params.js';
import { AnyObject, defineRoute, NoQuery, type AnyRoute } from '../route.js';

/**
 * Routes whose data sets are computed by ingester jobs that do not exist yet (tokens and
 * validators). They exist now with their
 * validation and schemas, so bad input is still a 400, and otherwise answer 503 DATA_NOT_READY,
 * never an empty 200. Each is replaced by its real handler when its job lands.
 */
export function pendingRoutes(): AnyRoute[] {
  const pending = (
    path: string,
    summary: string,
    tag: string,
    dataSet: string,
    params: TObject = Type.Object({}),
    query: TObject = NoQuery,
  ): AnyRoute =>
    defineRoute({
      method: 'get',
      path,
      summary,
      tags: [tag],
      params,
      query,
      response: AnyObject,
      dataSet,
      handler: async () => {
        throw new DataNotReadyError(`${path} (the ${dataSet} data set)`);
      },
    });
  const tokenSort = Type.Union(
    ['code', 'trustlines', 'holders', 'amms', 'price', 'supply', 'marketcap', 'score', 'createdAt', 'updatedAt'].map(
      (s) => Type.Literal(s),
    ),
  );
  return [
    pending(
      '/tokens',
      'Issued tokens with metrics and score',
      'NFT, AMM, token',
      'tokens',
      Type.Object({}),
      Type.Object(
        {
          ...LimitOffset,
          sort: Type.Optional(tokenSort),
          direction: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
        },
        { additionalProperties: false },
      ),
    ),
    pending(
      '/token/{TOKEN}',
      'One issued token with its XLS-26 toml data',
      'NFT, AMM, token',
      'tokens',
      Type.Object({ TOKEN: TokenParam }),
    ),
    pending('/validatorregistry', 'Active validators', 'Other resources', 'validators'),
    pending(
      '/validator/{VALIDATOR_PUBLIC_KEY}',
      'One validator',
      'Other resources',
      'validators',
      Type.Object({ VALIDATOR_PUBLIC_KEY: PublicKeyParam }),
    ),
    pending(
      '/validator/{PUBLIC_KEY}/reports',
      'Daily reports of a validator',
      'Other resources',
      'validators',
      Type.Object({ PUBLIC_KEY: PublicKeyParam }),
    ),
  ];
}
