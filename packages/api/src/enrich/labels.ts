import { totalHits } from '@xle/core';
import type { Json } from '@xle/documents';
import type { Engine } from '../engine.js';
import { LABEL_FIELDS, toLabel, type Label, type Labels } from '../shapers/labels.js';

/**
 * Labels change only when a names import runs: a change shows within LABEL_TTL_MS.
 */
export const LABEL_TTL_MS = 30_000;

/**
 * Up to this many labels, the whole names index is kept in memory (about 200 bytes each), so that
 * an answer that names accounts costs no engine request for their labels; past it, labels are
 * looked up per answer, the uncached ones in one batched request.
 */
export const LABEL_BOOK_MAX = 100_000;

/** What tells one state of the names index from another: its count and its newest write. */
interface Fingerprint {
  count: number;
  latest: number | null;
}

/**
 * Every label of the names index, in memory. Checked at most every LABEL_TTL_MS, in the
 * background of a request (the request is answered from the book it has): one `size: 0` search
 * for the index's fingerprint, and a full read only when it changed (an import writes every record
 * of its source with a new `updated_at`, and deletes the rest).
 */
class LabelBook {
  private labels: Map<string, Label> | undefined;
  private fingerprint: Fingerprint | undefined;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private checking: Promise<void> | undefined;

  constructor(
    private readonly engine: Engine,
    private readonly now: () => number,
    private readonly max: number,
  ) {}

  /** The check under way, if any (tests wait for it). */
  async settled(): Promise<void> {
    await this.checking?.catch(() => undefined);
  }

  /** The book, or undefined when the index holds more than LABEL_BOOK_MAX labels. */
  async current(): Promise<ReadonlyMap<string, Label> | undefined> {
    if (this.now() - this.checkedAt >= LABEL_TTL_MS) {
      this.checking ??= this.check().finally(() => {
        this.checking = undefined;
      });
      // The first read waits for the book; later ones answer from the book they have, and a
      // failed check is tried again by the next request after LABEL_TTL_MS.
      if (this.fingerprint === undefined) await this.checking;
      else this.checking.catch(() => undefined);
    }
    return this.labels;
  }

  private async check(): Promise<void> {
    const answer = await this.engine.search('names', {
      size: 0,
      track_total_hits: true,
      aggs: { latest: { max: { field: 'updated_at' } } },
    });
    const fingerprint: Fingerprint = {
      count: totalHits(answer.hits),
      latest: (answer.aggregations?.latest as { value: number | null } | undefined)?.value ?? null,
    };
    const same =
      this.fingerprint !== undefined &&
      this.fingerprint.count === fingerprint.count &&
      this.fingerprint.latest === fingerprint.latest;
    if (!same) {
      if (fingerprint.count > this.max) this.labels = undefined;
      else {
        const labels = new Map<string, Label>();
        const pages = this.engine.read.hits<Json>({
          index: this.engine.index('names'),
          sort: [{ account: 'asc' }],
          _source: [...LABEL_FIELDS],
        });
        for await (const page of pages)
          for (const hit of page.hits)
            if (hit._id !== undefined) labels.set(hit._id, toLabel(hit._id, hit._source ?? {}));
        this.labels = labels;
      }
      this.fingerprint = fingerprint;
    }
    this.checkedAt = this.now();
  }
}

const books = new WeakMap<Engine, LabelBook>();

/** The label book of an engine (one per network); its first caller may set the clock and the cap (tests). */
export function labelBook(
  engine: Engine,
  { now = () => performance.now(), max = LABEL_BOOK_MAX }: { now?: () => number; max?: number } = {},
): LabelBook {
  let book = books.get(engine);
  if (book === undefined) {
    book = new LabelBook(engine, now, max);
    books.set(engine, book);
  }
  return book;
}

/** The enrichment step of every answer that names accounts: their labels, from the book when it holds them all. */
export async function lookupLabels(engine: Engine, addresses: Iterable<string | undefined>): Promise<Labels> {
  // Pseudo-transactions (UNLModify, EnableAmendment, SetFee) carry an empty Account: no label, no lookup.
  const wanted = [...addresses].filter((a): a is string => typeof a === 'string' && a !== '');
  const labels = new Map<string, Label>();
  const book = await labelBook(engine).current();
  if (book !== undefined) {
    for (const account of wanted) {
      const label = book.get(account);
      if (label !== undefined) labels.set(account, label);
    }
    return labels;
  }
  const found = await engine.mgetCached<Json>('names', wanted, LABEL_TTL_MS);
  for (const [account, doc] of found) labels.set(account, toLabel(account, doc));
  return labels;
}
