import type { Config } from './config.js';

/** Every kind of document the product stores, one index (and one index template) each. */
export const INDEX_KINDS = [
  'transactions',
  'ledgers',
  'balance-changes',
  'locators',
  'activity',
  'accounts',
  'activations',
  'objects',
  'deletions',
  'threads',
  'nfts',
  'tokens',
  'amendments',
  'validators',
  'validations',
  'manifests',
  'nodes',
  'names',
  'network',
  'metrics',
  'facts',
  'balances',
  'kyc',
  'api-keys',
  'usage',
  'payg-channels',
  'sql-cursors',
  'ingest-state',
  'dead-letters',
] as const;
export type IndexKind = (typeof INDEX_KINDS)[number];

export interface IndexNaming {
  prefix: string;
  network: Config['network'];
  /** Ledgers per range index of the ranged kinds (default DEFAULT_RANGE_LEDGERS). */
  rangeLedgers?: number;
}

export function namingOf(config: Pick<Config, 'network' | 'es'>): IndexNaming {
  return { prefix: config.es.indexPrefix, network: config.network, rangeLedgers: config.es.rangeLedgers };
}

/**
 * The kinds that grow with history. Each is written to one index per fixed range of ledgers and
 * read through one alias named like the kind (`xrpl-mainnet-transactions`), so the history spreads
 * over many indices (and their shards over the nodes) while readers see one name. The other
 * kinds hold current state or small data sets: one index each.
 */
export const RANGED_KINDS = ['transactions', 'ledgers', 'balance-changes', 'validations'] as const;
export type RangedKind = (typeof RANGED_KINDS)[number];
/** The kinds held in one index each: read and written by id under the kind's own name. */
export type SingleIndexKind = Exclude<IndexKind, RangedKind>;

export const DEFAULT_RANGE_LEDGERS = 1_000_000;

export function isRangedKind(kind: IndexKind): kind is RangedKind {
  return (RANGED_KINDS as readonly string[]).includes(kind);
}

/** The first ledger of the range that holds `ledgerIndex`. */
export function rangeStart(naming: IndexNaming, ledgerIndex: number): number {
  const size = naming.rangeLedgers ?? DEFAULT_RANGE_LEDGERS;
  return Math.floor(ledgerIndex / size) * size;
}

/** The last ledger of the range that holds `ledgerIndex`. */
export function rangeLast(naming: IndexNaming, ledgerIndex: number): number {
  return rangeStart(naming, ledgerIndex) + (naming.rangeLedgers ?? DEFAULT_RANGE_LEDGERS) - 1;
}

/**
 * The first ledger of a range, read from its alias or one of its indices (`…-0090000000` or
 * `…-0090000000-g2`); undefined for a name that is neither.
 */
export function rangeStartOf(name: string): number | undefined {
  const first = /-(\d{10})(?:-g\d+)?$/.exec(name)?.[1];
  return first === undefined ? undefined : Number(first);
}

/**
 * The range alias of a ranged kind's range: `<kind alias>-<first ledger, 10 digits>`, e.g.
 * `xrpl-mainnet-transactions-0090000000`. Writers write to it (with `require_alias`, so a missing
 * range is never auto-created without its mappings and aliases) and single-document reads read
 * through it; it points at exactly one concrete index, `<range alias>-g<generation>`, which a
 * rebuild replaces by swapping the aliases.
 */
export function rangeAlias(naming: IndexNaming, kind: RangedKind, ledgerIndex: number): string {
  return `${indexName(naming, kind)}-${String(rangeStart(naming, ledgerIndex)).padStart(10, '0')}`;
}

/** The concrete index of a range: its range alias and generation (1 when first created). */
export function rangeIndexName(rangeAliasName: string, generation = 1): string {
  return `${rangeAliasName}-g${generation}`;
}

/**
 * `<prefix>-<network>-<kind>`, e.g. `xrpl-mainnet-transactions`. Mainnet and testnet never share
 * an index, and a test run uses its own prefix so it can never touch the demo's indices.
 */
export function indexName(naming: IndexNaming, kind: IndexKind): string {
  return `${naming.prefix}-${naming.network}-${kind}`;
}

/** Name of the composable index template that shapes `indexName(naming, kind)`. */
export function indexTemplateName(naming: IndexNaming, kind: IndexKind): string {
  return indexName(naming, kind);
}

/** Component templates are shared by both networks of one prefix. */
export function componentTemplateName(prefix: string, component: string): string {
  return `${prefix}-${component}`;
}
