import type { Client } from '@elastic/elasticsearch';
import { indexName, rangeAlias, rangeIndexName, type IndexNaming, type RangedKind } from '../index-names.js';

/**
 * Request options of a cluster-state change (an index created, aliases swapped, a template put):
 * the master publishes it to every node and waits for the shards, which on a busy cluster takes
 * far longer than a search, so it gets its own time limit.
 */
export const ADMIN = { requestTimeout: 120_000 } as const;

/**
 * Creates the index of one range (generation 1) with its two aliases: the kind's read alias and
 * the range's write alias. Idempotent: a range another process created meanwhile is left as it is.
 * The index template (pattern `<kind alias>-*`) gives it its mappings and settings.
 */
export async function createRange(
  client: Client,
  naming: IndexNaming,
  kind: RangedKind,
  ledgerIndex: number,
): Promise<'created' | 'exists'> {
  const alias = rangeAlias(naming, kind, ledgerIndex);
  if (await client.indices.existsAlias({ name: alias })) return 'exists';
  const created = await client.indices.create(
    { index: rangeIndexName(alias), aliases: { [indexName(naming, kind)]: {}, [alias]: {} } },
    { ...ADMIN, ignore: [400] },
  );
  return (created as { acknowledged?: boolean }).acknowledged === true ? 'created' : 'exists';
}

/** The concrete indices of every range of a kind (those behind its alias, and any not yet behind it). */
export async function rangeIndices(client: Client, naming: IndexNaming, kind: RangedKind): Promise<string[]> {
  const found = await client.indices.get(
    {
      index: `${indexName(naming, kind)}-*`,
      ignore_unavailable: true,
      allow_no_indices: true,
      expand_wildcards: 'all',
    },
    { ignore: [404] },
  );
  return Object.keys(found)
    .filter((name) => !name.startsWith('.'))
    .sort();
}

/** The concrete index behind a range alias now (undefined when the range does not exist). */
export async function rangeIndexOf(
  client: Client,
  naming: IndexNaming,
  kind: RangedKind,
  ledgerIndex: number,
): Promise<string | undefined> {
  const alias = rangeAlias(naming, kind, ledgerIndex);
  const found = await client.indices.getAlias({ name: alias }, { ignore: [404] });
  return Object.keys(found).find((name) => name !== 'error' && name !== 'status');
}

/**
 * Points a range's two aliases (the range's and the kind's) at a rebuilt index in one atomic
 * step: readers see either the old range or the new one, never both or neither. Answers the
 * indices it replaced, which the caller deletes once nothing more is to be copied from them.
 */
export async function swapRange(
  client: Client,
  naming: IndexNaming,
  kind: RangedKind,
  ledgerIndex: number,
  rebuilt: string,
): Promise<string[]> {
  const alias = rangeAlias(naming, kind, ledgerIndex);
  const kindAlias = indexName(naming, kind);
  const current = Object.keys(await client.indices.getAlias({ name: alias }, { ignore: [404] })).filter(
    (name) => name !== 'error' && name !== 'status' && name !== rebuilt,
  );
  await client.indices.updateAliases(
    {
      actions: [
        ...current.flatMap((index) => [{ remove: { index, alias } }, { remove: { index, alias: kindAlias } }]),
        { add: { index: rebuilt, alias } },
        { add: { index: rebuilt, alias: kindAlias } },
      ],
    },
    ADMIN,
  );
  return current;
}
