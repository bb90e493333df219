import { createHash } from 'node:crypto';
import BigNumber from 'bignumber.js';
import t, { type Test } from 'tap';
import { encodeAccountID } from 'xrpl';
import { createLogger } from '@xle/core';
import type { Json, StatePage } from '@xle/documents';
import { IngestEngine, seedState, type WriteOp } from '@xle/ingester';
import { createTestIndices } from '@xle/test-helpers';
import { encodePageMarker } from '../../src/queries/markers.js';
import { getJson, serve } from '../fixtures/serve.js';

/**
 * An issuer far past any capped read: 25,000 trust lines (two currencies, each line's holding
 * drawn with up to 15 significant digits), 25,000 accounts it activated and 450 offers of its own,
 * written as a state snapshot and account documents. Every list pages to the end once each, and the
 * sums equal a brute-force sum of what was generated.
 */
const LINES = 25_000;
const ACTIVATED = 25_000;
const OFFERS = 450;
/** NFTs the issuer holds, 32 to an NFToken page as rippled fills them. */
const NFTS = 4_800;
const LEDGER = 90_000_000;

const hash = (text: string): Buffer => createHash('sha256').update(text).digest();
const accountId = (n: number | string): Buffer => hash(`account ${n}`).subarray(0, 20);
const ISSUER_ID = accountId('issuer');
const ISSUER = encodeAccountID(ISSUER_ID);
const USD = 'USD';
const LONG = Buffer.from('LONGCODE').toString('hex').toUpperCase().padEnd(40, '0');
/** USD in the 160-bit form: 12 zero bytes, the ISO code, 5 zero bytes. */
const USD_HEX = `${'00'.repeat(12)}${Buffer.from(USD).toString('hex').toUpperCase()}${'00'.repeat(5)}`;
const entryId = (kind: string, n: number): string => hash(`${kind} ${n}`).toString('hex').toUpperCase();

/** A deterministic holding: up to 15 significant digits, some lines empty. */
function holdingOf(n: number): string {
  const draw = hash(`holding ${n}`).readUInt32BE(0);
  if (draw % 17 === 0) return '0';
  return new BigNumber(draw)
    .times(new BigNumber(hash(`scale ${n}`).readUInt16BE(0) + 1))
    .shiftedBy(-9)
    .toFixed();
}

const holders = Array.from({ length: LINES }, (_, n) => {
  const id = accountId(n);
  return { id, address: encodeAccountID(id), currency: n % 3 === 0 ? LONG : USD, holding: holdingOf(n), n };
});

/** The trust line of `holder` to the issuer, holding `holding` of its token, as rippled stores it. */
function trustLine(h: (typeof holders)[number]): Json {
  const holderLow = Buffer.compare(h.id, ISSUER_ID) < 0;
  const value = holderLow ? h.holding : new BigNumber(h.holding).negated().toFixed();
  return {
    LedgerEntryType: 'RippleState',
    index: entryId('line', h.n),
    Flags: holderLow ? 0x00010000 : 0x00020000,
    Balance: { currency: h.currency, issuer: 'rrrrrrrrrrrrrrrrrrrrBZbvji', value: value === '-0' ? '0' : value },
    LowLimit: { currency: h.currency, issuer: holderLow ? h.address : ISSUER, value: holderLow ? '1000000000' : '0' },
    HighLimit: { currency: h.currency, issuer: holderLow ? ISSUER : h.address, value: holderLow ? '0' : '1000000000' },
    LowNode: '0',
    HighNode: '0',
    PreviousTxnID: entryId('tx', h.n),
    PreviousTxnLgrSeq: LEDGER - 1,
  };
}

function offer(n: number): Json {
  return {
    LedgerEntryType: 'Offer',
    index: entryId('offer', n),
    Account: ISSUER,
    Sequence: n + 1,
    Flags: 0,
    TakerPays: String(1_000_000 + n),
    TakerGets: { currency: USD, issuer: ISSUER, value: String(n + 1) },
    BookDirectory: entryId('book', 0),
    BookNode: '0',
    OwnerNode: '0',
    PreviousTxnID: entryId('offer tx', n),
    PreviousTxnLgrSeq: LEDGER - 1,
  };
}

/**
 * The issuer's NFTs: ids of its own (flags, fee, issuer, taxon, serial), kept in NFToken pages in
 * rippled's order (by the low 96 bits of the id); a page's key is the owner's id and the low 96
 * bits of its last NFT.
 */
const nftIds = Array.from({ length: NFTS }, (_, n) => {
  const id = Buffer.concat([Buffer.from([0, 8, 0, 0]), ISSUER_ID, hash(`nft ${n}`).subarray(0, 8)]);
  return id.toString('hex').toUpperCase();
}).sort((a, b) => (a.slice(-24) < b.slice(-24) ? -1 : a.slice(-24) > b.slice(-24) ? 1 : 0));
const nftPages: Json[] = [];
for (let at = 0; at < NFTS; at += 32) {
  const held = nftIds.slice(at, at + 32);
  nftPages.push({
    LedgerEntryType: 'NFTokenPage',
    index: `${ISSUER_ID.toString('hex').toUpperCase()}${(held.at(-1) as string).slice(-24)}`,
    Flags: 0,
    NFTokens: held.map((NFTokenID) => ({ NFToken: { NFTokenID, URI: '697066733A2F2F' } })),
    PreviousTxnID: entryId('nft tx', at),
    PreviousTxnLgrSeq: LEDGER - 1,
  });
}

const target = await createTestIndices(t);
const engine = new IngestEngine(target.client, target.naming, createLogger('large-lists', 'silent'));
async function* pages(): AsyncGenerator<StatePage> {
  const entries = [
    {
      LedgerEntryType: 'AccountRoot',
      index: entryId('root', 0),
      Account: ISSUER,
      Balance: '1000000000',
      Flags: 0,
      OwnerCount: LINES + OFFERS,
      Sequence: 1,
      PreviousTxnID: entryId('root tx', 0),
      PreviousTxnLgrSeq: LEDGER - 1,
    },
    ...holders.map(trustLine),
    ...Array.from({ length: OFFERS }, (_, n) => offer(n)),
    ...nftPages,
  ];
  for (let at = 0; at < entries.length; at += 2048)
    yield { ledger_index: LEDGER, entries: entries.slice(at, at + 2048), whole: false, marker: 'more' };
}
await seedState(pages(), engine);
// The accounts it activated, as the ingester's activation records leave them.
const activated = Array.from({ length: ACTIVATED }, (_, n) => encodeAccountID(accountId(`child ${n}`)));
const accountOps: WriteOp[] = activated.map((account, n) => ({
  index: engine.index('accounts'),
  id: account,
  doc: {
    Account: account,
    Balance: { currency: 'XRP', native: true, value: '20', _value: 20 },
    parent: ISSUER,
    initial_balance: '20',
    inception: new Date(Date.UTC(2020, 0, 1) + n * 4000).toISOString(),
    ledger_index: LEDGER - ACTIVATED + Math.floor(n / 3),
    tx_hash: entryId('activation', n),
    deleted: false,
  },
  ledgerIndex: LEDGER,
}));
await engine.write(accountOps, { refresh: true });
await engine.refresh(['objects', 'accounts']);
const base = await serve(t, target);

/** Every page of a list whose marker comes back in the body. */
async function walk(path: string, items: string, limit: number): Promise<{ all: Json[]; pages: number }> {
  const all: Json[] = [];
  let marker: string | undefined;
  let pages = 0;
  do {
    const answer = await getJson(`${base}${path}?limit=${limit}${marker === undefined ? '' : `&marker=${marker}`}`);
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    const body = answer.body as Json & { marker?: string };
    const page = body[items] as Json[];
    if (page.length > limit) throw new Error(`${path}: a page of ${page.length} for a limit of ${limit}`);
    if (body.limit !== limit) throw new Error(`${path}: limit ${String(body.limit)} echoed for ${limit}`);
    all.push(...page);
    marker = body.marker;
    pages += 1;
    if (marker !== undefined && page.length !== limit) throw new Error(`${path}: a short page with a marker`);
  } while (marker !== undefined);
  return { all, pages };
}

t.test('obligations: exact sums over 25,000 lines, whatever the form of the code', async (t) => {
  const expected = new Map<string, BigNumber>();
  for (const h of holders) expected.set(h.currency, (expected.get(h.currency) ?? new BigNumber(0)).plus(h.holding));
  const answer = await getJson(`${base}/account/${ISSUER}/obligations`);
  t.equal(answer.status, 200);
  const served = new Map((answer.body as { currency: string; value: string }[]).map((o) => [o.currency, o.value]));
  t.equal(served.get(USD), expected.get(USD)?.toFixed(), 'USD: the brute-force sum, to the last digit');
  t.equal(served.get(LONG), expected.get(LONG)?.toFixed(), 'a 40-hex code too');
  const one = await getJson(`${base}/account/${ISSUER}/obligation/USD`);
  t.equal(one.body, expected.get(USD)?.toNumber(), '/obligation/USD: the same sum as a JSON number');
  const hex = await getJson(`${base}/account/${ISSUER}/obligation/${USD_HEX}`);
  t.equal(hex.body, one.body, 'USD written in hex: the same token');
});

t.test('trustlines2: 25,000 lines, every page read once, no duplicate, no gap', async (t) => {
  const { all, pages } = await walk(`/account/${ISSUER}/trustlines2`, 'lines', 1000);
  t.equal(pages, 25, '25 pages of 1,000');
  t.equal(all.length, LINES);
  const peers = all.map((l) => String(l.account));
  t.equal(new Set(peers).size, LINES, 'no line twice');
  t.same(new Set(peers), new Set(holders.map((h) => h.address)), 'every holder, none other');
  const byPeer = new Map(holders.map((h) => [h.address, h]));
  const wrong = all.filter(
    (l) => !new BigNumber(String(l.balance)).negated().eq(byPeer.get(String(l.account))!.holding),
  );
  t.same(wrong, [], "each balance is the holder's holding seen from the issuer (negative)");
  const first = await getJson(`${base}/account/${ISSUER}/trustlines2`);
  t.match(first.body, { limit: 200, marker: String }, 'a default page of 200 with a marker');
  t.equal(((first.body as Json).lines as Json[]).length, 200);
});

t.test('activations: 25,000 accounts, oldest first, every page read once', async (t) => {
  const { all, pages } = await walk(`/account/${ISSUER}/activations`, 'accounts', 1000);
  t.equal(pages, 25);
  const accounts = all.map((a) => String(a.account));
  t.equal(new Set(accounts).size, ACTIVATED, 'no account twice');
  t.same(new Set(accounts), new Set(activated), 'every activated account');
  const ledgers = all.map((a) => Number(a.ledger_index));
  t.same(
    ledgers,
    [...ledgers].sort((a, b) => a - b),
    'oldest first',
  );
});

/**
 * Walks an array list from `url` through its `Link: <…>; rel="next"` headers, each page a 200,
 * handing every page to `onPage` (`last` when no next link follows); answers the pages walked.
 */
async function followLinks<T>(t: Test, url: string, onPage: (page: T[], last: boolean) => void): Promise<number> {
  let next: string | undefined = url;
  let pages = 0;
  while (next !== undefined) {
    const answer = await getJson(next);
    t.equal(answer.status, 200);
    const link = answer.headers.get('link');
    const match = link === null ? null : /^<([^>]+)>; rel="next"$/.exec(link);
    next = match === null ? undefined : new URL(match[1] as string, base).toString();
    onPage(answer.body as T[], next === undefined);
    pages += 1;
  }
  return pages;
}

t.test('an array list (orders) pages through its Link header', async (t) => {
  const seen: string[] = [];
  const pages = await followLinks(t, `${base}/account/${ISSUER}/orders?limit=100`, (page: Json[], last) => {
    seen.push(...page.map((o) => String(o.Sequence)));
    if (!last) t.equal(page.length, 100, 'a full page before the last');
  });
  t.equal(pages, 5);
  t.equal(seen.length, OFFERS);
  t.equal(new Set(seen).size, OFFERS, 'no offer twice');
  t.match(
    await getJson(
      `${base}/account/${ISSUER}/orders?marker=${encodeURIComponent(Buffer.from('{"v":1,"scope":"Escrow:x","after":["A"]}').toString('base64url'))}`,
    ),
    { status: 400, body: { error: { code: 'INVALID_PARAMETER', details: { parameter: 'marker' } } } },
    "another list's marker is a 400, never a silent restart",
  );
  t.match(await getJson(`${base}/account/${ISSUER}/orders?limit=1001`), { status: 400 });
});

t.test("nfts: 4,800 NFTs in 150 pages, through the Link header, each once in the pages' order", async (t) => {
  const seen: string[] = [];
  const pages = await followLinks(
    t,
    `${base}/account/${ISSUER}/nfts?limit=250`,
    (page: { NFTokenID: string }[], last) => {
      if (page.length > 250) t.fail(`a page of ${page.length}`);
      seen.push(...page.map((n) => n.NFTokenID));
      if (!last && page.length !== 250) t.fail('a short page with a next link');
    },
  );
  t.equal(pages, Math.ceil(NFTS / 250), `${pages} pages`);
  t.same(seen, nftIds, 'every NFT once, in the order of its pages');
  const first = await getJson(`${base}/account/${ISSUER}/nfts`);
  t.equal((first.body as Json[]).length, 200, 'a default page of 200');
  t.match(first.headers.get('link'), /rel="next"/);
});

t.test("nfts: a marker is an NFT, placed by rippled's order even once pages merge or split", async (t) => {
  const scope = `nfts:${ISSUER}`;
  // An NFT that is on no page any more (burned, or its page rebuilt): the list goes on after its place.
  const gone = `${(nftIds[1000] as string).slice(0, -1)}${(nftIds[1000] as string).endsWith('0') ? '1' : '0'}`;
  const place = nftIds.filter((id) => {
    const [x, y] = [id.slice(-24), gone.slice(-24)];
    return x > y || (x === y && id > gone);
  });
  const answer = await getJson(`${base}/account/${ISSUER}/nfts?limit=40&marker=${encodePageMarker(scope, [gone])}`);
  t.equal(answer.status, 200);
  t.same(
    (answer.body as { NFTokenID: string }[]).map((n) => n.NFTokenID),
    place.slice(0, 40),
    'the 40 NFTs after its place, across the page boundaries',
  );
  for (const forged of [[5], ['x'], [nftIds[0], 'extra'], []]) {
    const refused = await getJson(`${base}/account/${ISSUER}/nfts?marker=${encodePageMarker(scope, forged)}`);
    t.equal(refused.status, 400, JSON.stringify(forged));
    t.match(refused.body, { error: { code: 'INVALID_PARAMETER', details: { parameter: 'marker' } } });
  }
});
