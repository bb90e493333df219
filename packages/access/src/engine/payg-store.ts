import { errors } from '@elastic/elasticsearch';
import { indexName, type Client, type IndexNaming, type ReadEngine } from '@xle/core';
import type { ChannelAccount } from '../payg/accounting.js';
import { channelFromDoc, type PayChannelState } from '../payg/channel.js';

/** A channel account as read, with the version that a conditional write must match. */
export interface VersionedAccount {
  doc: ChannelAccount;
  seqNo: number;
  primaryTerm: number;
}

function isStatus(error: unknown, status: number): boolean {
  return error instanceof errors.ResponseError && error.meta.statusCode === status;
}

/**
 * The one module of pay-as-you-go that talks to the engine: PayChannel entries from the objects
 * index (written by the ingester), and the per-channel accounts in payg-channels. Accounts are
 * only ever written conditionally (`if_seq_no`/`if_primary_term`, or `op_type: create` for the
 * first), since the engine has no scripting here: a lost race is a `conflict`, never a lost update.
 */
export class PaygStore {
  private readonly objects: string;
  private readonly accounts: string;

  private readonly client: Client;

  /** Over the process's read engine (its walkers; its client for the writes). */
  constructor(
    private readonly read: ReadEngine,
    naming: IndexNaming,
  ) {
    this.client = read.client;
    this.objects = indexName(naming, 'objects');
    this.accounts = indexName(naming, 'payg-channels');
  }

  /** The live PayChannel with that id (real-time get, so a just-indexed channel is seen). */
  async getChannel(id: string): Promise<PayChannelState | undefined> {
    try {
      const found = await this.client.get<Record<string, unknown>>({ index: this.objects, id });
      return found.found && found._source !== undefined ? channelFromDoc(id, found._source) : undefined;
    } catch (error) {
      if (isStatus(error, 404)) return undefined;
      throw error;
    }
  }

  async getChannels(ids: string[]): Promise<Map<string, PayChannelState>> {
    const channels = new Map<string, PayChannelState>();
    if (ids.length === 0) return channels;
    try {
      const found = await this.client.mget<Record<string, unknown>>({ index: this.objects, ids });
      for (const doc of found.docs) {
        if (!('found' in doc) || !doc.found || doc._source === undefined) continue;
        const channel = channelFromDoc(doc._id, doc._source);
        if (channel !== undefined) channels.set(channel.id, channel);
      }
    } catch (error) {
      if (!isStatus(error, 404)) throw error;
    }
    return channels;
  }

  async readAccount(channel: string): Promise<VersionedAccount | undefined> {
    try {
      const found = await this.client.get<ChannelAccount>({ index: this.accounts, id: channel });
      if (!found.found || found._source === undefined) return undefined;
      return { doc: found._source, seqNo: found._seq_no as number, primaryTerm: found._primary_term as number };
    } catch (error) {
      if (isStatus(error, 404)) return undefined;
      throw error;
    }
  }

  /** Writes `doc` only if the stored account is still `previous` (absent when undefined). */
  async writeAccount(
    doc: ChannelAccount,
    previous: VersionedAccount | undefined,
  ): Promise<VersionedAccount | 'conflict'> {
    try {
      const written = await this.client.index(
        {
          index: this.accounts,
          id: doc.channel,
          document: doc,
          ...(previous === undefined
            ? { op_type: 'create' as const }
            : { if_seq_no: previous.seqNo, if_primary_term: previous.primaryTerm }),
        },
        // No transport retries: a retried write that had landed would come back 409 and be applied twice.
        { maxRetries: 0 },
      );
      return { doc, seqNo: written._seq_no as number, primaryTerm: written._primary_term as number };
    } catch (error) {
      if (isStatus(error, 409)) return 'conflict';
      throw error;
    }
  }

  /** Every channel account, in channel id order (none while its index is not there). */
  async *listAccounts(pageSize = 1000): AsyncGenerator<ChannelAccount> {
    try {
      const hits = this.read.eachHit<ChannelAccount>(
        { index: this.accounts, sort: [{ channel: 'asc' }], query: { match_all: {} } },
        pageSize,
      );
      for await (const hit of hits) if (hit._source !== undefined) yield hit._source;
    } catch (error) {
      if (isStatus(error, 404)) return;
      throw error;
    }
  }
}
