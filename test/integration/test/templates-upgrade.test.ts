import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { applyTemplates, indexName, templatesDir } from '@xle/core';
import { createTestIndices } from '@xle/test-helpers';
import type { Json } from '@xle/documents';

/** A copy of the committed templates with `facts.json` edited, to stand for an older or newer release. */
function templatesWith(edit: (properties: Json) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'xle-templates-'));
  cpSync(templatesDir, dir, { recursive: true });
  const file = join(dir, 'indices/facts.json');
  const template = JSON.parse(readFileSync(file, 'utf8')) as { template: { mappings: { properties: Json } } };
  edit(template.template.mappings.properties);
  writeFileSync(file, JSON.stringify(template));
  return dir;
}

t.test(
  'an upgrade that adds fields merges them into the live index; a conflicting one is reported stale',
  async (t) => {
    const older = templatesWith((p) => delete p.computed_at);
    const conflicting = templatesWith((p) => (p.ledger_index = { type: 'keyword' }));
    t.teardown(() => {
      rmSync(older, { recursive: true, force: true });
      rmSync(conflicting, { recursive: true, force: true });
    });
    const { client, naming } = await createTestIndices(t);
    const index = indexName(naming, 'facts');
    await client.indices.delete({ index });
    await applyTemplates(client, naming, { dir: older });
    await client.index({
      index,
      id: 'XRP.accounts',
      document: { namespace: 'XRP', fact_id: 'accounts', value: '1' },
      refresh: true,
    });

    const upgrade = await applyTemplates(client, naming);
    t.match(
      upgrade.changes.find((c) => c.type === 'index' && c.name === index),
      { action: 'updated', detail: /merged/ },
    );
    const mapping = await client.indices.getMapping({ index });
    t.equal(Object.values(mapping)[0]?.mappings.properties?.computed_at?.type, 'date', 'the new field is mapped');
    t.equal((await client.count({ index })).count, 1, 'no document was lost');
    t.match(
      (await applyTemplates(client, naming)).changes.find((c) => c.name === index && c.type === 'index'),
      {
        action: 'unchanged',
      },
    );

    const conflict = await applyTemplates(client, naming, { dir: conflicting });
    t.match(
      conflict.changes.find((c) => c.type === 'index' && c.name === index),
      { action: 'stale' },
    );
    t.equal((await client.count({ index })).count, 1);
  },
);
