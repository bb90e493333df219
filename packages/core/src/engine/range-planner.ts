import type { Client } from '@elastic/elasticsearch';
import { indexName, rangeStart, type IndexNaming, type RangedKind } from '../index-names.js';
import { MAX_NAMED_RANGES, rangesOverlapping, rangeStartsBehind, type LedgerSpan } from './ranges.js';

export interface RangePlannerOptions {
  /** How long a kind's list of ranges is used before it is read again (0: every time). */
  ttlMs?: number;
  /** Runs the listing (the ingester rides out a lost node with it). */
  guard?: <T>(what: string, call: () => Promise<T>) => Promise<T>;
  now?: () => number;
}

/**
 * Which range indices a read of a kind that grows with history names: the one implementation the
 * REST routes, search, SQL, exports and the jobs share. The ranges behind a kind's read alias are
 * listed from the cluster (one cluster-state read), kept `ttlMs`, and listed again at once when a
 * read reaches a range past the newest listed (one created since). A read confined to some
 * ledgers names the ranges that overlap them; none overlapping, or more than MAX_NAMED_RANGES (a
 * request line names at most that many), it names the kind's alias and filters on the ledgers, so
 * the engine's shards skip the ranges that cannot match.
 */
export class RangePlanner {
  private readonly lists = new Map<RangedKind, { at: number; starts: number[] }>();

  constructor(
    private readonly client: Client,
    private readonly naming: IndexNaming,
    private readonly options: RangePlannerOptions = {},
  ) {}

  /** The kind's read alias: every range. */
  alias(kind: RangedKind): string {
    return indexName(this.naming, kind);
  }

  /**
   * The first ledgers of the kind's ranges, oldest first: the kept list, unless it is older than
   * `ttlMs` or `reach` (a ledger a read wants) lies in a range past its newest.
   */
  async starts(kind: RangedKind, reach?: number): Promise<number[]> {
    const now = this.options.now?.() ?? performance.now();
    const kept = this.lists.get(kind);
    const newest = kept?.starts[kept.starts.length - 1];
    const beyond = reach !== undefined && (newest === undefined || rangeStart(this.naming, reach) > newest);
    if (kept !== undefined && !beyond && now - kept.at < (this.options.ttlMs ?? 5000)) return kept.starts;
    const list = (): Promise<number[]> => rangeStartsBehind(this.client, this.naming, kind);
    const starts = await (this.options.guard === undefined ? list() : this.options.guard('list ranges', list));
    this.lists.set(kind, { at: now, starts });
    return starts;
  }

  /** The range aliases that may hold a ledger of any of `spans`, oldest first. */
  async overlapping(kind: RangedKind, spans: readonly LedgerSpan[]): Promise<string[]> {
    if (spans.length === 0) return [];
    const reach = Math.max(...spans.map((s) => s.lte ?? -1));
    const starts = await this.starts(kind, reach < 0 ? undefined : reach);
    return [...new Set(spans.flatMap((span) => rangesOverlapping(this.naming, kind, starts, span)))].sort();
  }

  /**
   * What a read confined to `spans` names: those ranges' aliases, joined, or undefined for the
   * kind's alias (no span, none overlapping, more than MAX_NAMED_RANGES). With `newest`, a span
   * open upwards or reaching the newest listed range reads the alias too: a range created after
   * the listing could hold its ledgers.
   */
  async target(kind: RangedKind, spans: readonly LedgerSpan[], { newest = false } = {}): Promise<string | undefined> {
    if (spans.length === 0 || spans.every((s) => s.gte === undefined && s.lte === undefined)) return undefined;
    if (newest) {
      const starts = await this.starts(kind);
      const last = starts[starts.length - 1];
      if (last === undefined || spans.some((s) => s.lte === undefined || s.lte >= last)) return undefined;
    }
    const names = await this.overlapping(kind, spans);
    return names.length === 0 || names.length > MAX_NAMED_RANGES ? undefined : names.join(',');
  }
}
