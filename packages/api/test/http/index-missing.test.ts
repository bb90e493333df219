import t from 'tap';
import { rangeIndices } from '@xle/core';
import { createTestIndices } from '@xle/test-helpers';
import { getJson, serve } from '../fixtures/serve.js';

/**
 * An index deleted under a running app (an operator's mistake, or a `--recreate-stale` under way):
 * the routes that read it answer 503 INDEX_NOT_FOUND with Retry-After, never a 500, and never name
 * the index.
 */
const HASH = 'B0DAF34D43E286943C5BBE79BA2CBDAC9C385E194FE2959DEAAFA4B4C71E505E';

const target = await createTestIndices(t);
const base = await serve(t, target);

t.test('the range indices deleted under the app: 503 INDEX_NOT_FOUND', async (t) => {
  t.equal((await getJson(`${base}/ledgers`)).status, 200, 'answers while the indices are there');
  t.equal((await getJson(`${base}/tx/${HASH}`)).status, 404, 'a transaction not indexed is 404');
  for (const kind of ['ledgers', 'transactions'] as const)
    for (const index of await rangeIndices(target.client, target.naming, kind))
      await target.client.indices.delete({ index });
  for (const path of ['/ledgers', `/tx/${HASH}`]) {
    const answer = await getJson(`${base}${path}`);
    t.equal(answer.status, 503, path);
    t.match(answer.body, { error: { code: 'INDEX_NOT_FOUND' } }, path);
    t.equal(answer.headers.get('retry-after'), '30', `${path}: Retry-After`);
    t.notMatch(JSON.stringify(answer.body), target.naming.prefix, `${path}: no index named`);
  }
});
