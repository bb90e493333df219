import Type from 'typebox';
import { NotFoundError } from '@xle/core';
import type { Engine } from '../engine.js';
import { lookupLabels } from '../labels.js';
import { buildLatestLedgersQuery, buildLedgerByHash, buildLedgerTxQuery, buildTxLookup } from '../queries/lookups.js';
import { LedgerIdParam, LEDGER_INDEX_MAX, LEDGER_INDEX_MIN, TxIdParam } from '../schemas/params.js';
import { shapeLedger } from '../shapers/ledger.js';
import { shapeTransaction, transactionLabelAddresses } from '../shapers/transaction.js';
import { AnyObject, defineRoute, NoQuery, type AnyRoute } from '../route.js';
import { BadRequestError, ErrorCode } from '@xle/core';

type Json = Record<string, unknown>;

/** Shapes transaction documents with one batched label lookup and one amendment-name lookup. */
export async function shapeTransactions(engine: Engine, docs: Json[]): Promise<Json[]> {
  const labels = await lookupLabels(engine, docs.flatMap(transactionLabelAddresses));
  const amendmentIds = docs.filter((d) => d.TransactionType === 'EnableAmendment').map((d) => String(d.Amendment));
  const amendments = await engine.mget<{ name?: string }>('amendments', amendmentIds);
  const names = new Map(
    [...amendments].flatMap(([id, a]) => (a.name === undefined ? [] : [[id, a.name] as [string, string]])),
  );
  return docs.map((doc) => shapeTransaction(doc, labels, names));
}

async function ledgerByIdOrHash(engine: Engine, id: string): Promise<Json> {
  if (id.length === 64) {
    const found = await engine.search<Json>('ledgers', buildLedgerByHash(id));
    const doc = found.hits.hits[0]?._source;
    if (doc === undefined) throw new NotFoundError(`Ledger ${id.toUpperCase()} is not indexed.`, { ledger: id });
    return doc;
  }
  const index = Number(id);
  if (!Number.isInteger(index) || index < LEDGER_INDEX_MIN || index > LEDGER_INDEX_MAX) {
    throw new BadRequestError(
      `Invalid path parameter "LEDGER_INDEX": must be between ${LEDGER_INDEX_MIN} and ${LEDGER_INDEX_MAX}.`,
      { parameter: 'LEDGER_INDEX', in: 'path', value: id },
      ErrorCode.InvalidParameter,
    );
  }
  const doc = await engine.get<Json>('ledgers', String(index));
  if (doc === undefined) throw new NotFoundError(`Ledger ${index} is not indexed.`, { ledger: index });
  return doc;
}

export function transactionRoutes(engine: Engine): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/tx/{HASH}',
      summary: 'A validated transaction by hash, or by compact transaction identifier (ctid)',
      tags: ['Transaction and ledger'],
      params: Type.Object({ HASH: TxIdParam }),
      query: NoQuery,
      response: AnyObject,
      handler: async (_ctx, { params }) => {
        const found = await engine.search<Json>('transactions', buildTxLookup(params.HASH));
        const doc = found.hits.hits[0]?._source;
        if (doc === undefined)
          throw new NotFoundError(`Transaction ${params.HASH.toUpperCase()} is not indexed.`, { hash: params.HASH });
        return (await shapeTransactions(engine, [doc]))[0];
      },
    }),
    defineRoute({
      method: 'get',
      path: '/ledgers',
      summary: 'The last 10 ledgers closed',
      tags: ['Transaction and ledger'],
      params: Type.Object({}),
      query: NoQuery,
      response: Type.Object({ current_ledger: Type.Integer(), ledgers: Type.Array(AnyObject) }),
      handler: async () => {
        const found = await engine.search<Json>('ledgers', buildLatestLedgersQuery(10));
        const ledgers = found.hits.hits.map((h) => shapeLedger(h._source ?? {}, { withDestroyed: true }));
        return { current_ledger: ledgers[0]?.ledger_index ?? null, ledgers };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/ledger/{LEDGER_INDEX}',
      summary: 'A ledger header by index or hash',
      tags: ['Transaction and ledger'],
      params: Type.Object({ LEDGER_INDEX: LedgerIdParam }),
      query: NoQuery,
      response: AnyObject,
      handler: async (_ctx, { params }) => shapeLedger(await ledgerByIdOrHash(engine, params.LEDGER_INDEX)),
    }),
    defineRoute({
      method: 'get',
      path: '/ledger/{LEDGER_INDEX}/transactions',
      summary: 'The transactions of a ledger, in ledger order',
      tags: ['Transaction and ledger'],
      params: Type.Object({ LEDGER_INDEX: LedgerIdParam }),
      query: NoQuery,
      response: Type.Array(AnyObject),
      handler: async (_ctx, { params }) => {
        const ledger = await ledgerByIdOrHash(engine, params.LEDGER_INDEX);
        const found = await engine.search<Json>('transactions', buildLedgerTxQuery(Number(ledger.ledger_index)));
        return shapeTransactions(
          engine,
          found.hits.hits.map((h) => h._source ?? {}),
        );
      },
    }),
  ];
}
