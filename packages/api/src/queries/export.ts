import type { estypes } from '@elastic/elasticsearch';

/** What /export/{KIND} streams. */
export const EXPORT_KINDS = ['transactions', 'ledgers', 'accounts', 'objects'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

/**
 * Each kind's ledger order: the field holding its ledger (the ledger of a transaction or ledger,
 * the last change of an account or ledger object) and a unique tie-breaker, ascending.
 */
export const EXPORT_ORDER: Readonly<Record<ExportKind, { ledger: string; sort: string[] }>> = {
  transactions: { ledger: 'ledger_index', sort: ['ledger_index', 'meta.TransactionIndex'] },
  ledgers: { ledger: 'ledger_index', sort: ['ledger_index'] },
  accounts: { ledger: '_updated_ledger_index', sort: ['_updated_ledger_index', 'Account'] },
  objects: { ledger: 'ledger_index', sort: ['ledger_index', 'index'] },
};

/** Transactions and ledgers never change once indexed; accounts and objects are current state. */
export const IMMUTABLE_KINDS: ReadonlySet<ExportKind> = new Set(['transactions', 'ledgers']);

/**
 * One page of an export under a point in time (pure): the kind's documents whose ledger lies in
 * [from, to], in ledger order, after `after`.
 * Emits: pit {id, keep_alive}, bool.filter [range <ledger field> gte/lte], sort [<fields> asc],
 * size, search_after, track_total_hits false.
 */
export function buildExportPage(
  kind: ExportKind,
  range: { from?: number | undefined; to?: number | undefined },
  pit: { id: string; keep_alive: string },
  size: number,
  after?: estypes.FieldValue[],
): estypes.SearchRequest {
  const order = EXPORT_ORDER[kind];
  const bounds: Record<string, number> = {};
  if (range.from !== undefined) bounds.gte = range.from;
  if (range.to !== undefined) bounds.lte = range.to;
  return {
    pit,
    query: { bool: { filter: Object.keys(bounds).length === 0 ? [] : [{ range: { [order.ledger]: bounds } }] } },
    sort: order.sort.map((field) => ({ [field]: { order: 'asc' as const } })),
    size,
    track_total_hits: false,
    ...(after === undefined ? {} : { search_after: after }),
  };
}
