#!/usr/bin/env node
/**
 * Regenerates the ingester's bundled list of known amendments
 * (`packages/ingester/data/amendments.json`) from the XRPL documentation's amendment snapshot and
 * its list of obsolete amendments (copies under `../shared/xrpl-fixtures/amendments`):
 *
 *   node scripts/dist/src/bundle-amendments.js [snapshot.json obsolete.json]
 *
 * The list gives names, the rippled version that introduced each amendment, whether it is
 * retired or removed, and the enabling ledger and transaction of mainnet's history before the
 * indexed ledgers. What the indexed ledgers themselves say always takes precedence over it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesDir, repoRoot } from '@xle/core';

interface SnapshotEntry {
  id: string;
  name: string;
  rippled_version: string;
  retired?: boolean;
  obsolete?: boolean;
  ledger_index?: number;
  tx_hash?: string;
  date?: string;
}

interface ObsoleteEntry {
  id: string;
  name: string;
  rippled_version: string;
  status: string;
}

const [
  snapshotFile = join(fixturesDir, 'amendments/amendments-snapshot.json'),
  obsoleteFile = join(fixturesDir, 'amendments/obsolete-amendments.json'),
] = process.argv.slice(2);
const snapshot = JSON.parse(readFileSync(snapshotFile, 'utf8')) as { fetched_at: string; amendments: SnapshotEntry[] };
const obsolete = JSON.parse(readFileSync(obsoleteFile, 'utf8')) as ObsoleteEntry[];

const amendments = [
  ...snapshot.amendments.map((a) => ({
    id: a.id,
    name: a.name,
    introduced: a.rippled_version,
    retired: a.retired === true,
    obsolete: a.obsolete === true,
    ...(a.ledger_index === undefined || a.tx_hash === undefined || a.date === undefined
      ? {}
      : { enabled: { ledger_index: a.ledger_index, tx_hash: a.tx_hash, date: a.date } }),
  })),
  ...obsolete.map((a) => ({
    id: a.id,
    name: a.name,
    introduced: a.rippled_version,
    retired: false,
    obsolete: true,
    removed_in: /Removed in (\S+)/.exec(a.status)?.[1] ?? a.status,
  })),
].sort((a, b) => a.name.localeCompare(b.name));

const out = join(repoRoot, 'packages/ingester/data/amendments.json');
writeFileSync(
  out,
  `${JSON.stringify({ source: 'XRPLF/xrpl-dev-portal amendments snapshot', fetched_at: snapshot.fetched_at, amendments }, null, 2)}\n`,
);
console.log(`wrote ${amendments.length} amendments to ${out}`);
