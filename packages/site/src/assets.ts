import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * The site's static files: one stylesheet and one icon, read once from the package's source
 * folder and served under content-hashed paths (`/assets/site.<hash>.css`), so a browser keeps
 * them a year and a new version is a new path.
 */
export interface Asset {
  path: string;
  type: string;
  body: Buffer;
}

function asset(file: string, type: string): Asset {
  // Compiled to dist/src/: the sources stay in src/assets/ (tsc copies no CSS).
  const body = readFileSync(new URL(`../../src/assets/${file}`, import.meta.url));
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  const dot = file.lastIndexOf('.');
  return { path: `/assets/${file.slice(0, dot)}.${hash}${file.slice(dot)}`, type, body };
}

let loaded: { stylesheet: Asset; icon: Asset } | undefined;

/** The assets, read on first use. */
export function siteAssets(): { stylesheet: Asset; icon: Asset } {
  loaded ??= {
    stylesheet: asset('site.css', 'text/css; charset=utf-8'),
    icon: asset('icon.svg', 'image/svg+xml'),
  };
  return loaded;
}
