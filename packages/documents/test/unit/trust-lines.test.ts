import t from 'tap';
import { readFixture } from '@xle/test-helpers';
import { trustLineOf, type Json } from '../../src/index.js';

interface RippledLine {
  account: string;
  currency: string;
  balance: string;
  limit: string;
  limit_peer: string;
  no_ripple?: boolean;
  no_ripple_peer?: boolean;
  freeze?: boolean;
  freeze_peer?: boolean;
  authorized?: boolean;
  peer_authorized?: boolean;
}

t.test("trust lines from ledger entries agree with rippled's own account_lines", async (t) => {
  const { result: lines } = readFixture<{ result: { account: string; lines: RippledLine[] } }>(
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
    const flags = (line: Partial<RippledLine>): boolean[] =>
      (['no_ripple', 'no_ripple_peer', 'freeze', 'freeze_peer', 'authorized', 'peer_authorized'] as const).map(
        (flag) => line[flag] === true,
      );
    t.same(flags(ours), flags(theirs), `${ours.currency} with ${ours.account}: the same flags`);
    t.same([ours.limit, ours.limit_peer], [theirs.limit, theirs.limit_peer], `${ours.currency}: the same limits`);
  }
});
