import t from 'tap';
import { API_KEY_PATTERN, generateApiKey, hashApiKey, keyIdOf, readCredential } from '../../src/plans/api-keys.js';

t.test('keys: 256 random bits, stored as SHA-256, listed by a hash prefix', async (t) => {
  const key = generateApiKey();
  t.match(key, API_KEY_PATTERN);
  t.not(generateApiKey(), key);
  const hash = hashApiKey(key);
  t.match(hash, /^[0-9a-f]{64}$/);
  t.equal(keyIdOf(hash), `key_${hash.slice(0, 16)}`);
  t.notOk(keyIdOf(hash).includes(key.slice(4, 20)), 'the id says nothing about the key');
});

t.test('credentials from X-API-Key or Authorization: Bearer', async (t) => {
  const key = generateApiKey();
  t.same(readCredential({ apiKey: '', authorization: '' }), { kind: 'none' });
  t.same(readCredential({ apiKey: key, authorization: '' }), { kind: 'key', key });
  t.same(readCredential({ apiKey: '', authorization: `Bearer ${key}` }), { kind: 'key', key });
  t.same(readCredential({ apiKey: key, authorization: `bearer ${key}` }), { kind: 'key', key }, 'both, agreeing');
  t.match(readCredential({ apiKey: key, authorization: `Bearer ${generateApiKey()}` }), { kind: 'malformed' });
  t.match(readCredential({ apiKey: '', authorization: 'Basic dXNlcjpwYXNz' }), { kind: 'malformed' });
  t.match(readCredential({ apiKey: 'xle_short', authorization: '' }), { kind: 'malformed' });
  t.match(readCredential({ apiKey: `${key}x`, authorization: '' }), { kind: 'malformed' });
});
