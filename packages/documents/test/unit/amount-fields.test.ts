import { readFileSync } from 'node:fs';
import t from 'tap';
import { templatesDir } from '@xle/core';
import { AMOUNT_FIELDS } from '../../src/index.js';

t.test('the amount fields are exactly the amount component of the index templates', async (t) => {
  const component = JSON.parse(readFileSync(`${templatesDir}/components/amount.json`, 'utf8')) as {
    template: { mappings: { properties: Record<string, unknown> } };
  };
  const mapped = Object.keys(component.template.mappings.properties).filter((name) => name !== 'meta');
  t.same([...AMOUNT_FIELDS].sort(), mapped.sort());
});
