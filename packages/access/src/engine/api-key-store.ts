import { errors } from '@elastic/elasticsearch';
import { indexName, type Client, type IndexNaming } from '@xle/core';
import { generateApiKey, hashApiKey, keyIdOf } from '../plans/api-keys.js';
import { isKeyPlan, type KeyPlan } from '../plans/plans.js';

/** What the api-keys index holds per key (`_id` = SHA-256 of the key). */
export interface ApiKeyRecord {
  key_id: string;
  plan: KeyPlan;
  label?: string;
  created_at: string;
  revoked: boolean;
  revoked_at?: string;
}

/** The keys of one network's indices: the only module that reads or writes the api-keys index. */
export class ApiKeyStore {
  private readonly index: string;

  constructor(
    private readonly client: Client,
    naming: IndexNaming,
  ) {
    this.index = indexName(naming, 'api-keys');
  }

  /** Stores a new key and returns it with its record; the key is not kept anywhere else. */
  async create(plan: KeyPlan, label?: string, now: Date = new Date()): Promise<{ key: string; record: ApiKeyRecord }> {
    const key = generateApiKey();
    const hash = hashApiKey(key);
    const record: ApiKeyRecord = {
      key_id: keyIdOf(hash),
      plan,
      ...(label === undefined ? {} : { label }),
      created_at: now.toISOString(),
      revoked: false,
    };
    await this.client.create({ index: this.index, id: hash, document: record, refresh: 'wait_for' });
    return { key, record };
  }

  /** The record of a key, or undefined when no such key was ever created (real-time get). */
  async find(key: string): Promise<ApiKeyRecord | undefined> {
    try {
      const found = await this.client.get<ApiKeyRecord>({ index: this.index, id: hashApiKey(key) });
      const record = found._source;
      return record !== undefined && isKeyPlan(record.plan) ? record : undefined;
    } catch (error) {
      if (error instanceof errors.ResponseError && error.statusCode === 404) return undefined;
      throw error;
    }
  }

  /** Every key, newest first (never the key nor its hash). */
  async list(): Promise<ApiKeyRecord[]> {
    const found = await this.client.search<ApiKeyRecord>({
      index: this.index,
      size: 10_000,
      sort: [{ created_at: 'desc' }, { key_id: 'asc' }],
      query: { match_all: {} },
    });
    return found.hits.hits.flatMap((hit) => (hit._source === undefined ? [] : [hit._source]));
  }

  /** Marks a key revoked; false when no key has this id. Revoking twice keeps the first date. */
  async revoke(keyId: string, now: Date = new Date()): Promise<boolean> {
    const found = await this.client.search<ApiKeyRecord>({
      index: this.index,
      size: 1,
      query: { term: { key_id: keyId } },
    });
    const hit = found.hits.hits[0];
    if (hit?._id === undefined || hit._source === undefined) return false;
    if (hit._source.revoked) return true;
    await this.client.update({
      index: this.index,
      id: hit._id,
      doc: { revoked: true, revoked_at: now.toISOString() },
      refresh: 'wait_for',
    });
    return true;
  }
}
