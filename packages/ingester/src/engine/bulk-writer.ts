import { setTimeout as sleep } from 'node:timers/promises';
import { errors, type Client } from '@elastic/elasticsearch';
import { indexName, type IndexNaming, type Logger } from '@xle/core';
import type { Json } from '@xle/documents';
import type { WriteOp, WriteOptions, WriteResult } from '../writes.js';

export type { WriteOp, WriteOptions, WriteResult };

/**
 * The bulk action line of a write: its index, id and, for ledger state, its external version; a
 * write-once op (`create`) is refused with a 409 when the document exists, counted as superseded.
 */
export function bulkAction(op: WriteOp): { index: Json } | { create: Json } | { delete: Json } {
  const meta: Json = { _index: op.index, _id: op.id };
  if (op.routing !== undefined) meta.routing = op.routing;
  if (op.range !== undefined) meta.require_alias = true;
  if (op.version !== undefined) {
    meta.version = op.version;
    meta.version_type = op.versionType ?? 'external';
  }
  if (op.delete === true) return { delete: meta };
  return op.create === true ? { create: meta } : { index: meta };
}

/** One write as `_bulk` NDJSON lines: its action, then its document (a delete has none). */
export function bulkLines(op: WriteOp): string {
  const action = `${JSON.stringify(bulkAction(op))}\n`;
  return op.delete === true ? action : `${action}${op.json ?? JSON.stringify(op.doc)}\n`;
}

/** One item of a `_bulk` answer: its action and outcome. */
export type BulkItem = Record<string, { status: number; error?: unknown }>;

/**
 * What the writer makes of one item of a `_bulk` answer: done (written, or a delete of a document
 * that is not there: already gone), superseded (409: a newer version is there), or refused.
 */
export function itemOutcome(action: string, status: number): 'done' | 'superseded' | 'refused' {
  if (status < 300 || (action === 'delete' && status === 404)) return 'done';
  return status === 409 ? 'superseded' : 'refused';
}

/** The first item of a `_bulk` answer that the writer would count as refused (see itemOutcome). */
export function firstRefusal(items: readonly BulkItem[] | undefined): { status: number; error?: unknown } | undefined {
  for (const item of items ?? [])
    for (const [action, outcome] of Object.entries(item))
      if (itemOutcome(action, outcome.status) === 'refused') return outcome;
  return undefined;
}

interface Refusal {
  op: WriteOp;
  status: number;
  error: Json;
}

/**
 * Whether a failure is the cluster's weather rather than the request's fault: a node lost or
 * unreachable, a shard without its primary while a replica is promoted, a master being elected,
 * an overloaded node. Such a request is sent again after a pause; anything else is final.
 */
export function isTransient(error: unknown): boolean {
  if (
    error instanceof errors.ConnectionError ||
    error instanceof errors.TimeoutError ||
    error instanceof errors.NoLivingConnectionsError
  )
    return true;
  if (error instanceof errors.ResponseError) return isTransientStatus(error.meta.statusCode ?? 0);
  return false;
}

/** 429 (busy), 5xx (a node or shard unavailable for now): worth retrying. */
export const isTransientStatus = (status: number): boolean => status === 429 || status >= 500;

/** How long the ingester rides out an unavailable cluster before it gives up (the whole call). */
export const TRANSIENT_BUDGET_MS = 180_000;

/**
 * Runs `call` until it succeeds or fails for good: a transient failure (see `isTransient`) is
 * retried after 0.5 s, 1 s, 2 s, ... (at most 10 s apart) until `budgetMs` has passed.
 */
export async function retryTransient<T>(
  call: () => Promise<T>,
  logger: Logger,
  what: string,
  budgetMs = TRANSIENT_BUDGET_MS,
): Promise<T> {
  const deadline = Date.now() + budgetMs;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      if (!isTransient(error) || Date.now() >= deadline) throw error;
      const pause = Math.min(10_000, 500 * 2 ** attempt);
      logger.warn({ what, error: (error as Error).message, retryInMs: pause }, 'engine unavailable, retrying');
      await sleep(pause);
    }
  }
}

/**
 * The one bulk writer of the ingester, the jobs, the imports and the validators consumer: the
 * client's bulk helper with backpressure and 429 retries; a version conflict (409) is a replay,
 * superseded by newer state; a transient refusal (a shard without a primary while a node is lost,
 * an overloaded node) and a failed request are sent again with backoff for up to
 * `TRANSIENT_BUDGET_MS`; any other refusal is recorded in the dead-letter index with the document
 * and counted, and the run goes on. Resolves when every write is acknowledged, superseded or
 * dead-lettered. Every write is idempotent (deterministic ids; external versions; write-once
 * copies), so sending one again after an answer was lost is harmless.
 */
export async function writeOps(
  client: Client,
  naming: IndexNaming,
  logger: Logger,
  ops: readonly WriteOp[],
  options: WriteOptions = {},
): Promise<WriteResult> {
  const result: WriteResult = { documents: ops.length, superseded: [], deadLetters: 0 };
  if (ops.length === 0) return result;
  const refused: Refusal[] = [];
  const key = (index: unknown, id: unknown, version: unknown): string => `${index}\u0000${id}\u0000${version ?? ''}`;
  // Built at a batch's first refusal: a batch written without any refusal costs no key string per write.
  let byKey: Map<string, WriteOp> | undefined;
  const deadline = Date.now() + (options.transientBudgetMs ?? TRANSIENT_BUDGET_MS);
  let pending: readonly WriteOp[] = ops;
  for (let attempt = 0; pending.length > 0; attempt += 1) {
    const again: WriteOp[] = [];
    const lastChance = Date.now() >= deadline;
    try {
      await client.helpers.bulk<WriteOp>({
        datasource: pending as WriteOp[],
        concurrency: options.concurrency ?? 2,
        flushBytes: options.flushBytes ?? 5_000_000,
        retries: options.retries ?? 3,
        wait: 1000,
        refreshOnCompletion: false,
        // Only what is needed to account for every item: the full answer is several times larger to parse.
        filter_path: 'errors,items.*.status,items.*.error',
        onDocument: (op) => (op.delete === true ? bulkAction(op) : [bulkAction(op), op.json ?? op.doc]) as never,
        onDrop: (dropped) => {
          type Meta = { _index: string; _id: string; version?: number };
          const operation = dropped.operation as { index?: Meta; create?: Meta; delete?: Meta };
          const action = operation.index ?? operation.create ?? operation.delete;
          byKey ??= new Map(ops.map((op) => [key(op.index, op.id, op.version), op]));
          const op = byKey.get(key(action?._index, action?._id, action?.version));
          if (op === undefined) return;
          const outcome = itemOutcome(op.delete === true ? 'delete' : 'index', dropped.status);
          if (outcome === 'done') return;
          if (outcome === 'superseded') result.superseded.push(op);
          else if (isTransientStatus(dropped.status) && !lastChance) again.push(op);
          else refused.push({ op, status: dropped.status, error: (dropped.error ?? {}) as Json });
        },
      });
    } catch (error) {
      // The request itself failed (a node lost mid-request, none reachable): send it all again.
      if (!isTransient(error) || lastChance) throw error;
      again.length = 0;
      again.push(...pending);
    }
    if (again.length > 0) {
      const pause = Math.min(10_000, 500 * 2 ** attempt);
      logger.warn(
        { documents: again.length, retryInMs: pause },
        'writes refused for now (cluster unavailable), retrying',
      );
      await sleep(pause);
    }
    pending = again;
  }
  if (refused.length > 0) result.deadLetters = await recordDeadLetters(client, naming, logger, refused);
  if (options.refresh === true)
    await retryTransient(
      () => client.indices.refresh({ index: [...new Set(ops.map((op) => op.index))] }),
      logger,
      'refresh after writes',
    );
  return result;
}

async function recordDeadLetters(
  client: Client,
  naming: IndexNaming,
  logger: Logger,
  refused: readonly Refusal[],
): Promise<number> {
  const now = new Date().toISOString();
  const deadLetters = indexName(naming, 'dead-letters');
  const operations = refused.flatMap(({ op, status, error }) => [
    { index: { _index: deadLetters, _id: `${op.index}:${op.id}:${op.version ?? 0}` } },
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
  const response = await retryTransient(() => client.bulk({ operations }), logger, 'dead letters');
  if (response.errors) throw new Error('the dead-letter index refused documents too; stopping so nothing is lost');
  // One line per kind of refusal, with an example, rather than one per document.
  const kinds = new Map<string, { count: number; example: { id: string; reason: unknown } }>();
  for (const { op, status, error } of refused) {
    const kindKey = `${op.index} ${status} ${String(error.type)}`;
    const kind = kinds.get(kindKey) ?? { count: 0, example: { id: op.id, reason: error.reason } };
    kind.count += 1;
    kinds.set(kindKey, kind);
  }
  for (const [refusal, { count, example }] of kinds)
    logger.warn({ refusal, count, example }, 'documents refused, recorded as dead letters');
  return refused.length;
}
