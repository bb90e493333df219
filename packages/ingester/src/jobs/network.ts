import { parseRippledTimeText, type Json } from '@xle/documents';
import type { IngestEngine } from '../engine/ingest-engine.js';
import type { RippledSource } from '../sources/rippled.js';
import { recordJobRun, writeDocuments } from './data-set.js';

export interface NetworkSnapshot {
  _id: string;
  doc: {
    kind: 'fee' | 'server_info';
    taken_at: string;
    ledger_index: number;
    /** The answer's own time (server_info's `time`, the server's clock when it answered), when it says. */
    answered_at?: string;
    server: string;
    build_version?: string;
    payload: Json;
  };
}

/**
 * The snapshot documents of one `fee` and one `server_info` answer (pure). Their ids carry the
 * ledger each answer describes, so taking the same snapshot twice writes the same documents. Each
 * keeps the answer's own ledger and, for server_info, its own time: an answer recorded long ago
 * and replayed says so, whatever this service has indexed since.
 */
export function buildNetworkSnapshots(fee: Json, serverInfo: Json, server: string, takenAt: string): NetworkSnapshot[] {
  const info = (serverInfo.info ?? {}) as Json;
  const validated = (info.validated_ledger ?? {}) as Json;
  const feeLedger = Number(fee.ledger_current_index ?? 0);
  const infoLedger = Number(validated.seq ?? 0);
  const answered = parseRippledTimeText(info.time);
  return [
    { _id: `fee.${feeLedger}`, doc: { kind: 'fee', taken_at: takenAt, ledger_index: feeLedger, server, payload: fee } },
    {
      _id: `server_info.${infoLedger}`,
      doc: {
        kind: 'server_info',
        taken_at: takenAt,
        ledger_index: infoLedger,
        ...(answered === undefined ? {} : { answered_at: new Date(answered * 1000).toISOString() }),
        server,
        ...(typeof info.build_version === 'string' ? { build_version: info.build_version } : {}),
        payload: serverInfo,
      },
    },
  ];
}

/** Takes one snapshot of rippled's `fee` and `server_info` into the network index. */
export async function snapshotNetwork(
  engine: IngestEngine,
  rippled: RippledSource,
  server: string,
): Promise<NetworkSnapshot[]> {
  const [fee, serverInfo] = await Promise.all([rippled.command('fee'), rippled.command('server_info')]);
  const snapshots = buildNetworkSnapshots(fee, serverInfo, server, new Date().toISOString());
  await writeDocuments(engine, 'network', snapshots);
  await recordJobRun(engine, {
    job: 'network',
    ledger_index: snapshots[1]?.doc.ledger_index ?? 0,
    documents: snapshots.length,
    removed: 0,
  });
  return snapshots;
}
