import type { estypes } from '@elastic/elasticsearch';
import type { CompositePage, IndexNaming } from '@xle/core';
import type { IngestEngine } from '../engine/ingest-engine.js';
import type { AsOf, DataSetDocument, JobStatus } from '../jobs/data-set.js';
import { runDataSetJob, type DataSetJob, type JobContext } from '../jobs/run.js';
import { isoToRippleTime, VALIDATORS_JOB } from '@xle/documents';
import {
  agreementOf,
  dayStart,
  groupLedgers,
  parseGroupKey,
  periodsOf,
  WINDOWS,
  type Agreement,
  type LedgerRef,
  type WindowName,
} from './agreement.js';
import type { Manifest } from './manifest.js';
import type { VerifiedValidatorList } from './validator-list.js';
import { decodeServerVersion, type ValidationDoc } from './validations.js';

/** A verified list and the name its members show in `unl` (the publisher site, e.g. vl.ripple.com). */
export interface UnlSource {
  name: string;
  list: VerifiedValidatorList;
}

export interface StoredManifest extends Manifest {
  verified: boolean;
  verification_message: string;
}

/** Everything the validators data set is computed from, as read from the indices. */
export interface ValidatorInputs {
  /** Validated ledgers of the windows and reported days, by group key (see groupKeyOf). */
  groups: Map<string, LedgerRef[]>;
  /** Validations that agree with a validated ledger: validator key -> group key -> count. */
  agreed: Map<string, Map<string, number>>;
  /** The newest validation of each validator key. */
  newest: Map<string, ValidationDoc>;
  /** UTC days on which each validator key sent validations. */
  seenDays: Map<string, Set<string>>;
  /** Verified manifests from the manifests stream (newest per master key). */
  manifests: StoredManifest[];
  /** The oldest validation collected (Ripple-epoch seconds): agreement before it is incomplete. */
  coverageStart: number | undefined;
}

export interface Report {
  validation_public_key: string;
  date: string;
  chain: string;
  score: string;
  total: string;
  missed: string;
  incomplete: boolean;
}

export interface ValidatorDoc {
  master_key: string;
  ephemeral_key?: string;
  validation_public_key: string;
  signing_key?: string;
  chain: string;
  networks: string;
  last_seen?: string;
  ledger_index?: number;
  current_index?: number;
  domain?: string;
  unl: string[];
  revoked: boolean;
  partial: boolean;
  active: boolean;
  manifest_seq?: number;
  meta?: { manifest: string; verified: boolean; verification_message: string };
  server_version?: ReturnType<typeof decodeServerVersion>;
  votes?: { amendments: string[]; base_fee?: number; reserve_base?: number; reserve_inc?: number };
  agreement_1h: Agreement;
  agreement_24h: Agreement;
  agreement_30day: Agreement;
  reports: Omit<Report, 'validation_public_key' | 'chain'>[];
  updated_at: string;
}

/** The `chain` of a validator: rippled's names for the two networks this service indexes. */
export const chainOf = (network: IndexNaming['network']): string => (network === 'mainnet' ? 'main' : 'test');

/**
 * One document per validator, keyed by master key (pure). Validations signed by an ephemeral key
 * count for the master key its manifest names (the newest manifest from the stream or the list);
 * a validator without a manifest signs with its master key. The validator is on the UNL when the
 * verified list names it, active when not revoked and either listed or seen in the last 24 h.
 */
export function buildValidatorDocs(
  inputs: ValidatorInputs,
  unl: UnlSource | undefined,
  asOf: AsOf,
  network: IndexNaming['network'],
): DataSetDocument[] {
  const chain = chainOf(network);
  const manifests = new Map<string, StoredManifest>();
  const offer = (m: StoredManifest): void => {
    if (!m.verified) return;
    const held = manifests.get(m.master_key);
    if (held === undefined || held.sequence < m.sequence) manifests.set(m.master_key, m);
  };
  inputs.manifests.forEach(offer);
  unl?.list.validators.forEach(offer);
  const masterOf = new Map<string, string>();
  for (const m of manifests.values()) if (m.signing_key !== undefined) masterOf.set(m.signing_key, m.master_key);
  const canonical = (key: string): string => masterOf.get(key) ?? key;

  const agreed = new Map<string, Map<string, number>>();
  for (const [key, counts] of inputs.agreed) {
    const into = agreed.get(canonical(key)) ?? new Map<string, number>();
    for (const [group, n] of counts) into.set(group, (into.get(group) ?? 0) + n);
    agreed.set(canonical(key), into);
  }
  const newest = new Map<string, ValidationDoc>();
  for (const [key, doc] of inputs.newest) {
    const held = newest.get(canonical(key));
    if (held === undefined || held.ledger_index < doc.ledger_index) newest.set(canonical(key), doc);
  }
  const seenDays = new Map<string, Set<string>>();
  for (const [key, days] of inputs.seenDays)
    seenDays.set(canonical(key), new Set([...(seenDays.get(canonical(key)) ?? []), ...days]));
  const reportDays = new Set([...seenDays.values()].flatMap((d) => [...d]));

  const end = isoToRippleTime(asOf.close_time);
  const { windows, days } = periodsOf(inputs.groups, end, inputs.coverageStart);
  const listed = new Set(unl?.list.validators.map((v) => v.master_key) ?? []);
  const keys = new Set([...newest.keys(), ...listed, ...manifests.keys()]);

  return [...keys].sort().map((key) => {
    const manifest = manifests.get(key);
    const last = newest.get(key);
    const counts = agreed.get(key) ?? new Map<string, number>();
    const agreedIn = (match: (windows: WindowName[], day: string | undefined) => boolean): number =>
      [...counts].reduce((sum, [group, n]) => {
        const { windows: w, day } = parseGroupKey(group);
        return match(w, day) ? sum + n : sum;
      }, 0);
    const agreement = (w: WindowName): Agreement =>
      agreementOf(
        agreedIn((ws) => ws.includes(w)),
        windows[w].total,
        !windows[w].complete,
      );
    const isListed = listed.has(key);
    const dayList = [...new Set([...(seenDays.get(key) ?? []), ...(isListed ? reportDays : [])])]
      .filter((day) => days.has(day))
      .sort()
      .reverse();
    const reports = dayList.map((day) => {
      const period = days.get(day) as { total: number; complete: boolean };
      const a = agreementOf(
        agreedIn((_w, d) => d === day),
        period.total,
        !period.complete,
      );
      return {
        date: new Date(dayStart(day) * 1000 + 946684800000).toISOString(),
        score: a.score,
        total: String(a.total),
        missed: String(a.missed),
        incomplete: a.incomplete,
      };
    });
    const revoked = manifest?.revoked === true;
    const seenRecently = last !== undefined && last.signing_time > end - WINDOWS.agreement_24h;
    const doc: ValidatorDoc = {
      master_key: key,
      validation_public_key: key,
      chain,
      networks: chain,
      unl: isListed && unl !== undefined ? [unl.name] : [],
      revoked,
      partial: last !== undefined && !last.full,
      active: !revoked && (isListed || seenRecently),
      agreement_1h: agreement('agreement_1h'),
      agreement_24h: agreement('agreement_24h'),
      agreement_30day: agreement('agreement_30day'),
      reports,
      updated_at: asOf.close_time,
    };
    const signingKey = manifest?.signing_key ?? last?.validation_public_key;
    if (signingKey !== undefined) Object.assign(doc, { ephemeral_key: signingKey, signing_key: signingKey });
    if (manifest !== undefined) {
      doc.manifest_seq = manifest.sequence;
      doc.meta = {
        manifest: manifest.manifest,
        verified: manifest.verified,
        verification_message: manifest.verification_message,
      };
      if (manifest.domain !== undefined) doc.domain = manifest.domain;
    }
    if (last !== undefined) {
      doc.last_seen = last._date;
      doc.ledger_index = last.ledger_index;
      doc.current_index = last.ledger_index;
      const version = decodeServerVersion(last.server_version);
      if (version !== undefined) doc.server_version = version;
      doc.votes = {
        amendments: last.amendments ?? [],
        ...(last.base_fee === undefined ? {} : { base_fee: last.base_fee }),
        ...(last.reserve_base === undefined ? {} : { reserve_base: last.reserve_base }),
        ...(last.reserve_inc === undefined ? {} : { reserve_inc: last.reserve_inc }),
      };
    }
    return { _id: key, doc: doc as unknown as Record<string, unknown> };
  });
}

/** Validations whose signature was checked and failed never count. */
const TRUSTED: estypes.QueryDslQueryContainer = { bool: { must_not: [{ term: { verified: false } }] } };
const HASHES_PER_QUERY = 5000;

/** Days as [start, end) spans of Ripple-epoch seconds, consecutive days merged (fewer query clauses). */
function daySpans(days: ReadonlySet<string>): [number, number][] {
  const spans: [number, number][] = [];
  for (const start of [...days].map(dayStart).sort((a, b) => a - b)) {
    const last = spans.at(-1);
    if (last !== undefined && last[1] === start) last[1] = start + 86_400;
    else spans.push([start, start + 86_400]);
  }
  return spans;
}

/** Reads the inputs of buildValidatorDocs from the validations, manifests and ledgers indices. */
export async function readValidatorInputs(engine: IngestEngine, asOf: AsOf): Promise<ValidatorInputs> {
  const end = isoToRippleTime(asOf.close_time);

  const oldest = await engine.search('validations', {
    size: 0,
    query: TRUSTED,
    aggs: { oldest: { min: { field: 'signing_time' } } },
  });
  const min = (oldest.aggregations?.oldest as { value: number | null } | undefined)?.value;
  const coverageStart = min === null || min === undefined ? undefined : min;

  const newest = new Map<string, ValidationDoc>();
  const seenDays = new Map<string, Set<string>>();
  type ValidatorBucket = {
    key: { key: string };
    newest: { hits: { hits: { _source: ValidationDoc }[] } };
    days: { buckets: { key_as_string: string }[] };
  };
  const validators = engine.composite(
    'validations',
    { query: TRUSTED },
    (page) => ({
      validators: {
        composite: { ...page, sources: [{ key: { terms: { field: '_validator' } } }] },
        aggs: {
          newest: {
            top_hits: {
              size: 1,
              sort: [{ ledger_index: { order: 'desc' } }, { signing_time: { order: 'desc' } }] as estypes.Sort,
            },
          },
          days: { date_histogram: { field: '_date', calendar_interval: 'day', min_doc_count: 1 } },
        },
      },
    }),
    (found) => found.validators as CompositePage | undefined,
    200,
  );
  for await (const found of validators) {
    const bucket = found as unknown as ValidatorBucket;
    const doc = bucket.newest.hits.hits[0]?._source;
    if (doc !== undefined) newest.set(bucket.key.key, doc);
    seenDays.set(bucket.key.key, new Set(bucket.days.buckets.map((b) => b.key_as_string.slice(0, 10))));
  }

  const reportDays = new Set([...seenDays.values()].flatMap((d) => [...d]));
  const ranges: estypes.QueryDslQueryContainer[] = [
    { range: { close_time: { gt: end - WINDOWS.agreement_30day, lte: end } } },
    ...daySpans(reportDays).map(([from, to]) => ({ range: { close_time: { gte: from, lt: to } } })),
  ];
  const ledgers: LedgerRef[] = [];
  const ledgerHits = engine.scan<LedgerRef>('ledgers', {
    query: { bool: { should: ranges, minimum_should_match: 1, must_not: [{ term: { validated: false } }] } },
    sort: [{ ledger_index: 'asc' }],
    _source: ['ledger_index', 'ledger_hash', 'close_time'],
  });
  for await (const hit of ledgerHits) if (hit._source !== undefined) ledgers.push(hit._source);
  const groups = groupLedgers(ledgers, end, reportDays);

  // A validation agrees when its ledger hash is the validated hash: the hash names the index too.
  const agreed = new Map<string, Map<string, number>>();
  for (const [group, list] of groups) {
    for (let at = 0; at < list.length; at += HASHES_PER_QUERY) {
      const hashes = list.slice(at, at + HASHES_PER_QUERY).map((l) => l.ledger_hash.toUpperCase());
      const found = await engine.search('validations', {
        size: 0,
        query: { bool: { filter: [{ terms: { ledger_hash: hashes } }, TRUSTED] } },
        aggs: { validators: { terms: { field: '_validator', size: 10_000 } } },
      });
      const buckets = (found.aggregations?.validators as { buckets: { key: string; doc_count: number }[] }).buckets;
      for (const { key, doc_count } of buckets) {
        const counts = agreed.get(key) ?? new Map<string, number>();
        counts.set(group, (counts.get(group) ?? 0) + doc_count);
        agreed.set(key, counts);
      }
    }
  }

  const manifests: StoredManifest[] = [];
  for await (const hit of engine.scan<StoredManifest>('manifests', {
    query: { term: { verified: true } },
    sort: [{ master_key: 'asc' }],
  }))
    if (hit._source !== undefined) manifests.push(hit._source);

  return { groups, agreed, newest, seenDays, manifests, coverageStart };
}

/**
 * The validators data set as a job: its inputs are the collected validations, manifests and
 * validated ledgers; `unl` (a verified validator list) says who is on the UNL. Like every job it
 * is idempotent, and a run killed half-way is finished by running it again.
 */
export function runValidatorsJob(ctx: JobContext, unl: UnlSource | undefined): Promise<JobStatus> {
  const job: DataSetJob<ValidatorInputs> = {
    kind: 'validators',
    read: readValidatorInputs,
    build: (inputs, asOf) => buildValidatorDocs(inputs, unl, asOf, ctx.engine.naming.network),
    ...(unl === undefined
      ? {}
      : {
          detail: {
            unl: {
              name: unl.name,
              publisher_key: unl.list.publisher_key,
              sequence: unl.list.sequence,
              expiration: unl.list.expiration,
              validators: unl.list.validators.length,
            },
          },
        }),
  };
  return runDataSetJob(ctx, VALIDATORS_JOB, job);
}
