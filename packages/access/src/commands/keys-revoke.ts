import { defineCommand } from '@xle/core';
import { API_KEY_PATTERN, hashApiKey, keyIdOf } from '../plans/api-keys.js';
import { withStores } from './stores.js';

export const keysRevokeCommand = defineCommand({
  usage: 'keys revoke <KEY_ID|KEY>',
  summary:
    'revoke a key by its id (key_…), or by the key itself when only the secret is known (a leaked key):\n' +
    'every API process refuses it within 5 s. The secret is never printed back.',
  positionals: { min: 1, max: 1 },
  run: ({ positionals: [given = ''] }) =>
    withStores(async ({ keys, config }) => {
      // A key given by its value is revoked by the id of its hash; only the id is ever printed.
      const keyId = API_KEY_PATTERN.test(given) ? keyIdOf(hashApiKey(given)) : given;
      const shown = API_KEY_PATTERN.test(given) ? `${keyId} (the key given)` : keyId;
      if (!(await keys.revoke(keyId))) {
        console.error(`no key ${shown} on ${config.network}`);
        return 1;
      }
      console.log(`revoked ${keyId}`);
      return 0;
    }),
});
