// The import graph is part of the design: the rules below are the README's architecture rules,
// checked by ESLint on every `pnpm lint`. A wrong arrow fails lint, not a review.

/** Which workspace packages each package's source may import (tests and scripts may import any). */
export const PACKAGE_ARROWS = {
  documents: [],
  core: [],
  engine: ['core'],
  access: ['core', 'documents'],
  ingester: ['core', 'documents'],
  search: ['core', 'documents', 'access'],
  api: ['core', 'documents', 'access', 'search'],
  site: ['core', 'documents', 'api'],
};

/**
 * The engine modules: the only source files that import the search engine's client (anything of
 * `@elastic/elasticsearch` but its `estypes` types) and the only ones that call it.
 */
export const ENGINE_MODULES = ['packages/*/src/engine.ts', 'packages/*/src/engine/**/*.ts'];

/**
 * Composition roots: they build an app or a server and hand the client to the engine modules,
 * without calling it (`Client` may be named, and `client.close()` called, here).
 */
export const COMPOSITION_ROOTS = [
  'packages/api/src/app.ts',
  'packages/search/src/app.ts',
  'packages/core/src/http/serve.ts',
];

/**
 * Pure modules: query builders, response shapers, the document transforms, the ingester's
 * transform stage and the jobs' builders. They import no client and do no I/O.
 */
export const PURE_MODULES = [
  'packages/documents/src/**/*.ts',
  'packages/api/src/queries/**/*.ts',
  'packages/api/src/shapers/**/*.ts',
  'packages/site/src/model/**/*.ts',
  'packages/site/src/views/**/*.tsx',
  'packages/ingester/src/pipeline/batch.ts',
  'packages/ingester/src/jobs/**/build.ts',
  'packages/search/src/sql/{ast,fields,where,group-by,having,select,plan,translate,parse,schema,show,expressions}.ts',
  'packages/search/src/closest.ts',
];

const PACKAGES = Object.keys(PACKAGE_ARROWS);

/** Node modules that do I/O: a pure module imports none of them. */
const IO_MODULES = [
  'fs',
  'fs/promises',
  'http',
  'https',
  'http2',
  'net',
  'tls',
  'dns',
  'dgram',
  'child_process',
  'worker_threads',
  'readline',
].flatMap((m) => [m, `node:${m}`]);

function importRestrictions({ pkg, engine, root, pure }) {
  const paths = [];
  const patterns = [];
  const forbidden = PACKAGES.filter((p) => p !== pkg && !PACKAGE_ARROWS[pkg].includes(p));
  if (forbidden.length > 0)
    patterns.push({
      group: forbidden.map((p) => `@xle/${p}`),
      message: `${pkg} may import only ${PACKAGE_ARROWS[pkg].map((p) => `@xle/${p}`).join(', ') || 'no workspace package'} (lint/architecture.js).`,
    });
  if (!engine) {
    paths.push({
      name: '@elastic/elasticsearch',
      allowImportNames: ['estypes'],
      message: 'Only the engine modules import the client; elsewhere import only its estypes types.',
    });
    if (!root)
      paths.push({
        name: '@xle/core',
        importNames: ['Client', 'createEngineClient'],
        message: 'Only the engine modules and the composition roots hold the engine client.',
      });
  }
  if (pure) {
    for (const name of IO_MODULES) paths.push({ name, message: 'A pure module does no I/O.' });
    patterns.push({
      group: ['**/engine', '**/engine.js', '**/engine/**', 'koa', '@koa/*', 'ws', 'pino'],
      message: 'A pure module does no I/O: no engine, server or logger.',
    });
  }
  return ['error', { paths, patterns }];
}

function syntaxRestrictions({ engine, root, pure }) {
  const rules = [
    { selector: 'ExportAllDeclaration', message: 'Every module exports an explicit list (no `export *`).' },
  ];
  if (!engine) {
    const notClose = root ? "[property.name!='close']" : '';
    rules.push(
      {
        selector: `MemberExpression[object.name='client']${notClose}`,
        message: 'Only the engine modules call the engine client.',
      },
      {
        selector:
          "MemberExpression[object.type='MemberExpression'][object.object.type='ThisExpression'][object.property.name='client']",
        message: 'Only the engine modules call the engine client.',
      },
    );
  }
  if (pure) rules.push({ selector: "CallExpression[callee.name='fetch']", message: 'A pure module does no I/O.' });
  return ['error', ...rules];
}

/**
 * One ESLint config block per kind of source file of each package. Flat config does not merge
 * options of a rule across blocks, so each block carries the whole rule for its files, and the
 * blocks' file sets do not overlap.
 */
export function architectureConfigs() {
  const configs = [];
  for (const pkg of PACKAGES) {
    const src = `packages/${pkg}/src/**/*.{ts,tsx}`;
    const kinds = [
      {
        name: 'engine',
        files: ENGINE_MODULES.filter((g) => g.startsWith('packages/*/')).map((g) => g.replace('*', pkg)),
        engine: true,
      },
      { name: 'root', files: COMPOSITION_ROOTS.filter((g) => g.startsWith(`packages/${pkg}/`)), root: true },
      { name: 'pure', files: PURE_MODULES.filter((g) => g.startsWith(`packages/${pkg}/`)), pure: true },
    ].filter((k) => k.files.length > 0);
    const claimed = [];
    for (const kind of kinds) {
      configs.push({
        name: `architecture/${pkg}/${kind.name}`,
        files: kind.files,
        ignores: [...claimed],
        rules: {
          'no-restricted-imports': importRestrictions({ pkg, ...kind }),
          'no-restricted-syntax': syntaxRestrictions(kind),
        },
      });
      claimed.push(...kind.files);
    }
    configs.push({
      name: `architecture/${pkg}/other`,
      files: [src],
      ignores: claimed,
      rules: {
        'no-restricted-imports': importRestrictions({ pkg }),
        'no-restricted-syntax': syntaxRestrictions({}),
      },
    });
  }
  return configs;
}
