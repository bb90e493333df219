import Type, { type Static } from 'typebox';
import { withRules } from '@xle/core';
import { parsePageMarker } from '../queries/markers.js';
import { LIST_LIMIT } from '../queries/accounts.js';
import { parseMarker } from '../queries/markers.js';
import { BALANCE_CHANGE_KINDS } from '@xle/documents';
import { AccountParam, LEDGER_INDEX_MAX } from './params.js';

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

const BalanceCurrency = Type.String({
  pattern: '^(?:[0-9A-Fa-f]{40}|[^\\s]{2,40})$',
  description: 'XRP, or a currency code: 3 characters, 40 hex, or its decoded text (LP for an AMM’s LP token).',
});
const BalanceIssuer = Type.With(AccountParam, {
  description: 'The other side of the trust line (for a holder, the issuer); needs `currency`.',
});
const LedgerBound = (description: string) => Type.Integer({ minimum: 1, maximum: LEDGER_INDEX_MAX, description });

/** Rules every balance request shares: an issuer names a token's trust line, never XRP. */
const assetRules = <T extends { currency?: string | undefined; issuer?: string | undefined }>() => [
  {
    parameter: 'issuer',
    message: 'needs "currency"',
    check: (q: T) => q.issuer === undefined || q.currency !== undefined,
  },
  {
    parameter: 'issuer',
    message: 'XRP has no issuer',
    check: (q: T) => q.issuer === undefined || q.currency?.toUpperCase() !== 'XRP',
  },
];

/** The filters and paging of /account/{ACCOUNT}/balance_changes. */
export const BalanceChangesQuery = withRules(
  Type.Object(
    {
      currency: Type.Optional(BalanceCurrency),
      issuer: Type.Optional(BalanceIssuer),
      from_ledger: Type.Optional(LedgerBound('First ledger.')),
      to_ledger: Type.Optional(LedgerBound('Last ledger (default: the newest indexed).')),
      from: Type.Optional(Type.String({ format: 'date-time', description: 'Earliest close time, ISO 8601.' })),
      to: Type.Optional(Type.String({ format: 'date-time', description: 'Latest close time, ISO 8601.' })),
      kind: Type.Optional(
        Type.Union(
          BALANCE_CHANGE_KINDS.map((k) => Type.Literal(k)),
          { description: 'Why the balance changed.' },
        ),
      ),
      limit: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: LIST_LIMIT.max,
          default: LIST_LIMIT.default,
          description: 'Changes per page (1-1000, default 200).',
        }),
      ),
      marker: Type.Optional(PageMarkerParam),
    },
    { additionalProperties: false },
  ),
  [
    ...assetRules<{ currency?: string; issuer?: string }>(),
    {
      parameter: 'from_ledger',
      message: 'after "to_ledger"',
      check: (q) => q.from_ledger === undefined || q.to_ledger === undefined || q.from_ledger <= q.to_ledger,
    },
    {
      parameter: 'from',
      message: 'after "to"',
      check: (q) => q.from === undefined || q.to === undefined || Date.parse(q.from) <= Date.parse(q.to),
    },
  ],
);
export type BalanceChangesQuery = Static<typeof BalanceChangesQuery>;

/** /account/{ACCOUNT}/balances: the point (a ledger or an instant) and optionally one asset. */
export const BalancesQuery = withRules(
  Type.Object(
    {
      ledger: Type.Optional(
        LedgerBound('The ledger at whose end the balances are asked (default: the newest indexed).'),
      ),
      date: Type.Optional(
        Type.String({
          format: 'date-time',
          description: 'An instant: the balances at the end of the last ledger closed by then.',
        }),
      ),
      currency: Type.Optional(BalanceCurrency),
      issuer: Type.Optional(BalanceIssuer),
    },
    { additionalProperties: false },
  ),
  [
    ...assetRules<{ currency?: string; issuer?: string }>(),
    {
      parameter: 'date',
      message: 'give "ledger" or "date", not both',
      check: (q) => q.ledger === undefined || q.date === undefined,
    },
  ],
);
export type BalancesQuery = Static<typeof BalancesQuery>;

/** /account/{ACCOUNT}/balance_history: one asset, an interval, a span. */
export const BalanceHistoryQuery = withRules(
  Type.Object(
    {
      currency: Type.Optional(
        Type.With(BalanceCurrency, { description: 'The asset (default XRP); a token needs `issuer`.' }),
      ),
      issuer: Type.Optional(BalanceIssuer),
      interval: Type.Optional(
        Type.Union([Type.Literal('day'), Type.Literal('week'), Type.Literal('month')], {
          default: 'day',
          description: 'One point per calendar day, week (from Monday) or month, UTC.',
        }),
      ),
      from: Type.Optional(
        Type.String({ format: 'date-time', description: 'Start, ISO 8601 (default: a year before `to`).' }),
      ),
      to: Type.Optional(
        Type.String({ format: 'date-time', description: 'End, ISO 8601 (default: the newest ledger’s close).' }),
      ),
    },
    { additionalProperties: false },
  ),
  [
    ...assetRules<{ currency?: string; issuer?: string }>(),
    {
      parameter: 'issuer',
      message: 'a token’s history needs its issuer',
      check: (q) => q.currency === undefined || q.currency.toUpperCase() === 'XRP' || q.issuer !== undefined,
    },
    {
      parameter: 'from',
      message: 'after "to"',
      check: (q) => q.from === undefined || q.to === undefined || Date.parse(q.from) <= Date.parse(q.to),
    },
  ],
);
export type BalanceHistoryQuery = Static<typeof BalanceHistoryQuery>;
