import { createHash } from 'node:crypto';
import { canonicalJson, type Client } from '@xle/core';

/** Count and a content hash of every document of an index (ids and canonical sources, in id order). */
export async function indexContent(client: Client, index: string): Promise<{ count: number; hash: string }> {
  await client.indices.refresh({ index });
  const pit = await client.openPointInTime({ index, keep_alive: '1m' });
  const rows: string[] = [];
  try {
    let after: unknown[] | undefined;
    for (;;) {
      const page = await client.search<Record<string, unknown>>({
        size: 1000,
        pit: { id: pit.id, keep_alive: '1m' },
        sort: [{ _shard_doc: 'asc' }] as never,
        ...(after === undefined ? {} : { search_after: after as never }),
      });
      const hits = page.hits.hits;
      for (const hit of hits) rows.push(`${hit._id}\u0000${canonicalJson(hit._source)}`);
      if (hits.length < 1000) break;
      after = hits[hits.length - 1]?.sort;
    }
  } finally {
    await client.closePointInTime({ id: pit.id });
  }
  rows.sort();
  const hash = createHash('sha256');
  for (const row of rows) hash.update(`${row}\n`);
  return { count: rows.length, hash: hash.digest('hex') };
}

/** Every document of an index, read through a point in time (for tests that recompute results). */
export async function readAllDocuments<T = Record<string, unknown>>(client: Client, index: string): Promise<T[]> {
  await client.indices.refresh({ index });
  const pit = await client.openPointInTime({ index, keep_alive: '1m' });
  const docs: T[] = [];
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
      for (const hit of hits) if (hit._source !== undefined) docs.push(hit._source);
      if (hits.length < 1000) break;
      after = hits[hits.length - 1]?.sort;
    }
  } finally {
    await client.closePointInTime({ id: pit.id });
  }
  return docs;
}
