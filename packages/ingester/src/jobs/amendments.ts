import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@xle/core';
import { FIXED_OBJECT_IDS, isRecord, rippleTimeToIso } from '@xle/documents';
import type { IngestEngine } from '../engine/ingest-engine.js';
import { inLedgerRanges, type AsOf, type Changes, type DataSetDocument } from './data-set.js';
import type { LedgerRange } from '../pipeline/checkpoint.js';

/** One entry of the bundled list (`packages/ingester/data/amendments.json`, `pnpm amendments:bundle`). */
export interface KnownAmendment {
  id: string;
  name: string;
  introduced: string;
  retired: boolean;
  obsolete: boolean;
  removed_in?: string;
  enabled?: { ledger_index: number; tx_hash: string; date: string };
}

/** The fields of an indexed EnableAmendment transaction the job reads. */
export interface EnableAmendmentTx {
  Amendment: string;
  Flags?: number;
  ledger_index: number;
  hash: string;
  _date: string;
}

/** The Amendments singleton ledger entry (enabled amendments and those holding a majority). */
export interface AmendmentsEntry {
  Amendments?: string[];
  Majorities?: { Majority: { Amendment: string; CloseTime: number } }[];
}

export interface AmendmentDoc {
  amendment_id: string;
  name?: string;
  introduced?: string;
  enabled: boolean;
  majority: string | null;
  supported: boolean;
  obsolete: boolean;
  retired: boolean;
  enabled_on?: string;
  ledger_index?: number;
  tx_hash?: string;
  updated_at: string;
}

/** EnableAmendment flags (rippled TxFlags.h): a validator majority gained, or lost. */
const TF_GOT_MAJORITY = 0x00010000;
const TF_LOST_MAJORITY = 0x00020000;

export function loadKnownAmendments(file = join(repoRoot, 'packages/ingester/data/amendments.json')): KnownAmendment[] {
  return (JSON.parse(readFileSync(file, 'utf8')) as { amendments: KnownAmendment[] }).amendments;
}

/**
 * One document per amendment, from three sources in order of authority (pure):
 * 1. the indexed EnableAmendment pseudo-transactions, in ledger order: Flags 0 enables,
 *    tfGotMajority starts a majority at the ledger's close, tfLostMajority ends it;
 * 2. the indexed Amendments ledger entry: its `Amendments` are enabled and its `Majorities`
 *    hold a majority since their CloseTime (this entry is the current truth when present);
 * 3. the bundled list: names, the version that introduced each, retirement, and the enabling
 *    ledger of history older than the indexed ledgers (an enabling after `asOf` is not counted:
 *    the documents say the network's state as of the newest indexed ledger).
 * `supported` means a current rippled knows it: listed and not removed. `count`, `threshold`
 * and `validations` come from validators' votes and are absent here.
 */
export function buildAmendmentDocs(
  known: readonly KnownAmendment[],
  transactions: readonly EnableAmendmentTx[],
  entry: AmendmentsEntry | undefined,
  asOf: AsOf,
  votes?: AmendmentVotes,
): DataSetDocument[] {
  const byId = new Map(known.map((k) => [k.id, k]));
  const ids = new Set<string>(known.map((k) => k.id));
  votes?.counts.forEach((_, id) => ids.add(id));
  const enabledBy = new Map<string, EnableAmendmentTx>();
  const majorityOf = new Map<string, string | null>();
  for (const tx of [...transactions].sort((a, b) => a.ledger_index - b.ledger_index)) {
    ids.add(tx.Amendment);
    const flags = tx.Flags ?? 0;
    if ((flags & TF_GOT_MAJORITY) !== 0) majorityOf.set(tx.Amendment, tx._date);
    else if ((flags & TF_LOST_MAJORITY) !== 0) majorityOf.set(tx.Amendment, null);
    else {
      enabledBy.set(tx.Amendment, tx);
      majorityOf.set(tx.Amendment, null);
    }
  }
  const enabledInEntry = new Set(entry?.Amendments ?? []);
  if (entry !== undefined) {
    // The ledger entry is the state after every transaction: it replaces what they implied.
    for (const id of majorityOf.keys()) majorityOf.set(id, null);
    for (const { Majority: m } of entry.Majorities ?? []) {
      ids.add(m.Amendment);
      majorityOf.set(m.Amendment, rippleTimeToIso(m.CloseTime));
    }
    enabledInEntry.forEach((id) => ids.add(id));
  }
  return [...ids].sort().map((id) => {
    const k = byId.get(id);
    const tx = enabledBy.get(id);
    // The bundled list knows enablings up to its own date: one after the newest indexed ledger
    // has not happened as of it.
    const history = k?.enabled !== undefined && k.enabled.ledger_index <= asOf.ledger_index ? k.enabled : undefined;
    const enabled = tx !== undefined || enabledInEntry.has(id) || history !== undefined;
    const doc: AmendmentDoc = {
      amendment_id: id,
      ...(k === undefined ? {} : { name: k.name, introduced: k.introduced }),
      enabled,
      majority: enabled ? null : (majorityOf.get(id) ?? null),
      supported: k !== undefined && !k.obsolete,
      obsolete: k?.obsolete ?? false,
      retired: k?.retired ?? false,
      updated_at: asOf.close_time,
    };
    if (!enabled && votes !== undefined && votes.validators > 0)
      Object.assign(doc, {
        count: votes.counts.get(id) ?? 0,
        threshold: Math.ceil(votes.validators * AMENDMENT_MAJORITY),
        validations: votes.validators,
      });
    if (tx !== undefined) Object.assign(doc, { enabled_on: tx._date, ledger_index: tx.ledger_index, tx_hash: tx.hash });
    else if (history !== undefined)
      Object.assign(doc, { enabled_on: history.date, ledger_index: history.ledger_index, tx_hash: history.tx_hash });
    return { _id: id, doc: doc as unknown as Record<string, unknown> };
  });
}

/** The share of trusted validators an amendment needs to gain a majority (rippled: 80 %). */
export const AMENDMENT_MAJORITY = 0.8;

/** Votes of the active UNL validators: how many there are, and how many vote for each amendment. */
export interface AmendmentVotes {
  validators: number;
  counts: Map<string, number>;
}

/**
 * The votes of the validators data set (`pnpm ingest validators`): each active validator on the
 * verified list and the amendments of its newest validation. Undefined until that job has run.
 */
export async function readAmendmentVotes(engine: IngestEngine): Promise<AmendmentVotes | undefined> {
  const votes: AmendmentVotes = { validators: 0, counts: new Map() };
  const trusted = engine.scan<{ votes?: { amendments?: string[] } }>('validators', {
    ignore_unavailable: true,
    query: { bool: { filter: [{ term: { active: true } }, { exists: { field: 'unl' } }] } },
    sort: [{ master_key: 'asc' }],
    _source: ['votes.amendments'],
  });
  for await (const hit of trusted) {
    votes.validators += 1;
    for (const id of new Set(hit._source?.votes?.amendments ?? []))
      votes.counts.set(id.toUpperCase(), (votes.counts.get(id.toUpperCase()) ?? 0) + 1);
  }
  return votes.validators === 0 ? undefined : votes;
}

/** The EnableAmendment transactions a run recorded for the next (`remember`), if they are whole. */
export function rememberedEnabling(previous: Record<string, unknown> | undefined): EnableAmendmentTx[] | undefined {
  const list = previous?.enabling;
  if (!Array.isArray(list)) return undefined;
  const whole = list.every(
    (tx: unknown) =>
      isRecord(tx) &&
      typeof tx.Amendment === 'string' &&
      typeof tx.ledger_index === 'number' &&
      typeof tx.hash === 'string' &&
      typeof tx._date === 'string' &&
      (tx.Flags === undefined || typeof tx.Flags === 'number'),
  );
  return whole ? (list as EnableAmendmentTx[]) : undefined;
}

/**
 * Reads what `buildAmendmentDocs` needs from the indexed transactions and ledger objects. A first
 * or full run scans every range for EnableAmendment transactions; a later one (`changes.since`
 * with the transactions the last run recorded) reads only the ranges of the ledgers indexed since,
 * older or newer, so its cost follows what changed, not the length of history.
 */
export async function readAmendmentSources(
  engine: IngestEngine,
  changes: Changes = {},
): Promise<{ transactions: EnableAmendmentTx[]; entry: AmendmentsEntry | undefined }> {
  const known = changes.since === undefined ? undefined : rememberedEnabling(changes.previous);
  const byHash = new Map((known ?? []).map((tx) => [tx.hash, tx]));
  const since = known === undefined ? undefined : (changes.since as LedgerRange[]);
  if (since === undefined || since.length > 0) {
    const enabling = engine.scan<EnableAmendmentTx>(
      since === undefined ? 'transactions' : await engine.rangesHolding('transactions', since),
      {
        query: {
          bool: {
            filter: [
              { term: { TransactionType: 'EnableAmendment' } },
              { term: { 'meta.TransactionResult': 'tesSUCCESS' } },
              ...(since === undefined ? [] : [inLedgerRanges(since)]),
            ],
          },
        },
        sort: [{ ledger_index: 'asc' }, { hash: 'asc' }],
        _source: ['Amendment', 'Flags', 'ledger_index', 'hash', '_date'],
      },
    );
    for await (const hit of enabling) if (hit._source !== undefined) byHash.set(hit._source.hash, hit._source);
  }
  const transactions = [...byHash.values()].sort(
    (a, b) => a.ledger_index - b.ledger_index || (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0),
  );
  const found = await engine.get<AmendmentsEntry & { deleted?: boolean }>('objects', FIXED_OBJECT_IDS.Amendments);
  const entry = found?.deleted !== true ? found : undefined;
  return { transactions, entry };
}
