import { defineCommand, UsageError } from '@xle/core';
import { isKeyPlan, KEY_PLANS } from '../plans/plans.js';
import { withStores } from './stores.js';

export const keysCreateCommand = defineCommand({
  usage: `keys create --plan ${KEY_PLANS.join('|')} [--label TEXT]`,
  summary: 'create a key; it is printed once, only its hash is stored',
  options: { plan: { type: 'string' }, label: { type: 'string' } },
  run: async ({ values }) => {
    const plan = values.plan ?? '';
    if (!isKeyPlan(plan)) throw new UsageError(`--plan takes one of ${KEY_PLANS.join(', ')}`);
    const { key, record, network } = await withStores(async ({ keys, config }) => ({
      ...(await keys.create(plan, values.label)),
      network: config.network,
    }));
    console.log(key);
    console.error(
      `created ${record.key_id} (${record.plan}${values.label === undefined ? '' : `, ${values.label}`}) on ${network}; the key above is not shown again`,
    );
    return 0;
  },
});
