import { defineCommand } from '@xle/core';
import { withStores } from './stores.js';

export const keysListCommand = defineCommand({
  usage: 'keys list [--json]',
  summary: 'key_id, plan, label, created_at, revoked (never the key)',
  options: { json: { type: 'boolean' } },
  run: async ({ values }) => {
    const records = await withStores(({ keys }) => keys.list());
    if (values.json === true) console.log(JSON.stringify(records, null, 2));
    else
      for (const r of records)
        console.log(
          [r.key_id, r.plan.padEnd(10), r.created_at, r.revoked ? 'revoked' : 'active ', r.label ?? ''].join('  '),
        );
    return 0;
  },
});
