import Type, { type Static } from 'typebox';
import { withRules } from '@xle/core';
import { parsePageMarker } from '../queries/markers.js';
import { LIST_LIMIT } from '../queries/accounts.js';
import { parseMarker } from '../queries/markers.js';
import { AccountParam } from './params.js';

/** Records per page and records skipped, for the offset-paged lists. */
export const LimitOffset = {
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 400,
      default: 100,
      description: 'Maximum number of records (1-400, default 100).',
    }),
  ),
  offset: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 10000, default: 0, description: 'Records skipped (0-10000).' }),
  ),
};

export const LimitOffsetQuery = Type.Object(LimitOffset, { additionalProperties: false });

/** A marker this API issued (its account and ordering are checked against the request's). */
const MarkerParam = Type.Refine(
  Type.String({ maxLength: 512, description: 'The marker of the previous page.' }),
  (text) => parseMarker(text) !== undefined,
  () => 'not a marker this API issued',
);

/** The filters and paging of /account/{ACCOUNT}/transactions. */
export const AccountTxQuery = withRules(
  Type.Object(
    {
      type: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2,64}$', description: 'TransactionType, e.g. Payment.' })),
      result: Type.Optional(
        Type.String({ pattern: '^[a-z]{3}[A-Z_]{2,64}$', description: 'TransactionResult, e.g. tesSUCCESS.' }),
      ),
      from: Type.Optional(Type.String({ format: 'date-time', description: 'Earliest close time, ISO 8601.' })),
      to: Type.Optional(Type.String({ format: 'date-time', description: 'Latest close time, ISO 8601.' })),
      destination_tag: Type.Optional(Type.Integer({ minimum: 0, maximum: 4294967295 })),
      source_tag: Type.Optional(Type.Integer({ minimum: 0, maximum: 4294967295 })),
      currency: Type.Optional(
        Type.String({
          pattern: '^(?:[0-9A-Fa-f]{40}|[^\\s]{3,40})$',
          description: 'Currency code (3-char, 40-hex or decoded).',
        }),
      ),
      direction: Type.Optional(Type.Union([Type.Literal('sent'), Type.Literal('received')])),
      forward: Type.Optional(Type.Boolean({ default: false, description: 'Oldest first.' })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 400, default: 20 })),
      marker: Type.Optional(MarkerParam),
    },
    { additionalProperties: false },
  ),
  [
    {
      parameter: 'from',
      message: 'after "to"',
      check: (q) => q.from === undefined || q.to === undefined || q.from <= q.to,
    },
  ],
);
export type AccountTxQuery = Static<typeof AccountTxQuery>;

/** A marker of a sorted walk this API issued (what it walks is checked against the request's). */
const PageMarkerParam = Type.Refine(
  Type.String({ maxLength: 1024, description: 'The marker of the previous page.' }),
  (text) => parsePageMarker(text) !== undefined,
  () => 'not a marker this API issued',
);

/** Paging of an account's lists (activations, trust lines, orders, escrows, deposit preauths). */
export const AccountListQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: LIST_LIMIT.max,
        default: LIST_LIMIT.default,
        description: 'Items per page (1-1000, default 200).',
      }),
    ),
    marker: Type.Optional(PageMarkerParam),
  },
  { additionalProperties: false },
);

/** Paging of /nft/{NFTOKEN_ID}/history. */
export const NftHistoryQuery = Type.Object(
  {
    forward: Type.Optional(
      Type.Boolean({
        default: true,
        description: 'Oldest first (default), as the history happened; false: newest first.',
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 400, default: 20 })),
    marker: Type.Optional(PageMarkerParam),
  },
  { additionalProperties: false },
);

/** Filters and paging of /nfts. */
export const IssuerNftsQuery = Type.Object(
  {
    issuer: AccountParam,
    taxon: Type.Optional(Type.Integer({ minimum: 0, maximum: 4294967295, description: 'Only NFTs of this taxon.' })),
    burned: Type.Optional(
      Type.Boolean({ description: 'true: burned NFTs only; false: live ones only; absent: both.' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 400, default: 100 })),
    marker: Type.Optional(PageMarkerParam),
  },
  { additionalProperties: false },
);
