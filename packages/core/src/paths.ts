import { fileURLToPath } from 'node:url';

/** Repository root, whether this runs from packages/core/src (tests) or packages/core/dist/src. */
export const repoRoot = fileURLToPath(
  new URL(import.meta.url.includes('/dist/') ? '../../../../' : '../../../', import.meta.url),
);

/** The committed index and component templates (JSON data). */
export const templatesDir = `${repoRoot}index-templates`;
