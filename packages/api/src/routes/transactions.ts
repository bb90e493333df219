import Type from 'typebox';
import { defineRoute, NoParams, NoQuery, type AnyRoute } from '@xle/core';
import type { Engine } from '../engine.js';
import { latestLedgers, ledgerAt, ledgerById, ledgerTransactions } from '../resources/ledgers.js';
import { transactionById } from '../resources/transactions.js';
import { InstantParam, LedgerIdParam, parseInstant, TxIdParam } from '../schemas/params.js';
import { Ledger, LedgersList, LedgerTransactions, Transaction } from '../schemas/responses/transactions.js';

const TAGS = ['Transaction and ledger'];
const LedgerPath = Type.Object({ LEDGER_INDEX: LedgerIdParam });

export function transactionRoutes(engine: Engine): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/tx/{HASH}',
      summary: 'A validated transaction by hash, or by compact transaction identifier (ctid)',
      tags: TAGS,
      params: Type.Object({ HASH: TxIdParam }),
      query: NoQuery,
      response: Transaction,
      // Only validated ledgers are indexed: a transaction found never changes.
      cache: 'immutable',
      answerCache: true,
      handler: ({ params }) => transactionById(engine, params.HASH),
    }),
    defineRoute({
      method: 'get',
      path: '/ledgers',
      summary: 'The last 10 ledgers closed',
      tags: TAGS,
      params: NoParams,
      query: NoQuery,
      response: LedgersList,
      cache: 'latest',
      handler: () => latestLedgers(engine),
    }),
    // Before /ledger/{LEDGER_INDEX}/transactions, whose path it shares in shape.
    defineRoute({
      method: 'get',
      path: '/ledger/at/{DATE}',
      summary: 'The last ledger closed at or before an instant',
      description:
        'Answers the ledger header of the last indexed ledger whose close time is at or before DATE, and its index in the `X-Ledger-Index` header. 404 when DATE is before the first indexed ledger. Close times are rounded by the network to its close time resolution (10 s on mainnet).',
      tags: TAGS,
      params: Type.Object({ DATE: InstantParam }),
      query: NoQuery,
      response: Ledger,
      cache: 'latest',
      handler: async ({ params }, ctx) => {
        const ledger = await ledgerAt(engine, parseInstant(params.DATE) as number);
        ctx.set('X-Ledger-Index', String(ledger.ledger_index));
        return ledger;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/ledger/{LEDGER_INDEX}',
      summary: 'A ledger header by index or hash',
      tags: TAGS,
      params: LedgerPath,
      query: NoQuery,
      response: Ledger,
      cache: 'immutable',
      answerCache: true,
      handler: ({ params }) => ledgerById(engine, params.LEDGER_INDEX),
    }),
    defineRoute({
      method: 'get',
      path: '/ledger/{LEDGER_INDEX}/transactions',
      summary: 'The transactions of a ledger, in ledger order',
      description:
        "All of them or none: while some of the ledger's transactions are not searchable yet (the newest ledgers for about a second, a backfill's until its next refresh) it answers 503 LEDGER_NOT_READY with Retry-After; when the engine refused some of them as they were written (dead letters), 500 LEDGER_INCOMPLETE; never a part of the list.",
      tags: TAGS,
      params: LedgerPath,
      query: NoQuery,
      response: LedgerTransactions,
      cache: 'immutable',
      handler: ({ params }) => ledgerTransactions(engine, params.LEDGER_INDEX),
    }),
  ];
}
