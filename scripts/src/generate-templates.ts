import { writeFileSync } from 'node:fs';
import { buildFieldComponents } from './field-mappings.js';
import { templatesDir } from '@xle/core';

/** Regenerates the generated component templates; review the diff and commit it. */
const { fields, amount } = buildFieldComponents();
for (const [name, body] of [
  ['fields', fields],
  ['amount', amount],
] as const) {
  const path = `${templatesDir}/components/${name}.json`;
  writeFileSync(path, `${JSON.stringify(body, null, 2)}\n`);
  console.log(`wrote ${path}`);
}
