import { errors } from '@elastic/elasticsearch';
import { indexName, type Client, type IndexNaming, type ReadEngine } from '@xle/core';

/** One daily counter document (`_id` = `<plan>.<client>.<day>`) in the usage index. */
export interface UsageDoc {
  plan: string;
  client: string;
  /** UTC day, `YYYY-MM-DD`. */
  day: string;
  count: number;
  updated_at: string;
}

/** A counter as read, with the version a conditional write must match. */
export interface VersionedUsage {
  count: number;
  seqNo: number;
  primaryTerm: number;
}

function isStatus(error: unknown, status: number): boolean {
  return error instanceof errors.ResponseError && error.statusCode === status;
}

/**
 * The usage index: daily counters, read in real time and written only conditionally (a create for
 * the day's first request, else `if_seq_no`/`if_primary_term`), since the engine has no scripting
 * here. A lost race is a `conflict`, never a lost update.
 */
export class UsageStore {
  private readonly index: string;

  private readonly client: Client;

  /** Over the process's read engine (its walkers; its client for the writes). */
  constructor(
    private readonly reader: ReadEngine,
    naming: IndexNaming,
  ) {
    this.client = reader.client;
    this.index = indexName(naming, 'usage');
  }

  /** The counter, or undefined when nothing was counted yet (real-time get). */
  async read(id: string): Promise<VersionedUsage | undefined> {
    try {
      const found = await this.client.get<UsageDoc>({ index: this.index, id });
      if (found._source === undefined || found._seq_no === undefined || found._primary_term === undefined)
        return undefined;
      return { count: found._source.count, seqNo: found._seq_no, primaryTerm: found._primary_term };
    } catch (error) {
      if (isStatus(error, 404)) return undefined;
      throw error;
    }
  }

  /**
   * Writes the counter only if it is still `previous` (absent when undefined); answers the version
   * written (what the next conditional write of this writer may name without reading again;
   * undefined if the engine did not say), or `conflict` when the counter changed (or went) since
   * `previous`.
   */
  async write(
    id: string,
    doc: UsageDoc,
    previous: VersionedUsage | undefined,
  ): Promise<VersionedUsage | undefined | 'conflict'> {
    try {
      // No transport retries: a retried write that had landed would come back 409 and be counted twice.
      const written =
        previous === undefined
          ? await this.client.create({ index: this.index, id, document: doc }, { maxRetries: 0 })
          : await this.client.index(
              {
                index: this.index,
                id,
                document: doc,
                if_seq_no: previous.seqNo,
                if_primary_term: previous.primaryTerm,
              },
              { maxRetries: 0 },
            );
      const { _seq_no: seqNo, _primary_term: primaryTerm } = written;
      return seqNo === undefined || primaryTerm === undefined ? undefined : { count: doc.count, seqNo, primaryTerm };
    } catch (error) {
      if (isStatus(error, 409)) return 'conflict';
      throw error;
    }
  }

  /**
   * Deletes the counters of every UTC day before `firstKept` (`YYYY-MM-DD`; days compare as
   * strings) and returns how many went. Read through the shared paged reader and deleted by id in
   * bulk, which every cluster has (`_delete_by_query` needs the reindex module); counters of past
   * days are never written again, so a page cannot race a writer.
   */
  async prune(firstKept: string, pageSize = 1000): Promise<number> {
    const ids: string[] = [];
    const old = this.reader.eachHit(
      { index: this.index, query: { range: { day: { lt: firstKept } } }, sort: ['_doc'], _source: false },
      pageSize,
    );
    for await (const hit of old) if (hit._id !== undefined) ids.push(hit._id);
    for (let at = 0; at < ids.length; at += pageSize) {
      const answer = await this.client.bulk({
        operations: ids.slice(at, at + pageSize).map((id) => ({ delete: { _index: this.index, _id: id } })),
        refresh: true,
      });
      const failed = answer.items.find((item) => (item.delete?.status ?? 500) >= 300 && item.delete?.status !== 404);
      if (failed !== undefined) throw new Error(`pruning usage counters failed: ${JSON.stringify(failed.delete)}`);
    }
    return ids.length;
  }
}
