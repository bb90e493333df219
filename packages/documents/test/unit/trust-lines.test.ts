import t from 'tap';
import { readFixture } from '@xle/test-helpers';
import { trustLineOf, type Json, type TrustLine } from '../../src/index.js';

// rippled's account_lines answer has the shape of a TrustLine (and writes false flags out).
t.test("trust lines from ledger entries agree with rippled's own account_lines", async (t) => {
  const { result: lines } = readFixture<{ result: { account: string; lines: TrustLine[] } }>(
    'rpc/xrpl-dev-portal/account_lines.ws-response.json',
  );
  const { result: objects } = readFixture<{ result: { account_objects: Json[] } }>(
    'rpc/xrpl-dev-portal/account_objects.ws-response.json',
  );
  const entries = objects.account_objects.filter((o) => o.LedgerEntryType === 'RippleState');
  t.ok(entries.length >= 5, `${entries.length} trust lines`);
  for (const entry of entries) {
    const ours = trustLineOf(entry, lines.account);
    const theirs = lines.lines.find((l) => l.account === ours.account && l.currency === ours.currency);
    if (theirs === undefined) continue;
    const flags = (line: Partial<TrustLine>): boolean[] =>
      (['no_ripple', 'no_ripple_peer', 'freeze', 'freeze_peer', 'authorized', 'peer_authorized'] as const).map(
        (flag) => line[flag] === true,
      );
    t.same(flags(ours), flags(theirs), `${ours.currency} with ${ours.account}: the same flags`);
    t.same([ours.limit, ours.limit_peer], [theirs.limit, theirs.limit_peer], `${ours.currency}: the same limits`);
  }
});
