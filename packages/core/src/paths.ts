import { fileURLToPath } from 'node:url';

/** Repository root, whether this runs from packages/core/src (tests) or packages/core/dist/src. */
export const repoRoot = fileURLToPath(
  new URL(import.meta.url.includes('/dist/') ? '../../../../' : '../../../', import.meta.url),
);

/** The committed index and component templates (JSON data). */
export const templatesDir = `${repoRoot}index-templates`;

/**
 * The real mainnet fixtures shared beside the repository (../shared/xrpl-fixtures), used by the
 * tests and the demo data set; `XRPL_FIXTURES_DIR` points elsewhere.
 */
export const fixturesDir = process.env.XRPL_FIXTURES_DIR ?? `${repoRoot}../shared/xrpl-fixtures`;
