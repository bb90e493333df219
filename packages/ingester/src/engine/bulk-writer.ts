import type { Client } from '@elastic/elasticsearch';
import { indexName, type IndexNaming, type Logger } from '@xle/core';
import type { Json } from '@xle/documents';
import type { WriteOp, WriteOptions, WriteResult } from '../writes.js';

export type { WriteOp, WriteOptions, WriteResult };

/** The bulk action line of a write: its index, id and, for ledger state, its external version. */
export function bulkAction(op: WriteOp): { index: Json } {
  const meta: Json = { _index: op.index, _id: op.id };
  if (op.version !== undefined) {
    meta.version = op.version;
    meta.version_type = op.versionType ?? 'external';
  }
  return { index: meta };
}

interface Refusal {
  op: WriteOp;
  status: number;
  error: Json;
}

/**
 * The one bulk writer of the ingester, the jobs, the imports and the validators consumer: the
 * client's bulk helper with backpressure and 429 retries; a version conflict (409) is a replay,
 * superseded by newer state; any other refusal is recorded in the dead-letter index with the
 * document and counted, and the run goes on. Resolves when every write is acknowledged,
 * superseded or dead-lettered.
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

  await client.helpers.bulk<WriteOp>({
    datasource: ops as WriteOp[],
    concurrency: options.concurrency ?? 2,
    flushBytes: options.flushBytes ?? 5_000_000,
    retries: options.retries ?? 3,
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
      if (dropped.status === 409) result.superseded.push(op);
      else refused.push({ op, status: dropped.status, error: (dropped.error ?? {}) as Json });
    },
  });
  if (refused.length > 0) result.deadLetters = await recordDeadLetters(client, naming, logger, refused);
  if (options.refresh === true) await client.indices.refresh({ index: [...new Set(ops.map((op) => op.index))] });
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
  const response = await client.bulk({ operations });
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
