import type { Json } from '@xle/documents';

/** The stored fields of `doc` named by `keys`, null where a field is absent (pure). */
const orNull = (doc: Json, keys: readonly string[]): Json =>
  Object.fromEntries(keys.map((key) => [key, doc[key] ?? null]));

/**
 * The spec's Validator registry entry (pure). `domain_legacy` is always null: it named the domain
 * an older, retired verification scheme attested, and no source of it is collected.
 */
export function shapeRegistryEntry(doc: Json): Json {
  return {
    master_key: doc.master_key,
    chain: doc.chain,
    ...orNull(doc, ['ephemeral_key', 'last_seen', 'ledger_index', 'meta', 'server_version']),
    votes: { amendments: (doc.votes as { amendments?: string[] } | undefined)?.amendments ?? [] },
    domain: doc.domain ?? null,
    domain_legacy: null,
    unl: doc.unl ?? [],
  };
}

/** The spec's Validator info (pure): `server_version` as its version string, `unl` the list names. */
export function shapeValidatorInfo(doc: Json): Json {
  return {
    validation_public_key: doc.validation_public_key,
    signing_key: doc.signing_key ?? null,
    master_key: doc.master_key,
    domain: doc.domain ?? null,
    chain: doc.chain,
    server_version: (doc.server_version as { version?: string } | undefined)?.version ?? null,
    networks: doc.networks,
    current_index: doc.current_index ?? null,
    agreement_1h: doc.agreement_1h,
    agreement_24h: doc.agreement_24h,
    agreement_30day: doc.agreement_30day,
    partial: doc.partial,
    unl: ((doc.unl as string[] | undefined) ?? []).join(','),
    revoked: doc.revoked,
    result: 'success',
  };
}

/** The spec's Validator report envelope (pure): newest day first. */
export function shapeReports(doc: Json): Json {
  const reports = ((doc.reports as Json[] | undefined) ?? []).map((r) => ({
    validation_public_key: doc.validation_public_key,
    date: r.date,
    chain: doc.chain,
    score: r.score,
    total: r.total,
    missed: r.missed,
    incomplete: r.incomplete,
  }));
  return { result: 'success', count: reports.length, reports };
}
