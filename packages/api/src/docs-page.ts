import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The interactive API reference: Scalar's standalone bundle (from the @scalar/api-reference
 * package, served by this process: no CDN, no web fonts fetched) rendering /api/v1/openapi.json.
 * Without JavaScript the page links the document itself.
 */
export interface DocsAssets {
  page: string;
  /** The versioned path the bundle is served at (cached for a year), and its bytes. */
  script: { path: string; body: () => Buffer };
}

const require = createRequire(import.meta.url);
// The package exports neither its manifest nor its browser bundle: both are found from its entry.
const root = require.resolve('@scalar/api-reference').replace(/dist[\\/]index\.js$/, '');
const version = (JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { version: string }).version;
let bundle: Buffer | undefined;
/** The 4 MB bundle, read once per process when it is first asked for (not by every app built). */
const bundleBytes = (): Buffer => (bundle ??= readFileSync(`${root}dist/browser/standalone.js`));

export function docsAssets(title: string): DocsAssets {
  const path = `/api/v1/docs/scalar-${version}.js`;
  const configuration = JSON.stringify({ withDefaultFonts: false, hideClientButton: true, telemetry: false });
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title.replace(/[<&]/g, '')}</title>
</head>
<body>
<noscript><p>This reference needs JavaScript. The API is described by its OpenAPI document: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p></noscript>
<script id="api-reference" data-url="/api/v1/openapi.json" data-configuration='${configuration}'></script>
<script src="${path}"></script>
</body>
</html>
`;
  return { page, script: { path, body: bundleBytes } };
}
