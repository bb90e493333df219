import type { Config } from './config.js';

/** Every kind of document the product stores, one index (and one index template) each. */
export const INDEX_KINDS = [
  'transactions',
  'ledgers',
  'accounts',
  'objects',
  'tokens',
  'amendments',
  'validators',
  'validations',
  'manifests',
  'nodes',
  'names',
  'network',
  'metrics',
  'facts',
  'balances',
  'kyc',
  'api-keys',
  'usage',
  'payg-channels',
  'ingest-state',
  'dead-letters',
] as const;
export type IndexKind = (typeof INDEX_KINDS)[number];

export interface IndexNaming {
  prefix: string;
  network: Config['network'];
}

export function namingOf(config: Pick<Config, 'network' | 'es'>): IndexNaming {
  return { prefix: config.es.indexPrefix, network: config.network };
}

/**
 * `<prefix>-<network>-<kind>`, e.g. `xrpl-mainnet-transactions`. Mainnet and testnet never share
 * an index, and a test run uses its own prefix so it can never touch the demo's indices.
 */
export function indexName(naming: IndexNaming, kind: IndexKind): string {
  return `${naming.prefix}-${naming.network}-${kind}`;
}

/** Name of the composable index template that shapes `indexName(naming, kind)`. */
export function indexTemplateName(naming: IndexNaming, kind: IndexKind): string {
  return indexName(naming, kind);
}

/** Component templates are shared by both networks of one prefix. */
export function componentTemplateName(prefix: string, component: string): string {
  return `${prefix}-${component}`;
}
