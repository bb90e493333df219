import Type from 'typebox';
import { NotFoundError } from '@xle/core';
import type { Engine } from '../engine.js';
import { PublicKeyParam } from '../schemas/params.js';
import { AnyObject, defineRoute, NoParams, NoQuery, type AnyRoute } from '../route.js';
import { VALIDATORS_JOB } from '@xle/documents';

type Json = Record<string, unknown>;

/** The validators data set: computed from a validator list by the validators job. */
const VALIDATORS = { job: VALIDATORS_JOB, command: 'pnpm ingest validators --list FILE_OR_URL' };
const AgreementSchema = Type.Object({
  missed: Type.Number(),
  total: Type.Number(),
  score: Type.String(),
  incomplete: Type.Boolean(),
});

/**
 * The spec's Validator registry entry (pure). `domain_legacy` is always null: it named the domain
 * an older, retired verification scheme attested, and no source of it is collected.
 */
export function shapeRegistryEntry(doc: Json): Json {
  return {
    master_key: doc.master_key,
    ephemeral_key: doc.ephemeral_key ?? null,
    chain: doc.chain,
    last_seen: doc.last_seen ?? null,
    ledger_index: doc.ledger_index ?? null,
    meta: doc.meta ?? null,
    server_version: doc.server_version ?? null,
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

/** A validator by master key (its document id), or by the ephemeral key it signs with now. */
async function findValidator(engine: Engine, key: string): Promise<Json> {
  const byMaster = await engine.get<Json>('validators', key);
  if (byMaster !== undefined) return byMaster;
  const found = await engine.search<Json>('validators', {
    query: { bool: { should: [{ term: { signing_key: key } }, { term: { ephemeral_key: key } }] } },
    sort: [{ master_key: 'asc' }],
    size: 1,
  });
  const doc = found.hits.hits[0]?._source;
  if (doc === undefined) throw new NotFoundError(`No validator ${key} is known.`, { public_key: key });
  return doc;
}

export function validatorRoutes(engine: Engine): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/validatorregistry',
      dataSet: VALIDATORS,
      summary: 'Active validators: on the verified UNL, or seen validating in the last 24 hours',
      tags: ['Other resources'],
      params: NoParams,
      query: NoQuery,
      response: Type.Array(AnyObject),
      handler: async () => {
        const found = await engine.search<Json>('validators', {
          query: { term: { active: true } },
          sort: [{ master_key: 'asc' }],
          size: 10_000,
        });
        return found.hits.hits.map((h) => shapeRegistryEntry(h._source ?? {}));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/validator/{VALIDATOR_PUBLIC_KEY}',
      dataSet: VALIDATORS,
      summary: 'One validator (by master or ephemeral key), with its agreement over 1 h, 24 h and 30 days',
      tags: ['Other resources'],
      params: Type.Object({ VALIDATOR_PUBLIC_KEY: PublicKeyParam }),
      query: NoQuery,
      response: Type.Object(
        {
          agreement_1h: AgreementSchema,
          agreement_24h: AgreementSchema,
          agreement_30day: AgreementSchema,
          result: Type.Literal('success'),
        },
        { additionalProperties: true },
      ),
      handler: async (_ctx, { params }) => {
        return shapeValidatorInfo(await findValidator(engine, params.VALIDATOR_PUBLIC_KEY));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/validator/{PUBLIC_KEY}/reports',
      dataSet: VALIDATORS,
      summary: 'Daily agreement reports of one validator, newest day first',
      tags: ['Other resources'],
      params: Type.Object({ PUBLIC_KEY: PublicKeyParam }),
      query: NoQuery,
      response: Type.Object(
        { result: Type.Literal('success'), count: Type.Number(), reports: Type.Array(AnyObject) },
        { additionalProperties: false },
      ),
      handler: async (_ctx, { params }) => {
        return shapeReports(await findValidator(engine, params.PUBLIC_KEY));
      },
    }),
  ];
}
