import type { RangedKind } from '@xle/core';
import type { AccountActivation, Json } from '@xle/documents';

// What the ingester's stages hand each other: the writes a transform builds and the sink sends,
// and what writing them came to (see engine/bulk-writer.ts).

/** One write: its index, deterministic `_id`, and for ledger state an external version (ledger order). */
export interface WriteOp {
  index: string;
  id: string;
  doc: Json;
  /** `doc` as JSON, made when the batch is built so the writer only has to send it. */
  json?: string;
  version?: number;
  /** `external` (default with a version): older or equal versions are refused; `external_gte`: equal ones are written. */
  versionType?: 'external' | 'external_gte';
  /** The ledger the write belongs to (0 when none), recorded with a dead letter. */
  ledgerIndex: number;
  /**
   * Set when `index` is the range alias of a ranged kind: the writer creates the range when it is
   * new, and the action requires the alias, so that a range is never auto-created as a bare index.
   */
  range?: { kind: RangedKind; ledgerIndex: number };
  /** Write only if absent (a copy that must not overwrite newer writes): an existing document is a 409, superseded. */
  create?: true;
  /**
   * Delete the document at `version` (external): a newer one stays (409, superseded), a missing
   * one is no error. `doc` is not sent.
   */
  delete?: true;
  /** The shard routing of the document (the activity index routes by its key). */
  routing?: string;
  /** Written, and acknowledged, before the other writes of its batch (records the others rely on). */
  first?: true;
  /** Account activation carried by this write, re-applied if a newer state already exists. */
  activation?: AccountActivation;
}

export interface WriteResult {
  documents: number;
  /** Writes refused because the engine already holds a newer version (a replay): not an error. */
  superseded: WriteOp[];
  /** Writes the engine refused for good: recorded in the dead-letter index and counted, never dropped. */
  deadLetters: number;
}

export interface WriteOptions {
  /** Parallel bulk requests in flight (backpressure beyond that). */
  concurrency?: number;
  flushBytes?: number;
  /** Retries of a 429 (engine busy) before a document goes to the dead-letter index. */
  retries?: number;
  /** Make the written documents searchable before resolving. */
  refresh?: boolean;
  /** How long transient refusals and failed requests are retried (default TRANSIENT_BUDGET_MS). */
  transientBudgetMs?: number;
}
