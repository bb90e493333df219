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

/**
 * The OfferCreate of an account that used a sequence (its Sequence, or a TicketSequence), newest
 * first at or before a ledger (pure): the transaction that created the offer a later one names.
 */
export function buildOfferCreationQuery(account: string, sequence: number): estypes.SearchRequest & { size: number } {
  return {
    query: {
      bool: {
        filter: [{ term: { Account: account } }, { term: { TransactionType: 'OfferCreate' } }],
        should: [{ term: { Sequence: sequence } }, { term: { TicketSequence: sequence } }],
        minimum_should_match: 1,
      },
    },
    sort: [{ ledger_index: { order: 'desc' } }],
    _source: ['hash'],
    size: 1,
    track_total_hits: false,
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

/**
 * A page of ledger headers, newest first, each below `before` when given (pure): the website's
 * ledger list pages with the last index it showed.
 */
export function buildLedgerPageQuery(
  before: number | undefined,
  size: number,
): estypes.SearchRequest & { size: number } {
  return {
    query: before === undefined ? { match_all: {} } : { range: { ledger_index: { lt: before } } },
    sort: [{ ledger_index: { order: 'desc' } }],
    size,
    track_total_hits: false,
  };
}

/** The newest ledgers (pure). */
export function buildLatestLedgersQuery(count: number): estypes.SearchRequest & { size: number } {
  return {
    query: { match_all: {} },
    sort: [{ ledger_index: { order: 'desc' } }],
    size: count,
    track_total_hits: false,
  };
}

/**
 * The last ledger closed at or before an instant (pure): `close_time` is seconds since the XRPL
 * epoch, rounded to the close time resolution, so consecutive ledgers may share one; the newest
 * close time at or before the instant, then the highest index among its ledgers. Sorting on the
 * range's own field lets each shard skip straight to it.
 */
export function buildLedgerAtQuery(rippleTime: number): estypes.SearchRequest & { size: number } {
  return {
    query: { range: { close_time: { lte: rippleTime } } },
    sort: [{ close_time: { order: 'desc' } }, { ledger_index: { order: 'desc' } }],
    size: 1,
    track_total_hits: false,
  };
}
