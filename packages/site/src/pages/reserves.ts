import type { Json } from '@xle/documents';
import type { Engine } from '@xle/api/engine';
import { serverInfo } from '@xle/api/resources/data-sets';
import { ledgerObject } from '@xle/api/resources/objects';
import { answerSource, xrpOfDrops } from '../model/format.js';
import { optional } from './common.js';

/** The network's account reserves, in XRP, and where they were read. */
export interface Reserves {
  base: string;
  increment: string;
  source: string;
}

const drops = (value: unknown): string | undefined =>
  typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value)) ? String(value) : undefined;

/**
 * The reserves in force: the FeeSettings ledger entry when the indexed state holds it (its
 * XRPFees fields, or the older ReserveBase / ReserveIncrement), else the newest server_info
 * snapshot's validated ledger, named with that answer's own ledger and time (a recorded answer is
 * not the network today); undefined when neither says.
 */
export async function networkReserves(engine: Engine): Promise<Reserves | undefined> {
  const [settings, server] = await Promise.all([
    optional(ledgerObject(engine, 'FeeSettings')),
    optional(serverInfo(engine)),
  ]);
  const node = (settings?.node ?? undefined) as Json | undefined;
  const base = drops(node?.ReserveBaseDrops ?? node?.ReserveBase);
  const increment = drops(node?.ReserveIncrementDrops ?? node?.ReserveIncrement);
  if (base !== undefined && increment !== undefined)
    return {
      base: xrpOfDrops(base),
      increment: xrpOfDrops(increment),
      source: `the FeeSettings entry of ledger ${String(settings?.ledger_index)}`,
    };
  const validated = ((server?.info as Json | undefined)?.validated_ledger ?? undefined) as Json | undefined;
  const baseXrp = validated?.reserve_base_xrp;
  const incrementXrp = validated?.reserve_inc_xrp;
  const source = answerSource('server_info', server?.snapshot);
  if (typeof baseXrp === 'number' && typeof incrementXrp === 'number' && source !== undefined)
    return { base: String(baseXrp), increment: String(incrementXrp), source };
  return undefined;
}
