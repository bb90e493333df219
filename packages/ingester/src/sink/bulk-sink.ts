import { setImmediate as nextTurn } from 'node:timers/promises';
import { type Client, type IndexNaming, type Logger, indexName } from '@xle/core';
import {
  type LedgerInput,
  transformLedger,
  stateChanges,
  type AccountActivation,
  transformTransaction,
  type Json,
} from '@xle/documents';

/**
 * Longest stretch, in milliseconds, that building a batch keeps the event loop to itself. Building
 * a full batch takes a few hundred milliseconds of CPU; without a break, the answers of the bulk
 * requests in flight meanwhile would sit unread and the next requests unsent, leaving the engine
 * idle in the middle of a run.
 */
const BUILD_SLICE_MS = 10;

/** One write: deterministic `_id`, optional external version (ledger order). */
export interface WriteOp {
  index: string;
  id: string;
  doc: Json;
  /** `doc` as JSON, made when the batch is built so the bulk helper only has to send it. */
  json?: string;
  version?: number;
  ledgerIndex: number;
  /** Account activation carried by this write, re-applied if a newer state already exists. */
  activation?: AccountActivation;
}

export interface BatchResult {
  ledgers: number;
  documents: number;
  /** Writes refused because the engine already holds a newer version (a replay): not an error. */
  superseded: number;
  deadLetters: number;
}

export interface SinkOptions {
  client: Client;
  naming: IndexNaming;
  logger: Logger;
  networkId: number;
  /** Parallel bulk requests in flight (backpressure beyond that). */
  concurrency?: number;
  flushBytes?: number;
  /** Retries of a 429 (engine busy) before a document goes to the dead-letter index. */
  retries?: number;
}

/** The bulk action line of a write: its index, id and, for ledger state, its external version. */
export function bulkAction(op: WriteOp): { index: Json } {
  const meta: Json = { _index: op.index, _id: op.id };
  if (op.version !== undefined) {
    meta.version = op.version;
    meta.version_type = 'external';
  }
  return { index: meta };
}

const ACTIVATION_FIELDS = [
  'parent',
  'initial_balance',
  '_initial_balance',
  'inception',
  'ledger_index',
  'tx_hash',
] as const;

/**
 * Builds every document of a batch of validated ledgers and writes them with the client's bulk
 * helper. Documents have deterministic ids (ledger index, transaction hash, object index, account
 * address) and ledger-state documents an external version (ledger index, transaction index), so
 * writing the same ledgers again, in any order, always ends in the same indices. A document the
 * engine refuses is retried, then recorded in the dead-letter index and counted, never dropped.
 */
export class BulkSink {
  private readonly activations = new Map<string, AccountActivation | null>();
  private readonly index: (kind: Parameters<typeof indexName>[1]) => string;

  constructor(private readonly options: SinkOptions) {
    this.index = (kind) => indexName(options.naming, kind);
  }

  /** The writes of a batch of ledgers, in ledger then transaction order (pure apart from the activation cache). */
  async buildOps(ledgers: readonly LedgerInput[]): Promise<WriteOp[]> {
    const ops: WriteOp[] = [];
    const accountOps: WriteOp[] = [];
    let slice = performance.now();
    const pause = async (): Promise<void> => {
      if (performance.now() - slice < BUILD_SLICE_MS) return;
      await nextTurn();
      slice = performance.now();
    };
    for (const ledger of ledgers) {
      await pause();
      ops.push({
        index: this.index('ledgers'),
        id: String(ledger.ledger_index),
        doc: transformLedger(ledger) as unknown as Json,
        ledgerIndex: ledger.ledger_index,
      });
      for (const tx of ledger.transactions) {
        const doc = transformTransaction(tx, {
          ledgerIndex: ledger.ledger_index,
          closeTime: ledger.close_time,
          networkId: this.options.networkId,
          ledgerHash: ledger.ledger_hash,
        });
        ops.push({ index: this.index('transactions'), id: doc.hash, doc, ledgerIndex: ledger.ledger_index });
        const changes = stateChanges({ ...tx, _date: doc._date }, ledger.ledger_index);
        for (const change of changes.objects) {
          ops.push({
            index: this.index('objects'),
            id: change.id,
            doc: change.doc,
            version: change.version,
            ledgerIndex: ledger.ledger_index,
          });
        }
        for (const change of changes.accounts) {
          if (change.activation !== undefined) this.activations.set(change.id, change.activation);
          const op: WriteOp = {
            index: this.index('accounts'),
            id: change.id,
            doc: change.doc,
            version: change.version,
            ledgerIndex: ledger.ledger_index,
          };
          if (change.activation !== undefined) op.activation = change.activation;
          accountOps.push(op);
        }
      }
    }
    await this.addActivations(accountOps);
    ops.push(...accountOps);
    // Serialised now, while earlier batches are being written, rather than inside the bulk helper
    // just before each request: the engine is not kept waiting on a body between two requests.
    for (let i = 0; i < ops.length; i += 1) {
      if ((i & 255) === 0) await pause();
      const op = ops[i] as WriteOp;
      op.json = JSON.stringify(op.doc);
    }
    return ops;
  }

  /** Adds each account's activation fields (from this write, or as indexed) to account writes. */
  async addActivations(accountOps: WriteOp[]): Promise<void> {
    await this.loadActivations(accountOps.filter((op) => !this.activations.has(op.id)).map((op) => op.id));
    for (const op of accountOps) {
      const activation = op.activation ?? this.activations.get(op.id) ?? undefined;
      if (activation !== undefined) op.doc = { ...op.doc, ...activation };
    }
  }

  /** Activation fields of accounts created in earlier batches, read once and cached. */
  private async loadActivations(ids: string[]): Promise<void> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return;
    const result = await this.options.client.mget<Json>({
      index: this.index('accounts'),
      ids: unique,
      _source_includes: [...ACTIVATION_FIELDS],
    });
    for (const entry of result.docs) {
      const source = 'found' in entry && entry.found ? entry._source : undefined;
      this.activations.set(
        entry._id,
        source !== undefined && typeof source.parent === 'string' ? (source as unknown as AccountActivation) : null,
      );
    }
  }

  async writeBatch(ledgers: readonly LedgerInput[]): Promise<BatchResult> {
    return this.writeOps(ledgers.length, await this.buildOps(ledgers));
  }

  /** Writes prepared operations; resolves when every one is acknowledged, superseded or dead-lettered. */
  async writeOps(ledgerCount: number, ops: WriteOp[]): Promise<BatchResult> {
    const result: BatchResult = { ledgers: ledgerCount, documents: ops.length, superseded: 0, deadLetters: 0 };
    const refused: { op: WriteOp; status: number; error: Json }[] = [];
    const reapply: WriteOp[] = [];
    const key = (index: unknown, id: unknown, version: unknown): string => `${index}\u0000${id}\u0000${version ?? ''}`;
    // Built at a batch's first refusal: a batch written without any refusal costs no key string per write.
    let byKey: Map<string, WriteOp> | undefined;

    await this.options.client.helpers.bulk<WriteOp>({
      datasource: ops,
      concurrency: this.options.concurrency ?? 2,
      flushBytes: this.options.flushBytes ?? 5_000_000,
      retries: this.options.retries ?? 3,
      wait: 1000,
      refreshOnCompletion: false,
      // Only what is needed to account for every item: the full answer is several times larger to parse.
      filter_path: 'errors,items.*.status,items.*.error',
      onDocument: (op) => [bulkAction(op), op.json ?? op.doc] as never,
      onDrop: (dropped) => {
        const action = (dropped.operation as { index?: { _index: string; _id: string; version?: number } }).index;
        byKey ??= new Map(ops.map((op) => [key(op.index, op.id, op.version), op]));
        const op = byKey.get(key(action?._index, action?._id, action?.version));
        if (op === undefined) return;
        if (dropped.status === 409) {
          // The engine already holds a newer (or the same) version: a replay, nothing lost.
          result.superseded += 1;
          if (op.activation !== undefined) reapply.push(op);
          return;
        }
        refused.push({ op, status: dropped.status, error: (dropped.error ?? {}) as Json });
      },
    });

    if (reapply.length > 0) await this.reapplyActivations(reapply);
    if (refused.length > 0) result.deadLetters = await this.recordDeadLetters(refused);
    return result;
  }

  /**
   * An account created in an older ledger than its indexed state: add the activation to the newer
   * document. Re-indexed whole at its own external version with `external_gte`, never with the
   * update API, which would raise the version by one and so refuse the account's next change in
   * the same ledger. A newer write landing between the read and the write makes that document
   * conflict again: it is read and merged again.
   */
  private async reapplyActivations(ops: WriteOp[]): Promise<void> {
    let pending = ops;
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt === 5) throw new Error(`could not add the activation of ${pending.length} accounts`);
      const current = await this.options.client.mget<Json>({
        docs: pending.map((op) => ({ _index: op.index, _id: op.id })),
      });
      const operations = current.docs.flatMap((entry, i) => {
        const op = pending[i] as WriteOp;
        const found = 'found' in entry && entry.found && entry._source !== undefined;
        // Not found: the newer document is gone (its index was re-created); this write stands alone.
        const doc = found ? { ...entry._source, ...op.activation } : op.doc;
        const version = found ? (entry._version as number) : (op.version as number);
        return [{ index: { _index: op.index, _id: op.id, version, version_type: 'external_gte' } }, doc];
      });
      const response = await this.options.client.bulk({ operations });
      const sent = pending;
      pending = [];
      response.items.forEach((item, i) => {
        const status = item.index?.status ?? 500;
        if (status === 409) pending.push(sent[i] as WriteOp);
        else if (status >= 300) throw new Error(`could not add the activation of account ${sent[i]?.id}: ${status}`);
      });
    }
  }

  private async recordDeadLetters(refused: { op: WriteOp; status: number; error: Json }[]): Promise<number> {
    const now = new Date().toISOString();
    const operations = refused.flatMap(({ op, status, error }) => [
      { index: { _index: this.index('dead-letters'), _id: `${op.index}:${op.id}:${op.version ?? 0}` } },
      {
        target_index: op.index,
        doc_id: op.id,
        version: op.version ?? 0,
        ledger_index: op.ledgerIndex,
        status,
        error_type: String(error.type ?? 'unknown'),
        error_reason: String(error.reason ?? JSON.stringify(error)).slice(0, 8000),
        document: op.doc,
        failed_at: now,
      },
    ]);
    const response = await this.options.client.bulk({ operations });
    if (response.errors) throw new Error('the dead-letter index refused documents too; stopping so nothing is lost');
    // One line per kind of refusal, with an example, rather than one per document.
    const kinds = new Map<string, { count: number; example: { id: string; reason: unknown } }>();
    for (const { op, status, error } of refused) {
      const key = `${op.index} ${status} ${String(error.type)}`;
      const kind = kinds.get(key) ?? { count: 0, example: { id: op.id, reason: error.reason } };
      kind.count += 1;
      kinds.set(key, kind);
    }
    for (const [key, { count, example }] of kinds) {
      this.options.logger.warn({ refusal: key, count, example }, 'documents refused, recorded as dead letters');
    }
    return refused.length;
  }

  async refresh(): Promise<void> {
    await this.options.client.indices.refresh({
      index: ['ledgers', 'transactions', 'objects', 'accounts', 'dead-letters', 'ingest-state'].map((k) =>
        this.index(k as never),
      ),
    });
  }
}
