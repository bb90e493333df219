import t from 'tap';
import { clientAddress, normalizeAddress } from '../../src/plans/client-address.js';

t.test('X-Forwarded-For counts only behind trusted proxies', async (t) => {
  t.equal(clientAddress('10.0.0.5', '', 0), '10.0.0.5');
  t.equal(clientAddress('10.0.0.5', '203.0.113.9', 0), '10.0.0.5', 'ignored without trusted proxies');
  t.equal(clientAddress('10.0.0.5', '203.0.113.9', 1), '203.0.113.9');
  t.equal(clientAddress('10.0.0.5', '6.6.6.6, 203.0.113.9', 1), '203.0.113.9', 'a forged leftmost entry is skipped');
  t.equal(clientAddress('10.0.0.5', '203.0.113.9, 10.0.0.4', 2), '203.0.113.9', 'two proxies');
  t.equal(clientAddress('10.0.0.5', '203.0.113.9', 3), '203.0.113.9', 'a shorter chain: its leftmost entry');
  t.equal(clientAddress('10.0.0.5', 'not-an-address', 1), '10.0.0.5', 'an entry that is no address: the socket');
  t.equal(clientAddress('10.0.0.5', 'x'.repeat(600), 1), '10.0.0.5', 'nor can a long string mint a client');
});

t.test('addresses are normalised; IPv6 counts by /64', async (t) => {
  t.equal(normalizeAddress('::ffff:127.0.0.1'), '127.0.0.1');
  t.equal(normalizeAddress('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
  t.equal(normalizeAddress('2001:0db8:0001:0002::9'), '2001:db8:1:2::/64');
  t.equal(normalizeAddress('2001:db8::1'), '2001:db8:0:0::/64');
  t.equal(normalizeAddress('::1'), '0:0:0:0::/64');
  t.equal(normalizeAddress('fe80::1%eth0'), 'fe80:0:0:0::/64');
  t.equal(normalizeAddress('64:ff9b::192.0.2.1'), '64:ff9b:0:0::/64');
  t.equal(normalizeAddress('not an address'), 'not an address');
});
