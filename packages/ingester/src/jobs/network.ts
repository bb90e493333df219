import type { Client, IndexNaming } from '@xle/core';
import { indexName } from '@xle/core';
import type { RippledSource } from '../sources/rippled.js';
import { recordJobRun } from './data-set.js';

type Json = Record<string, unknown>;

export interface NetworkSnapshot {
  _id: string;
  doc: {
    kind: 'fee' | 'server_info';
    taken_at: string;
    ledger_index: number;
    server: string;
    build_version?: string;
    payload: Json;
  };
}

/**
 * The snapshot documents of one `fee` and one `server_info` answer (pure). Their ids carry the
 * ledger each answer describes, so taking the same snapshot twice writes the same documents.
 */
export function buildNetworkSnapshots(fee: Json, serverInfo: Json, server: string, takenAt: string): NetworkSnapshot[] {
  const info = (serverInfo.info ?? {}) as Json;
  const validated = (info.validated_ledger ?? {}) as Json;
  const feeLedger = Number(fee.ledger_current_index ?? 0);
  const infoLedger = Number(validated.seq ?? 0);
  return [
    { _id: `fee.${feeLedger}`, doc: { kind: 'fee', taken_at: takenAt, ledger_index: feeLedger, server, payload: fee } },
    {
      _id: `server_info.${infoLedger}`,
      doc: {
        kind: 'server_info',
        taken_at: takenAt,
        ledger_index: infoLedger,
        server,
        ...(typeof info.build_version === 'string' ? { build_version: info.build_version } : {}),
        payload: serverInfo,
      },
    },
  ];
}

/** Takes one snapshot of rippled's `fee` and `server_info` into the network index. */
export async function snapshotNetwork(
  client: Client,
  naming: IndexNaming,
  rippled: RippledSource,
  server: string,
): Promise<NetworkSnapshot[]> {
  const [fee, serverInfo] = await Promise.all([rippled.command('fee'), rippled.command('server_info')]);
  const snapshots = buildNetworkSnapshots(fee, serverInfo, server, new Date().toISOString());
  const response = await client.bulk({
    operations: snapshots.flatMap((s) => [{ index: { _index: indexName(naming, 'network'), _id: s._id } }, s.doc]),
    refresh: true,
  });
  if (response.errors) throw new Error('the network index refused a snapshot');
  await recordJobRun(client, naming, {
    job: 'network',
    ledger_index: snapshots[1]?.doc.ledger_index ?? 0,
    documents: snapshots.length,
    removed: 0,
  });
  return snapshots;
}
