import { createHash } from 'node:crypto';
import { canonicalJson, ReadEngine, type Client } from '@xle/core';

/** Every document of an index, refreshed first and read through a point in time (the read engine's walker), with its id. */
async function readHits<T>(client: Client, index: string): Promise<{ id: string; source: T }[]> {
  await client.indices.refresh({ index });
  const docs: { id: string; source: T }[] = [];
  for await (const hit of new ReadEngine(client).eachDocument<T>(index))
    docs.push({ id: hit._id ?? '', source: hit._source as T });
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
