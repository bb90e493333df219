import type { Json } from '@xle/documents';
import { labelOf, type Label, type Labels } from './labels.js';

/**
 * The spec's Amendment: the stored document without the job's bookkeeping (pure). Its status is
 * the network's as of the newest ledger the job read, never of a later one, and `behind` says
 * when ledgers indexed since (an enabling transaction among them, maybe) are not read yet.
 */
export function shapeAmendment(doc: Json, asOf?: { ledger: number; behind: boolean }): Json {
  const { updated_at: updated, ...amendment } = doc;
  if (asOf !== undefined && typeof updated === 'string')
    amendment.as_of = { ledger_index: asOf.ledger, date: updated, behind: asOf.behind };
  return amendment;
}

/**
 * The spec's Balance entry (pure). `name` is the account's label with the record fields the spec
 * shows: `_id` (the label record's id, the account) and `__v` (its revision: always 0, because an
 * import replaces records rather than revising them), or null when the account has no label.
 */
export function shapeBalance(doc: Json, label: Label | null): Json {
  return {
    account: doc.account,
    balance: doc.balance,
    name: label === null ? null : { ...label, _id: label.account, __v: 0 },
  };
}

/** The rich list page, each account with its label (pure). */
export function shapeBalances(docs: readonly Json[], labels: Labels): Json[] {
  return docs.map((d) => shapeBalance(d, labelOf(labels, d.account)));
}

/**
 * Orders rippled versions newest first (pure): numeric major.minor.patch, and a release above its
 * own pre-releases (`2.3.0` > `2.3.0-rc2` > `2.3.0-b1`); unparsable strings go last.
 */
export function compareVersionsDesc(a: string, b: string): number {
  const parse = (v: string): [number, number, number, string] | undefined => {
    const m = /^(?:rippled-)?(\d+)\.(\d+)\.(\d+)(?:-(.+))?$/.exec(v);
    return m === null ? undefined : [Number(m[1]), Number(m[2]), Number(m[3]), m[4] ?? ''];
  };
  const pa = parse(a);
  const pb = parse(b);
  if (pa === undefined || pb === undefined) return pa === undefined ? (pb === undefined ? a.localeCompare(b) : 1) : -1;
  for (let i = 0; i < 3; i += 1) if (pa[i] !== pb[i]) return (pb[i] as number) - (pa[i] as number);
  if (pa[3] === pb[3]) return 0;
  if (pa[3] === '') return -1;
  if (pb[3] === '') return 1;
  return pb[3].localeCompare(pa[3], 'en', { numeric: true });
}

/** A facts answer: fact name to value (pure). */
export function shapeFacts(facts: readonly { fact_id?: string; value?: string }[]): Record<string, unknown> {
  return Object.fromEntries(facts.map((f) => [f.fact_id, f.value]));
}

/** The daily records of one metric: `{date, <METRIC_ID>: {...}}` per day (pure). */
export function shapeMetrics(metricId: string, records: readonly { date?: string; values?: Json }[]): Json[] {
  return records.map((r) => ({ date: r.date, [metricId]: r.values ?? {} }));
}

/** The versions of every source, once each, newest first (pure). */
export function shapeServerVersions(sources: readonly (readonly string[])[]): string[] {
  return [...new Set(sources.flat())].sort(compareVersionsDesc);
}

/** A stored rippled answer: the answer, the ledger it describes, its own time, when it was taken and from where. */
export interface NetworkSnapshot {
  payload: Json;
  taken_at: string;
  ledger_index: number;
  answered_at?: string;
  server?: string;
}

/**
 * What a snapshot says of itself, beside the answer (pure): the ledger it describes and that
 * ledger's time (`ledgerTime`: the answer's own, or the ledger's close time; null when neither is
 * known), when this service took it and from which server.
 */
export function shapeSnapshot(snapshot: NetworkSnapshot, ledgerTime: string | null): Json {
  return {
    ledger_index: snapshot.ledger_index,
    ledger_time: ledgerTime,
    taken_at: snapshot.taken_at,
    ...(snapshot.server === undefined ? {} : { server: snapshot.server }),
  };
}
