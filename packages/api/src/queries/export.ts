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
 * The request of an export (pure): the kind's documents whose ledger lies in [from, to], in
 * ledger order; the read engine's walker adds the point in time, the page size and `search_after`.
 * Emits: bool.filter [range <ledger field> gte/lte], sort [<fields> asc].
 */
export function buildExportQuery(
  kind: ExportKind,
  range: { from?: number | undefined; to?: number | undefined },
): estypes.SearchRequest {
  const order = EXPORT_ORDER[kind];
  const bounds: Record<string, number> = {};
  if (range.from !== undefined) bounds.gte = range.from;
  if (range.to !== undefined) bounds.lte = range.to;
  return {
    query: { bool: { filter: Object.keys(bounds).length === 0 ? [] : [{ range: { [order.ledger]: bounds } }] } },
    sort: order.sort.map((field) => ({ [field]: { order: 'asc' as const } })),
  };
}
