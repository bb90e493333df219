import type { BalanceChangeSource } from '@xle/documents';
import { balanceChangeWrites, balanceMarker } from './batch.js';
import type { IngestEngine } from '../engine/ingest-engine.js';
import type { WriteOp } from '../writes.js';
import { fillRanges, type RangeFill } from './range-fill.js';

/** Ledger markers written per request. */
const PAGE = 2000;

/** The ingest-state record of the fill: the transaction ranges done, so a run resumes after them. */
export const BALANCE_FILL_ID = 'fill.balance-changes';

export type BalanceFill = RangeFill;

/** Fields of a transaction the balance changes are made from. */
export const BALANCE_SOURCE_FIELDS = [
  'hash',
  'ledger_index',
  '_date',
  'TransactionType',
  'Account',
  'Destination',
  'Fee',
  'DestinationTag',
  'SourceTag',
  'meta.AffectedNodes',
  'meta.TransactionIndex',
  'meta.TransactionResult',
];

/**
 * Builds the balance-changes data set from transactions indexed before it existed (range-fill.ts),
 * each range's ledger markers last (see documents' ledgerMarkerDocument): they tell readers the
 * data set holds those ledgers, so a range cut half-way never claims them.
 */
export async function fillBalanceChanges(
  engine: IngestEngine,
  onProgress: (fill: BalanceFill) => void = () => undefined,
): Promise<BalanceFill> {
  const context = { rangeAlias: engine.rangeAlias.bind(engine) };
  return fillRanges<BalanceChangeSource>(
    engine,
    {
      record: BALANCE_FILL_ID,
      fields: BALANCE_SOURCE_FIELDS,
      writes: (tx) => balanceChangeWrites(tx, context),
      afterTransactions: async (ledgers, write) => {
        let ops: WriteOp[] = [];
        for await (const hit of engine.scan<{ ledger_index?: number; close_time?: number }>(
          { indices: ledgers },
          { _source: ['ledger_index', 'close_time'], sort: [{ ledger_index: 'asc' }] },
        )) {
          const ledger = hit._source;
          if (typeof ledger?.ledger_index !== 'number') continue;
          ops.push(balanceMarker(ledger.ledger_index, ledger.close_time, context));
          if (ops.length >= PAGE) {
            await write(ops);
            ops = [];
          }
        }
        await write(ops);
      },
    },
    onProgress,
  );
}
