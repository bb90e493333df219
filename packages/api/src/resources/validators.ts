import { NotFoundError } from '@xle/core';
import type { Json } from '@xle/documents';
import type { Engine } from '../engine.js';
import { buildActiveValidatorsQuery, buildValidatorBySigningKeyQuery } from '../queries/validators.js';
import { shapeRegistryEntry, shapeReports, shapeValidatorInfo } from '../shapers/validators.js';

/** A validator by master key (its document id), or by the ephemeral key it signs with now. */
async function validatorDocument(engine: Engine, key: string): Promise<Json> {
  const byMaster = await engine.get<Json>('validators', key);
  if (byMaster !== undefined) return byMaster;
  const found = await engine.search<Json>('validators', buildValidatorBySigningKeyQuery(key));
  const doc = found.hits.hits[0]?._source;
  if (doc === undefined) throw new NotFoundError(`No validator ${key} is known.`, { public_key: key });
  return doc;
}

/** GET /validatorregistry: the active validators. */
export async function validatorRegistry(engine: Engine): Promise<Json[]> {
  const found = await engine.search<Json>('validators', buildActiveValidatorsQuery());
  return found.hits.hits.map((h) => shapeRegistryEntry(h._source ?? {}));
}

/** GET /validator/{VALIDATOR_PUBLIC_KEY}. */
export async function validatorInfo(engine: Engine, key: string): Promise<Json> {
  return shapeValidatorInfo(await validatorDocument(engine, key));
}

/** GET /validator/{PUBLIC_KEY}/reports: daily reports, newest first. */
export async function validatorReports(engine: Engine, key: string): Promise<Json> {
  return shapeReports(await validatorDocument(engine, key));
}
