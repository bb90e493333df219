import type { estypes } from '@elastic/elasticsearch';
import { decodeCtid } from '@xle/documents';

/** A transaction by hash (64 hex) or by ctid (pure). */
export function buildTxLookup(id: string): estypes.SearchRequest {
  if (id.length === 64) return { query: { term: { hash: id.toUpperCase() } }, size: 1 };
  const { ledgerIndex, transactionIndex } = decodeCtid(id);
  return {
    query: {
      bool: {
        filter: [
          { term: { ctid: id.toUpperCase() } },
          { term: { ledger_index: ledgerIndex } },
          { term: { 'meta.TransactionIndex': transactionIndex } },
        ],
      },
    },
    size: 1,
  };
}

/** The transactions of one ledger, in ledger order (pure). */
export function buildLedgerTxQuery(ledgerIndex: number): estypes.SearchRequest {
  return {
    query: { term: { ledger_index: ledgerIndex } },
    sort: [{ 'meta.TransactionIndex': { order: 'asc' } }],
    size: 10000,
  };
}

/** The newest ledgers (pure). */
export function buildLatestLedgersQuery(count: number): estypes.SearchRequest {
  return { query: { match_all: {} }, sort: [{ ledger_index: { order: 'desc' } }], size: count };
}

/** A ledger by hash (pure). */
export function buildLedgerByHash(hash: string): estypes.SearchRequest {
  return { query: { term: { ledger_hash: hash.toUpperCase() } }, size: 1 };
}

/** Transactions by hash; with `fields`, only those fields of each (pure). */
export function buildTxByHashesQuery(hashes: readonly string[], fields?: readonly string[]): estypes.SearchRequest {
  const request: estypes.SearchRequest = {
    query: { terms: { hash: hashes.map((h) => h.toUpperCase()) } },
    size: hashes.length,
  };
  if (fields !== undefined) request._source = [...fields];
  return request;
}
