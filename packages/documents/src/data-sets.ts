/**
 * The derived data sets: what a job writes, what its completed run records, and the names that
 * tie a job to the routes that serve its data set.
 */
import { subtractRanges, type LedgerRange } from './ledger-ranges.js';

/** One document of a derived data set, with its deterministic id. */
export interface DataSetDocument {
  _id: string;
  doc: Record<string, unknown>;
}

/** What a derived data set was computed from: the newest indexed ledger at the time. */
export interface AsOf {
  ledger_index: number;
  /** ISO 8601 close time of that ledger. */
  close_time: string;
  /** XRP in existence after that ledger, in drops. */
  total_coins: string;
}

/** A job's completed run, as recorded in the ingest-state index (`job.<name>`). */
export interface JobStatus {
  kind: 'job';
  job: string;
  status: 'complete';
  ledger_index: number;
  documents: number;
  removed: number;
  updated_at: string;
  detail?: Record<string, unknown>;
}

/** The validators job: its run record, `pnpm ingest validators`, and the routes' data set. */
export const VALIDATORS_JOB = 'validators';

export const METRIC_IDS = ['metric', 'type', 'result', 'amm'] as const;
export type MetricId = (typeof METRIC_IDS)[number];

/** Transaction types counted by the `amm` metric (XLS-30 and its clawback). */
const AMM_ACTIONS = ['Create', 'Deposit', 'Withdraw', 'Vote', 'Bid', 'Delete', 'Clawback'] as const;
export const AMM_TRANSACTION_TYPES: readonly `AMM${(typeof AMM_ACTIONS)[number]}`[] = AMM_ACTIONS.map(
  (action) => `AMM${action}` as const,
);

export const FACT_NAMESPACES = ['AMM', 'ObjectCount', 'XRP'] as const;
export type FactNamespace = (typeof FACT_NAMESPACES)[number];

/**
 * Ledger object types the ObjectCount namespace always lists (the spec's table), with "0" when
 * none is indexed; any other type found is listed too.
 */
export const LISTED_OBJECT_TYPES = [
  'AccountRoot',
  'DirectoryNode',
  'Offer',
  'NFTokenPage',
  'RippleState',
  'NFTokenOffer',
  'SignerList',
  'Ticket',
  'LedgerHashes',
  'Escrow',
  'PayChannel',
  'Check',
  'DepositPreauth',
  'NegativeUNL',
  'FeeSettings',
  'Amendments',
] as const;

/** XRP balance brackets, in XRP: [from, to). The last one is open-ended. */
export const XRP_BRACKETS = [0, 20, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000] as const;

/** The fact name part of a bracket: `0_20`, ..., `100000000_plus`. */
export function bracketName(i: number): string {
  const from = XRP_BRACKETS[i] ?? 0;
  const to = XRP_BRACKETS[i + 1];
  return to === undefined ? `${from}_plus` : `${from}_${to}`;
}

function describeBracket(i: number): string {
  const from = XRP_BRACKETS[i] ?? 0;
  const to = XRP_BRACKETS[i + 1];
  return to === undefined
    ? `${from.toLocaleString('en')} XRP or more`
    : `${from.toLocaleString('en')} to under ${to.toLocaleString('en')} XRP`;
}

/** Every fact name of the AMM and XRP namespaces, with its meaning (the README and OpenAPI show them). */
export const FACT_DESCRIPTIONS: Record<'AMM' | 'XRP', Record<string, string>> = {
  XRP: {
    total_supply: 'XRP in existence: total_coins of the newest indexed ledger.',
    destroyed: 'XRP destroyed by fees since the genesis ledger (100,000,000,000 minus total_supply).',
    accounts: 'Accounts (AccountRoot entries) in the indexed state.',
    in_accounts: 'Sum of those accounts’ balances, in XRP.',
    in_escrow: 'XRP locked in Escrow entries.',
    in_paychannels: 'XRP left in payment channels (Amount minus Balance of each PayChannel).',
    ...Object.fromEntries(
      XRP_BRACKETS.flatMap((_, i) => [
        [`accounts_${bracketName(i)}`, `Accounts holding ${describeBracket(i)}.`],
        [`balance_${bracketName(i)}`, `XRP held by the accounts holding ${describeBracket(i)}.`],
      ]),
    ),
  },
  AMM: {
    pools: 'AMM pools (AMM entries) in the indexed state.',
    pools_xrp: 'Pools with XRP as one of their two assets.',
    xrp_locked: 'XRP held by the XRP pools (their AMM accounts), in XRP: the pools /amm/pools lists.',
    xrp_pools_unindexed:
      'XRP pools whose AMM account is not in the indexed state (history only partly indexed): their XRP is not in xrp_locked.',
    trading_fee_avg: 'Mean trading fee of the pools, in units of 1/100,000 (1000 = 1 %).',
    auction_slots_active: 'Pools whose auction slot is held and not expired at the newest indexed ledger.',
  },
};

/**
 * What a ledger-derived data set covers, from its last run against what is indexed now (pure):
 * the run recorded the ledgers it read (`detail.indexed`, every source's checkpoint ranges when it
 * ran) and the state mark it saw (a state snapshot written outside the ledger pipeline changes
 * it). Ledgers indexed since (newer, or older: a backfill or a file ingest below the newest) and a
 * new state mark make it `behind`: its figures leave them out until its next run has read them,
 * whatever its as-of ledger says. Undefined for a run that records no ledgers (the validators,
 * network and nodes data sets, which are not computed from the ledgers).
 */
export interface DataSetCoverage {
  as_of_ledger: number;
  behind: boolean;
  /** Ledgers indexed that the run did not read, and the first few of their ranges. */
  unread_ledgers: number;
  unread_ranges: LedgerRange[];
  /** Ledger state was written outside the pipeline (a state snapshot) since the run. */
  state_changed: boolean;
}

export function dataSetCoverage(
  run: JobStatus,
  indexed: readonly LedgerRange[],
  stateMark: string | null,
): DataSetCoverage | undefined {
  const read = run.detail?.indexed;
  if (!Array.isArray(read)) return undefined;
  const unread = subtractRanges(indexed, read as LedgerRange[]);
  const stateChanged = (run.detail?.state_mark ?? null) !== stateMark;
  const unreadLedgers = unread.reduce((n, r) => n + r.to - r.from + 1, 0);
  return {
    as_of_ledger: run.ledger_index,
    behind: unreadLedgers > 0 || stateChanged,
    unread_ledgers: unreadLedgers,
    unread_ranges: unread.slice(0, 10),
    state_changed: stateChanged,
  };
}
