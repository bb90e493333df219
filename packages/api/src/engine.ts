import type { estypes } from '@elastic/elasticsearch';
import { indexName, type Client, type IndexKind, type IndexNaming } from '@xle/core';

/** The one module of the API that talks to the search engine. */
export class Engine {
  constructor(
    private readonly client: Client,
    private readonly naming: IndexNaming,
  ) {}

  index(kind: IndexKind): string {
    return indexName(this.naming, kind);
  }

  async get<T>(kind: IndexKind, id: string): Promise<T | undefined> {
    const doc = await this.client.get<T>({ index: this.index(kind), id }, { ignore: [404] });
    return doc.found ? doc._source : undefined;
  }

  async mget<T>(kind: IndexKind, ids: readonly string[]): Promise<Map<string, T>> {
    const found = new Map<string, T>();
    if (ids.length === 0) return found;
    const result = await this.client.mget<T>({ index: this.index(kind), ids: [...new Set(ids)] });
    for (const doc of result.docs) {
      if ('found' in doc && doc.found && doc._source !== undefined) found.set(doc._id, doc._source);
    }
    return found;
  }

  async search<T>(kind: IndexKind, body: estypes.SearchRequest): Promise<estypes.SearchResponse<T>> {
    return this.client.search<T>({ ...body, index: this.index(kind) });
  }
}
