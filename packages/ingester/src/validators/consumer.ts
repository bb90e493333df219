import { setTimeout as sleep } from 'node:timers/promises';
import { Client as XrplClient } from 'xrpl';
import type { Logger } from '@xle/core';
import type { WriteOp } from '../writes.js';
import type { IngestEngine } from '../engine/ingest-engine.js';
import { manifestFromStream, type DecodedManifest, type ManifestStreamMessage } from './manifest.js';
import { parseValidation, validationId, type ValidationDoc, type ValidationStreamMessage } from './validations.js';

export interface ConsumerTotals {
  validations: number;
  /** Validations whose `data` signature failed: stored with verified false, never counted. */
  unverified: number;
  manifests: number;
  /** Manifests refused: undecodable or with a signature that does not verify. */
  rejectedManifests: number;
  /** Manifests older than the one already stored for their master key. */
  supersededManifests: number;
  /** Stream messages that are not validations or manifests at all. */
  malformed: number;
  /** Documents the engine refused. */
  failed: number;
}

/**
 * Writes validations (deterministic id `<signing key>.<ledger index>`, so a replay rewrites the
 * same documents) and manifests (id = master key, external version = sequence, so an older
 * manifest arriving late never replaces a newer one).
 */
export class ValidationStore {
  constructor(private readonly engine: IngestEngine) {}

  /** Signing key -> master key of every verified manifest stored so far. */
  async loadMasters(): Promise<Map<string, string>> {
    const masters = new Map<string, string>();
    for await (const hit of this.engine.scan<DecodedManifest>('manifests', {
      query: { term: { verified: true } },
      sort: [{ master_key: 'asc' }],
      _source: ['master_key', 'signing_key'],
    }))
      if (hit._source?.signing_key !== undefined) masters.set(hit._source.signing_key, hit._source.master_key);
    return masters;
  }

  async write(
    validations: readonly ValidationDoc[],
    manifests: readonly (DecodedManifest & { received_at: string })[],
  ): Promise<{ failed: number; superseded: number }> {
    if (validations.length === 0 && manifests.length === 0) return { failed: 0, superseded: 0 };
    const manifestIndex = this.engine.index('manifests');
    const ops: WriteOp[] = [
      ...validations.map((v) => ({
        index: this.engine.rangeAlias('validations', v.ledger_index),
        id: validationId(v),
        doc: v as unknown as Record<string, unknown>,
        ledgerIndex: v.ledger_index,
        range: { kind: 'validations' as const, ledgerIndex: v.ledger_index },
      })),
      ...manifests.map((m) => ({
        index: manifestIndex,
        id: m.master_key,
        doc: m as unknown as Record<string, unknown>,
        version: m.sequence,
        versionType: 'external_gte' as const,
        ledgerIndex: 0,
      })),
    ];
    const result = await this.engine.write(ops, { refresh: true });
    // A manifest older than the stored one is superseded; anything else refused is a dead letter.
    return { failed: result.deadLetters, superseded: result.superseded.length };
  }
}

export interface ConsumerOptions {
  url: string;
  store: ValidationStore;
  logger: Logger;
  /** Writes are batched: at most this many documents, or this long, whichever comes first. */
  batchSize?: number;
  flushMs?: number;
  backoffMs?: number;
  maxBackoffMs?: number;
}

/**
 * Follows rippled's `validations` and `manifests` streams into the validations and manifests
 * indices until `signal` aborts, reconnecting with backoff. Validations missed while disconnected
 * are gone (streams do not replay): the agreement they would have counted is marked incomplete
 * only when collection started after a period began, so run it continuously.
 */
export async function consumeValidations(options: ConsumerOptions, signal: AbortSignal): Promise<ConsumerTotals> {
  const totals: ConsumerTotals = {
    validations: 0,
    unverified: 0,
    manifests: 0,
    rejectedManifests: 0,
    supersededManifests: 0,
    malformed: 0,
    failed: 0,
  };
  const masters = await options.store.loadMasters();
  const batchSize = options.batchSize ?? 500;
  let validations: ValidationDoc[] = [];
  let manifests: (DecodedManifest & { received_at: string })[] = [];
  let flushing: Promise<void> = Promise.resolve();
  const flush = (): Promise<void> => {
    const v = validations;
    const m = manifests;
    validations = [];
    manifests = [];
    flushing = flushing.then(async () => {
      try {
        const { failed, superseded } = await options.store.write(v, m);
        totals.failed += failed;
        totals.supersededManifests += superseded;
        if (failed > 0) options.logger.warn({ failed }, 'the engine refused validation documents');
      } catch (error) {
        // The engine is unreachable: keep the documents for the next flush rather than lose them.
        validations = [...v, ...validations];
        manifests = [...m, ...manifests];
        options.logger.warn({ error: (error as Error).message, pending: validations.length }, 'write failed, retrying');
      }
    });
    return flushing;
  };
  const onValidation = (message: ValidationStreamMessage): void => {
    try {
      const doc = parseValidation(message, (key) => masters.get(key));
      validations.push(doc);
      totals.validations += 1;
      if (doc.verified === false) {
        totals.unverified += 1;
        options.logger.warn({ key: doc.validation_public_key, why: doc.verification_message }, 'unverified validation');
      }
    } catch (error) {
      totals.malformed += 1;
      options.logger.warn({ error: (error as Error).message }, 'malformed validation message');
    }
    if (validations.length + manifests.length >= batchSize) void flush();
  };
  const onManifest = (message: ManifestStreamMessage): void => {
    let manifest: DecodedManifest;
    try {
      manifest = manifestFromStream(message);
    } catch (error) {
      totals.rejectedManifests += 1;
      options.logger.warn({ error: (error as Error).message }, 'undecodable manifest');
      return;
    }
    if (!manifest.verified) {
      totals.rejectedManifests += 1;
      options.logger.warn({ master: manifest.master_key, why: manifest.verification_message }, 'manifest refused');
      return;
    }
    if (manifest.signing_key !== undefined) masters.set(manifest.signing_key, manifest.master_key);
    manifests.push({ ...manifest, received_at: new Date().toISOString() });
    totals.manifests += 1;
  };

  const timer = setInterval(() => void flush(), options.flushMs ?? 1000);
  let failures = 0;
  try {
    while (!signal.aborted) {
      const xrpl = new XrplClient(options.url, { connectionTimeout: 5000 });
      xrpl.on('error', (...args: unknown[]) =>
        options.logger.warn({ error: args.map(String).join(' ') }, 'rippled connection error'),
      );
      xrpl.on('validationReceived', (m) => onValidation(m as unknown as ValidationStreamMessage));
      xrpl.on('manifestReceived', (m) => onManifest(m as unknown as ManifestStreamMessage));
      try {
        await xrpl.connect();
        await xrpl.request({ command: 'subscribe', streams: ['validations', 'manifests'] });
        failures = 0;
        options.logger.info({ url: options.url }, 'following validations and manifests');
        await new Promise<void>((resolve) => {
          xrpl.once('disconnected', () => resolve());
          signal.addEventListener('abort', () => resolve(), { once: true });
        });
      } catch (error) {
        if (!signal.aborted) options.logger.warn({ error: (error as Error).message }, 'rippled stream interrupted');
      } finally {
        xrpl.removeAllListeners();
        await xrpl.disconnect().catch(() => undefined);
      }
      await flush();
      if (signal.aborted) break;
      const wait = Math.min((options.backoffMs ?? 500) * 2 ** failures, options.maxBackoffMs ?? 30_000);
      failures += 1;
      options.logger.warn({ waitMs: wait }, 'reconnecting to rippled');
      await sleep(wait, undefined, { signal }).catch(() => undefined);
    }
  } finally {
    clearInterval(timer);
    await flush();
  }
  return totals;
}
