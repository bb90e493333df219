import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { BalanceChangeDoc } from '@xle/documents';
import type { Engine } from '../engine.js';
import { buildAccountingQuery, type AccountingFilters } from '../queries/balances.js';
import { ACCOUNTING_COLUMNS, accountingRows, type AccountingRow } from '../shapers/accounting.js';
import { EXPORT_PAGE } from './export.js';

type Change = Partial<BalanceChangeDoc>;

export interface AccountingExportRequest extends AccountingFilters {
  format: 'csv' | 'ndjson';
}

/**
 * GET /export/balance_changes: an account's balance changes as accounting rows (see
 * shapers/accounting.ts), CSV with a header or NDJSON, oldest first. Read a page at a time with
 * the next page on its way while this one is written (memory stays flat however long the
 * history); the changes of one transaction are grouped, across a page boundary too. The first
 * page is read before answering, so a failing request is a clean error, never a broken stream.
 */
export async function accountingExport(
  engine: Engine,
  request: AccountingExportRequest,
  signal: AbortSignal,
): Promise<Readable> {
  const pages = engine.hits<Change>('balance-changes', buildAccountingQuery(request), {
    pageSize: EXPORT_PAGE,
    prefetch: true,
    signal,
  });
  const first = await pages.next();
  async function* rows(): AsyncGenerator<AccountingRow> {
    let group: Change[] = [];
    let key: string | undefined;
    try {
      let page = first;
      while (page.done !== true) {
        for (const hit of page.value.hits) {
          const change = hit._source ?? {};
          const at = `${change.ledger_index}.${change.transaction_index}`;
          if (at !== key && group.length > 0) {
            yield* accountingRows(group);
            group = [];
          }
          key = at;
          group.push(change);
        }
        page = await pages.next();
      }
      yield* accountingRows(group);
    } finally {
      await pages.return(undefined);
    }
  }
  const source = Readable.from(rows());
  source.once('close', () => void pages.return(undefined));
  if (request.format === 'ndjson')
    return Readable.from(
      (async function* lines(): AsyncGenerator<string> {
        for await (const row of source) yield `${JSON.stringify(row)}\n`;
      })(),
      { objectMode: false },
    );
  const csv = stringify({ header: true, columns: [...ACCOUNTING_COLUMNS] });
  // pipeline, not pipe: a client gone destroys the CSV stream, and with it the rows' walk.
  pipeline(source, csv, () => undefined);
  return csv;
}
