import { createHash } from 'node:crypto';
import { canonicalJson, type Client } from '@xle/core';

/** Every document of an index, refreshed first and read through a point in time, with its id. */
async function readHits<T>(client: Client, index: string): Promise<{ id: string; source: T }[]> {
  await client.indices.refresh({ index });
  const pit = await client.openPointInTime({ index, keep_alive: '1m' });
  const docs: { id: string; source: T }[] = [];
  try {
    let after: unknown[] | undefined;
    for (;;) {
      const page = await client.search<T>({
        size: 1000,
        pit: { id: pit.id, keep_alive: '1m' },
        sort: [{ _shard_doc: 'asc' }] as never,
        ...(after === undefined ? {} : { search_after: after as never }),
      });
      const hits = page.hits.hits;
      for (const hit of hits) docs.push({ id: hit._id ?? '', source: hit._source as T });
      if (hits.length < 1000) break;
      after = hits[hits.length - 1]?.sort;
    }
  } finally {
    await client.closePointInTime({ id: pit.id });
  }
  return docs;
}

/** Count and a content hash of every document of an index (ids and canonical sources, in id order). */
export async function indexContent(
  client: Client,
  index: string,
  /** Maps each document before hashing (e.g. to leave out a wall-clock time). */
  normalize: (source: Record<string, unknown> | undefined) => unknown = (source) => source,
): Promise<{ count: number; hash: string }> {
  const rows = (await readHits<Record<string, unknown>>(client, index)).map(
    (d) => `${d.id}\u0000${canonicalJson(normalize(d.source))}`,
  );
  rows.sort();
  const hash = createHash('sha256');
  for (const row of rows) hash.update(`${row}\n`);
  return { count: rows.length, hash: hash.digest('hex') };
}

/** Every document of an index (for tests that recompute results from what was indexed). */
export async function readAllDocuments<T = Record<string, unknown>>(client: Client, index: string): Promise<T[]> {
  return (await readHits<T>(client, index)).flatMap((d) => (d.source === undefined ? [] : [d.source]));
}
