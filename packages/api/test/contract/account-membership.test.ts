import { createRequire } from 'node:module';
import t from 'tap';
import { encodeAccountID } from 'xrpl';
import { listFixtureLedgers, pool, readRawLedger } from '@xle/test-helpers';
import { getJson, loadedIndices, serve } from '../fixtures/serve.js';

/**
 * An account's transactions are rippled's account_tx list: rippled files a transaction under every
 * account `TxMeta::getAffectedAccounts` names (src/libxrpl/protocol/TxMeta.cpp), and lists them
 * newest first by ledger then position in the ledger (oldest first with `forward`). The rule is
 * written out again here from rippled's source, over the fixture files read as raw JSON, sharing
 * no code with the service: for each affected node, the top-level fields of NewFields (created)
 * or FinalFields (modified, deleted); each field whose type in rippled's definitions
 * (definitions.json, read as a file) is AccountID; the non-zero issuer of LowLimit, HighLimit,
 * TakerPays and TakerGets; the issuer inside an MPTokenIssuanceID. Each account's pages are then
 * followed to their end, both ways, and must list exactly those transactions in that order.
 */
type Json = Record<string, unknown>;

const require = createRequire(import.meta.url);
const definitions = require('ripple-binary-codec/dist/enums/definitions.json') as {
  FIELDS: [string, { type: string }][];
};
const ACCOUNT_ID = new Set(definitions.FIELDS.filter(([, f]) => f.type === 'AccountID').map(([name]) => name));
const LIMITS = ['LowLimit', 'HighLimit', 'TakerPays', 'TakerGets'];
const XRP_ISSUER = 'rrrrrrrrrrrrrrrrrrrrrhoLvTp';

function rippledAffected(meta: Json): Set<string> {
  const accounts = new Set<string>();
  for (const node of (meta.AffectedNodes ?? []) as Json[]) {
    const [kind, body] = Object.entries(node)[0] as [string, Json];
    const inner = (kind === 'CreatedNode' ? body.NewFields : body.FinalFields) as Json | undefined;
    if (inner === undefined) continue;
    for (const [name, value] of Object.entries(inner)) {
      if (ACCOUNT_ID.has(name)) accounts.add(value as string);
      if (LIMITS.includes(name) && typeof value === 'object' && value !== null) {
        const issuer = (value as Json).issuer;
        if (typeof issuer === 'string' && issuer !== XRP_ISSUER) accounts.add(issuer);
      }
      if (name === 'MPTokenIssuanceID') accounts.add(encodeAccountID(Buffer.from(String(value).slice(8), 'hex')));
    }
  }
  return accounts;
}

/** Every account's transactions, in rippled's order (newest first), from the raw fixture files. */
const expected = new Map<string, { hash: string; order: number }[]>();
const seen = new Set<string>();
for (const file of listFixtureLedgers())
  for (const raw of readRawLedger(file).transactions) {
    const hash = String(raw.tx.hash).toUpperCase();
    if (seen.has(hash)) continue; // 83258110 comes twice (binary and expanded)
    seen.add(hash);
    const order = raw.ledgerIndex * 1e6 + Number(raw.meta.TransactionIndex);
    for (const account of rippledAffected(raw.meta))
      expected.set(account, [...(expected.get(account) ?? []), { hash, order }]);
  }
for (const list of expected.values()) list.sort((a, b) => b.order - a.order);

const target = await loadedIndices(t);
const base = await serve(t, target);

/** Every page of an account's transactions, followed by marker to the end. */
async function walk(account: string, forward: boolean, limit: number): Promise<string[]> {
  const hashes: string[] = [];
  let marker: string | undefined;
  do {
    const query = `limit=${limit}${forward ? '&forward=true' : ''}${marker === undefined ? '' : `&marker=${marker}`}`;
    const answer = await getJson(`${base}/account/${account}/transactions?${query}`);
    if (answer.status !== 200) throw new Error(`${account}: ${answer.status} ${JSON.stringify(answer.body)}`);
    const page = answer.body as { transactions: { hash: string }[]; marker?: string };
    hashes.push(...page.transactions.map((x) => x.hash));
    marker = page.marker;
  } while (marker !== undefined);
  return hashes;
}

t.test("every account's pages list exactly rippled's account_tx, in its order", async (t) => {
  const accounts = [...expected.keys()].sort();
  t.ok(accounts.length > 500, `${accounts.length} accounts named by the fixtures' metadata`);
  const wrong: Json[] = [];
  await pool(accounts, async (account) => {
    const want = (expected.get(account) ?? []).map((x) => x.hash);
    const newest = await walk(account, false, 50);
    if (newest.join() !== want.join()) {
      const missing = want.filter((h) => !newest.includes(h));
      const extra = newest.filter((h) => !want.includes(h));
      wrong.push({ account, direction: 'newest first', missing: missing.slice(0, 3), extra: extra.slice(0, 3) });
    }
  });
  t.same(wrong.slice(0, 5), [], `${wrong.length} accounts whose list is not rippled's`);
});

t.test('forward, small pages: the same list oldest first', async (t) => {
  // The busiest accounts (many pages) and the issue's examples.
  const accounts = [...expected]
    .sort((a, b) => b[1].length - a[1].length)
    .slice(0, 25)
    .map(([a]) => a);
  for (const account of [
    'rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y',
    'rMwjYedjc7qqtKYVLiAccJSmCwih4LnE2q',
    'rvYAfWj5gh67oV6fW32ZzP3Aw4Eubs59B',
    'rMAz5ZnK73nyNUL4foAvaxdreczCkG3vA6',
  ])
    if (!accounts.includes(account)) accounts.push(account);
  for (const account of accounts) {
    const want = (expected.get(account) ?? []).map((x) => x.hash).reverse();
    t.same(await walk(account, true, 7), want, `${account}: ${want.length} oldest first`);
  }
  // The cases the rule decides: an OfferCancel filed under the issuer of the deleted offer's
  // TakerGets; a transaction naming the account only in its own fields is not; a
  // tecUNFUNDED_OFFER whose metadata touches only its sender is not filed under its issuer.
  const rKiCet = await walk('rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y', false, 200);
  t.ok(rKiCet.includes('8603E771F11BE3D8352873B7DCC364D05C69140D16EF242324C3AA64AEE15C6A'), 'the OfferCancel');
  t.notOk(rKiCet.includes('3EF82A668A58418CA2797760B8ABBB08FA7E09C8DD7A172FB50969042AB96FAB'), 'named in fields only');
  const unfunded = (await getJson(`${base}/tx/0796E0D22B6988F4FD247BE352FFD28D9E025F78B0FC26B3F9931333D1F90743`))
    .body as Json;
  t.equal((unfunded.meta as Json).TransactionResult, 'tecUNFUNDED_OFFER');
  const rMAz5 = await walk('rMAz5ZnK73nyNUL4foAvaxdreczCkG3vA6', false, 200);
  t.notOk(rMAz5.includes('0796E0D22B6988F4FD247BE352FFD28D9E025F78B0FC26B3F9931333D1F90743'), 'the unfunded offer');
});
