import BigNumber from 'bignumber.js';
import Type from 'typebox';
import { BadRequestError, ErrorCode, NotFoundError } from '@xle/core';
import type { Engine } from '../engine.js';
import { labelOf, lookupLabels } from '../labels.js';
import { buildLatestLedgersQuery } from '../queries/lookups.js';
import { buildAccountTxQuery, decodeMarker, encodeMarker, type AccountTxFilters } from '../queries/transactions.js';
import { AccountParam } from '../schemas/params.js';
import { accountSettings, shapeAccount } from '../shapers/account.js';
import { AnyObject, defineRoute, NoQuery, type AnyRoute } from '../route.js';
import { shapeTransactions } from './transactions.js';
import { decodeCurrency, rawEntry } from '@xle/documents';

type Json = Record<string, unknown>;
const AccountPath = Type.Object({ ACCOUNT: AccountParam });
const MAX_OBJECTS = 10000;

async function accountDoc(engine: Engine, account: string): Promise<Json> {
  const doc = await engine.get<Json>('accounts', account);
  if (doc === undefined || doc.deleted === true)
    throw new NotFoundError(`Account ${account} is not found in the indexed ledgers.`, { account });
  return doc;
}

/** Current (not deleted) ledger objects of one type that involve the account. */
async function objectsOf(engine: Engine, account: string, type: string, extra: Json[] = []): Promise<Json[]> {
  const found = await engine.search<Json>('objects', {
    query: {
      bool: {
        filter: [
          { term: { _accounts: account } },
          { term: { LedgerEntryType: type } },
          { term: { deleted: false } },
          ...extra,
        ],
      },
    },
    sort: [{ index: { order: 'asc' } }],
    size: MAX_OBJECTS,
  });
  return found.hits.hits.map((h) => h._source ?? {});
}

interface Line {
  account: string;
  balance: string;
  currency: string;
  limit: string;
  limit_peer: string;
  quality_in: number;
  quality_out: number;
  no_ripple?: boolean;
  no_ripple_peer?: boolean;
  freeze?: boolean;
  freeze_peer?: boolean;
  authorized?: boolean;
  peer_authorized?: boolean;
}

const negate = (value: string): string => (value.startsWith('-') ? value.slice(1) : value === '0' ? '0' : `-${value}`);

/** A RippleState entry seen from one of its two accounts, as account_lines shows it. Pure. */
export function trustLineOf(entry: Json, account: string): Line {
  const low = entry.LowLimit as { issuer: string; value: string; currency: string };
  const high = entry.HighLimit as { issuer: string; value: string; currency: string };
  const balance = (entry.Balance as { value: string }).value;
  const flags = typeof entry.Flags === 'number' ? entry.Flags : 0;
  const isLow = low.issuer === account;
  const [mine, peer] = isLow ? [low, high] : [high, low];
  // lsfLowNoRipple 0x00020000, lsfHighNoRipple 0x00100000, lsfLowFreeze 0x00400000, lsfHighFreeze 0x00800000,
  // lsfLowAuth 0x00040000, lsfHighAuth 0x00080000
  const own = (lowFlag: number, highFlag: number): boolean => (flags & (isLow ? lowFlag : highFlag)) !== 0;
  const other = (lowFlag: number, highFlag: number): boolean => (flags & (isLow ? highFlag : lowFlag)) !== 0;
  const line: Line = {
    account: peer.issuer,
    balance: isLow ? balance : negate(balance),
    currency: low.currency,
    limit: mine.value,
    limit_peer: peer.value,
    quality_in: Number((isLow ? entry.LowQualityIn : entry.HighQualityIn) ?? 0),
    quality_out: Number((isLow ? entry.LowQualityOut : entry.HighQualityOut) ?? 0),
  };
  if (own(0x00020000, 0x00100000)) line.no_ripple = true;
  if (other(0x00020000, 0x00100000)) line.no_ripple_peer = true;
  if (own(0x00400000, 0x00800000)) line.freeze = true;
  if (other(0x00400000, 0x00800000)) line.freeze_peer = true;
  if (own(0x00040000, 0x00080000)) line.authorized = true;
  if (other(0x00040000, 0x00080000)) line.peer_authorized = true;
  return line;
}

/**
 * What an issuer owes, per currency: the sum of the holders' positive balances (negative from the
 * issuer's side), added exactly in decimal (pure).
 */
export function obligationsOf(lines: readonly Line[]): { currency: string; value: string }[] {
  const totals = new Map<string, BigNumber>();
  for (const line of lines) {
    const balance = new BigNumber(line.balance);
    if (balance.isNegative()) totals.set(line.currency, (totals.get(line.currency) ?? new BigNumber(0)).minus(balance));
  }
  return [...totals].map(([currency, value]) => ({ currency, value: value.toFixed() }));
}

async function linesOf(engine: Engine, account: string): Promise<Line[]> {
  const entries = await objectsOf(engine, account, 'RippleState');
  return entries.map((e) => trustLineOf(rawEntry(e), account));
}

/**
 * The newest indexed ledger, which pins a first page's range. Cached for half a second: ledgers
 * close every 3 to 4 seconds, so the value is never more than one ledger old, and the marker pins
 * whichever value the first page used, so the walk stays consistent either way.
 */
const LATEST_TTL_MS = 500;
const latestCache = new WeakMap<Engine, { value: number; at: number }>();

async function pinnedMax(engine: Engine): Promise<number> {
  const cached = latestCache.get(engine);
  if (cached !== undefined && performance.now() - cached.at < LATEST_TTL_MS) return cached.value;
  const found = await engine.search<{ ledger_index: number }>('ledgers', {
    ...buildLatestLedgersQuery(1),
    _source: ['ledger_index'],
  });
  const value = found.hits.hits[0]?._source?.ledger_index ?? 0;
  latestCache.set(engine, { value, at: performance.now() });
  return value;
}

const TxQuery = Type.Object(
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
    marker: Type.Optional(Type.String({ maxLength: 512 })),
  },
  { additionalProperties: false },
);

export function accountRoutes(engine: Engine): AnyRoute[] {
  const route = (path: string, summary: string, handler: (account: string) => Promise<unknown>): AnyRoute =>
    defineRoute({
      method: 'get',
      path: `/account/{ACCOUNT}${path}`,
      summary,
      tags: ['Account'],
      params: AccountPath,
      query: NoQuery,
      response: AnyObject,
      handler: async (_ctx, { params }) => handler(params.ACCOUNT),
    });
  return [
    route('', 'Account information with its activation and labels', async (account) => {
      const doc = await accountDoc(engine, account);
      return shapeAccount(doc, await lookupLabels(engine, [account, doc.parent as string | undefined]));
    }),
    route('/settings', 'Account settings from its flags and fields', async (account) =>
      accountSettings(await accountDoc(engine, account)),
    ),
    route('/activations', 'Accounts this account activated', async (account) => {
      const found = await engine.search<Json>('accounts', {
        query: { term: { parent: account } },
        sort: [{ ledger_index: { order: 'asc' } }],
        size: MAX_OBJECTS,
        _source: ['Account', 'parent', 'initial_balance', 'inception', 'ledger_index', 'tx_hash'],
      });
      const docs = found.hits.hits.map((h) => h._source ?? {});
      const labels = await lookupLabels(engine, [account]);
      return {
        result: 'success',
        count: docs.length,
        accounts: docs.map((d) => ({
          account: d.Account,
          parent: d.parent,
          initial_balance: d.initial_balance,
          inception: d.inception,
          ledger_index: d.ledger_index,
          tx_hash: d.tx_hash,
          parentName: labelOf(labels, d.parent),
        })),
      };
    }),
    route('/ancestry', 'The chain of activating accounts, oldest first', async (account) => {
      const chain: Json[] = [];
      let current: string | undefined = account;
      const seen = new Set<string>();
      while (current !== undefined && !seen.has(current) && chain.length < 1000) {
        seen.add(current);
        const doc: Json | undefined = await engine.get<Json>('accounts', current);
        if (doc === undefined) break;
        chain.push(doc);
        current = typeof doc.parent === 'string' ? doc.parent : undefined;
      }
      if (chain.length === 0)
        throw new NotFoundError(`Account ${account} is not found in the indexed ledgers.`, { account });
      const labels = await lookupLabels(
        engine,
        chain.map((d) => d.Account as string),
      );
      const ancestry = chain
        .map((d, depth) => {
          const entry: Json = {
            account: d.Account,
            inception: d.inception,
            ledger_index: d.ledger_index,
            depth,
            accountName: labelOf(labels, d.Account),
          };
          // The oldest ancestor found has no parent and no activation transaction in the answer.
          if (typeof d.parent === 'string' && depth < chain.length - 1)
            Object.assign(entry, { parent: d.parent, tx_hash: d.tx_hash });
          return entry;
        })
        .reverse();
      const self = chain[0] ?? {};
      return { account, parent: self.parent, inception: self.inception, ledger_index: self.ledger_index, ancestry };
    }),
    route('/escrows', 'Escrows the account created', async (account) => {
      const entries = await objectsOf(engine, account, 'Escrow', [{ term: { Account: account } }]);
      const labels = await lookupLabels(engine, [account]);
      return entries.map((e) => ({ ...rawEntry(e), AccountName: labelOf(labels, e.Account) }));
    }),
    route('/deposit_preauths', 'Accounts this account preauthorised', async (account) => {
      const entries = await objectsOf(engine, account, 'DepositPreauth', [{ term: { Account: account } }]);
      return entries.map((e) => ({ Account: e.Account, Authorize: e.Authorize }));
    }),
    route('/orders', 'Outstanding DEX offers of the account', async (account) => {
      const entries = await objectsOf(engine, account, 'Offer', [{ term: { Account: account } }]);
      return entries.map((e) => {
        const raw = rawEntry(e);
        const sell = ((raw.Flags as number) & 0x00020000) !== 0;
        const gets = e.TakerGets as { value: string; currency: string; issuer?: string; _value: number };
        const pays = e.TakerPays as { value: string; currency: string; issuer?: string; _value: number };
        const amount = (a: typeof gets): Json => ({
          currency: a.currency,
          value: a.value,
          ...(a.issuer === undefined ? {} : { counterparty: a.issuer }),
        });
        const [quantity, total] = sell ? [gets, pays] : [pays, gets];
        return {
          specification: { direction: sell ? 'sell' : 'buy', quantity: amount(quantity), totalPrice: amount(total) },
          properties: {
            maker: raw.Account,
            sequence: raw.Sequence,
            makerExchangeRate: String(total._value / quantity._value),
          },
          ...raw,
        };
      });
    }),
    route('/trustlines2', 'Trust lines of the account, as account_lines shows them', async (account) => {
      const [lines, max] = await Promise.all([linesOf(engine, account), pinnedMax(engine)]);
      return { account, ledger_current_index: max, lines, validated: true };
    }),
    route('/assets', 'Tokens the account holds (positive balances)', async (account) => {
      const lines = (await linesOf(engine, account)).filter((l) => Number(l.balance) > 0);
      const labels = await lookupLabels(
        engine,
        lines.map((l) => l.account),
      );
      return lines.map((l) => ({
        counterparty: l.account,
        currency: l.currency,
        value: l.balance,
        counterpartyName: labelOf(labels, l.account),
      }));
    }),
    route('/obligations', 'Tokens the account issued, summed per currency', async (account) =>
      obligationsOf(await linesOf(engine, account)),
    ),
    defineRoute({
      method: 'get',
      path: '/account/{ACCOUNT}/obligation/{TOKEN_ID}',
      summary: 'The outstanding amount of one token the account issued (a bare number)',
      tags: ['Account'],
      params: Type.Object({
        ACCOUNT: AccountParam,
        TOKEN_ID: Type.String({ pattern: '^(?:[0-9A-Fa-f]{40}|[^\\s./]{3,40})$', description: 'Currency code.' }),
      }),
      query: NoQuery,
      response: Type.Number(),
      handler: async (_ctx, { params }) => {
        const wanted = params.TOKEN_ID;
        const lines = (await linesOf(engine, params.ACCOUNT)).filter(
          (line) =>
            line.currency === wanted ||
            line.currency.toUpperCase() === wanted.toUpperCase() ||
            decodeCurrency(line.currency) === wanted,
        );
        // Every matching code form counts (a 40-hex code and its decoded text are the same token).
        return obligationsOf(lines)
          .reduce((sum, o) => sum.plus(o.value), new BigNumber(0))
          .toNumber();
      },
    }),
    defineRoute({
      method: 'get',
      path: '/account/{ACCOUNT}/transactions',
      summary: 'Transactions that affected the account, newest first, with marker pagination',
      tags: ['Account'],
      params: AccountPath,
      query: TxQuery,
      response: AnyObject,
      handler: async (_ctx, { params, query }) => {
        const account = params.ACCOUNT;
        const filters = query as AccountTxFilters;
        const forward = filters.forward === true;
        const marker = filters.marker === undefined ? undefined : decodeMarker(filters.marker, account, forward);
        if (filters.from !== undefined && filters.to !== undefined && filters.from > filters.to) {
          throw new BadRequestError(
            'Invalid query parameter "from": after "to".',
            { parameter: 'from', in: 'query' },
            ErrorCode.InvalidParameter,
          );
        }
        const max = marker?.max ?? (await pinnedMax(engine));
        const request = buildAccountTxQuery(account, filters, max);
        if (marker !== undefined) request.search_after = marker.after;
        const found = await engine.search<Json>('transactions', request);
        const hits = found.hits.hits.slice(0, filters.limit);
        const docs = hits.map((h) => h._source ?? {});
        const transactions = await shapeTransactions(engine, docs);
        const ledgers = docs.map((d) => Number(d.ledger_index));
        const response: Json = {
          account,
          ledger_index_min: ledgers.length === 0 ? null : Math.min(...ledgers),
          ledger_index_max: max,
          transactions,
          validated: true,
          limit: filters.limit,
        };
        const last = hits[hits.length - 1];
        if (found.hits.hits.length > filters.limit && last?.sort !== undefined) {
          response.marker = encodeMarker({ v: 1, account, max, after: last.sort as [number, number], forward });
        }
        return response;
      },
    }),
  ];
}
