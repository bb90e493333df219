import { defineCommand } from '@xle/core';
import { withStores } from './stores.js';

export const keysRevokeCommand = defineCommand({
  usage: 'keys revoke <KEY_ID>',
  summary: 'revoke a key (every API process refuses it within 5 s)',
  positionals: { min: 1, max: 1 },
  run: ({ positionals: [keyId = ''] }) =>
    withStores(async ({ keys, config }) => {
      if (!(await keys.revoke(keyId))) {
        console.error(`no key ${keyId} on ${config.network}`);
        return 1;
      }
      console.log(`revoked ${keyId}`);
      return 0;
    }),
});
