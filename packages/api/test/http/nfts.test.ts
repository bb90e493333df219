import t from 'tap';
import { nftIdentity, pageOwner, transformTransaction, type Json } from '@xle/documents';
import { ledgerWrites } from '@xle/ingester';
import { readTransactionFixtures } from '@xle/test-helpers';
import { engineOf, fixtureLedgers, getJson, loadedIndices, serve } from '../fixtures/serve.js';

/**
 * NFT history and an issuer's NFTs, on the fixture ledgers plus the recorded single NFT
 * transactions (mints, burns, offers, accepts), each written through the pipeline's own transform
 * (its ledger header left out: only the transaction was recorded).
 */
const target = await loadedIndices(t);
const engine = engineOf(target);
const recorded = readTransactionFixtures().filter((f) => String(f.tx.TransactionType).startsWith('NFToken'));
for (const f of recorded) {
  const { writes } = ledgerWrites(
    {
      ledger_index: f.ledgerIndex,
      ledger_hash: '',
      parent_hash: '',
      close_time: f.closeTime,
      total_coins: '0',
      transactions: [f.tx],
    },
    {
      index: (kind) => engine.index(kind),
      rangeAlias: (kind, ledger) => engine.rangeAlias(kind, ledger),
      networkId: 0,
    },
  );
  // No ledger was recorded: its header is not written, nor its (unknown) hash into the transaction.
  const ops = writes.filter((op) => op.range?.kind !== 'ledgers');
  for (const op of ops) delete op.doc.ledger_hash;
  await engine.write(ops, { refresh: true });
}
await engine.refresh(['nfts', 'transactions']);
const base = await serve(t, target);

interface HistoryPage {
  nft_id: string;
  transactions: Json[];
  marker?: string;
}

t.test('an NFT history: its mint, its offers, its accept, its burn, failed attempts too', async (t) => {
  t.ok(recorded.length >= 15, `${recorded.length} recorded NFT transactions`);
  let checked = 0;
  for (const f of recorded) {
    const meta = f.tx.metaData as Json;
    // The token it names, else (a mint recorded before rippled added meta.nftoken_id) the one its pages gained.
    const touched = transformTransaction(f.tx, { ledgerIndex: f.ledgerIndex, closeTime: f.closeTime, networkId: 0 })
      ._nftokens as string[] | undefined;
    const id = String(meta.nftoken_id ?? f.tx.NFTokenID ?? touched?.[0] ?? '');
    if (id === '') continue; // a cancel of offers already gone names no token
    checked += 1;
    const answer = await getJson(`${base}/nft/${id}/history`);
    t.equal(answer.status, 200, `${f.tx.TransactionType} ${f.file}`, { body: answer.body });
    const page = answer.body as HistoryPage;
    t.equal(page.nft_id, id);
    t.ok(
      page.transactions.some((tx) => tx.hash === f.tx.hash),
      `${f.tx.TransactionType} ${String(f.tx.hash).slice(0, 8)} (${meta.TransactionResult}) is in the history of ${id.slice(-8)}`,
    );
  }
  t.ok(checked >= 20, `${checked} in their NFT's history`);
  const minted = await getJson(`${base}/nft/${'0'.repeat(64)}/history`);
  t.equal(minted.status, 404, 'an NFT seen nowhere');
  t.match(minted.body, { error: { code: 'NOT_FOUND' } });
});

t.test('the ledger fixtures mints: history, list, paging', async (t) => {
  // The mints of the fixture ledgers, computed from the fixtures themselves.
  const mints = fixtureLedgers().flatMap((l) =>
    l.transactions
      .filter((tx) => tx.TransactionType === 'NFTokenMint' && (tx.metaData as Json).TransactionResult === 'tesSUCCESS')
      .map((tx) => ({
        tx,
        ledger: l.ledger_index,
        // Decoded from binary, these ledgers lack rippled's synthetic meta.nftoken_id: the page change names it.
        id: String(
          transformTransaction(tx, { ledgerIndex: l.ledger_index, closeTime: l.close_time, networkId: 0 })._nftokens,
        ),
      })),
  );
  t.ok(mints.length >= 5, `${mints.length} mints`);
  const mint = mints[0]!;
  const history = (await getJson(`${base}/nft/${mint.id}/history`)).body as HistoryPage;
  t.match(history.transactions[0], { hash: mint.tx.hash, TransactionType: 'NFTokenMint', ledger_index: mint.ledger });

  // One issuer's NFTs, page by page: each once, in mint order, as /nft/{id} shows it.
  const issuer = nftIdentity(mint.id).Issuer;
  const expected = mints.filter((m) => nftIdentity(m.id).Issuer === issuer).map((m) => m.id);
  t.ok(expected.length >= 3, `${expected.length} NFTs of ${issuer} minted in the fixture ledgers`);
  const seen: Json[] = [];
  let marker: string | undefined;
  let pages = 0;
  do {
    const answer = await getJson(
      `${base}/nfts?issuer=${issuer}&limit=2${marker === undefined ? '' : `&marker=${marker}`}`,
    );
    t.equal(answer.status, 200);
    const page = answer.body as { nfts: Json[]; marker?: string; issuer: string };
    t.equal(page.issuer, issuer);
    t.ok(page.nfts.length <= 2);
    seen.push(...page.nfts);
    marker = page.marker;
    pages += 1;
  } while (marker !== undefined && pages < 50);
  const ids = seen.map((n) => n.nft_id);
  t.same([...new Set(ids)], ids, 'no NFT twice');
  t.same(
    [...ids].sort(),
    [...new Set([...expected, ...ids])].sort(),
    'every NFT minted in the fixture ledgers is listed',
  );
  const serials = seen.map((n) => Number(n.nft_serial));
  t.same(
    serials,
    [...serials].sort((a, b) => a - b),
    'in mint order',
  );
  const one = seen.find((n) => n.nft_id === mint.id);
  const direct = (await getJson(`${base}/nft/${mint.id}`)).body as Json;
  t.match(one, {
    nft_id: mint.id,
    issuer,
    owner: direct.owner,
    uri: direct.uri,
    is_burned: false,
    flags: direct.flags,
  });

  const taxon = Number(seen[0]?.nft_taxon);
  const ofTaxon = (await getJson(`${base}/nfts?issuer=${issuer}&taxon=${taxon}&limit=400`)).body as { nfts: Json[] };
  t.ok(ofTaxon.nfts.length > 0 && ofTaxon.nfts.every((n) => n.nft_taxon === taxon), 'one taxon only');
  const burnedOnly = (await getJson(`${base}/nfts?issuer=${issuer}&burned=true`)).body as { nfts: Json[] };
  t.ok(burnedOnly.nfts.every((n) => n.is_burned === true));
});

t.test("every NFT on a live page is in its issuer's list, with the page's owner", async (t) => {
  // Independently of the nfts index: the tokens the live NFTokenPages of the objects index hold.
  const pages = await target.client.search<{ index: string; NFTokens?: { NFToken: { NFTokenID: string } }[] }>({
    index: engine.index('objects'),
    query: { bool: { filter: [{ term: { LedgerEntryType: 'NFTokenPage' } }, { term: { deleted: false } }] } },
    size: 10_000,
    _source: ['index', 'NFTokens'],
  });
  const held = new Map<string, string>();
  for (const hit of pages.hits.hits)
    for (const { NFToken } of hit._source?.NFTokens ?? []) held.set(NFToken.NFTokenID, hit._source!.index);
  const byIssuer = new Map<string, string[]>();
  for (const id of held.keys()) {
    const issuer = nftIdentity(id).Issuer;
    byIssuer.set(issuer, [...(byIssuer.get(issuer) ?? []), id]);
  }
  t.ok(held.size >= 60, `${held.size} NFTs on live pages, of ${byIssuer.size} issuers`);
  const rnf = byIssuer.get('rnfT2RATvTDqFTeBbJuERK21r4NWYdrops') ?? [];
  t.ok(
    rnf.length >= 60,
    `${rnf.length} NFTs of rnfT2RATvTDqFTeBbJuERK21r4NWYdrops, most minted in ledgers not indexed`,
  );
  for (const [issuer, ids] of byIssuer) {
    const listed = new Map<string, Json>();
    let marker: string | undefined;
    do {
      const page = (
        await getJson(`${base}/nfts?issuer=${issuer}&limit=400${marker === undefined ? '' : `&marker=${marker}`}`)
      ).body as { nfts: Json[]; marker?: string };
      for (const nft of page.nfts) listed.set(String(nft.nft_id), nft);
      marker = page.marker;
    } while (marker !== undefined);
    const missing = ids.filter((id) => !listed.has(id));
    t.same(missing, [], `${issuer}: every NFT on a live page is listed`);
    // A token burned later (its burn indexed, the moves before it not) stays on a stale page.
    const wrongOwner = ids.filter(
      (id) => listed.get(id)?.is_burned !== true && listed.get(id)?.owner !== pageOwner(held.get(id)!),
    );
    t.same(wrongOwner, [], `${issuer}: each live one listed with the owner of its page`);
  }
});

t.test('burned NFTs are listed as burned, with their last owner', async (t) => {
  const burn = recorded.find(
    (f) => f.tx.TransactionType === 'NFTokenBurn' && (f.tx.metaData as Json).TransactionResult === 'tesSUCCESS',
  );
  const id = String(burn?.tx.NFTokenID);
  const issuer = nftIdentity(id).Issuer;
  const page = (await getJson(`${base}/nfts?issuer=${issuer}&burned=true&limit=400`)).body as { nfts: Json[] };
  t.match(
    page.nfts.find((n) => n.nft_id === id),
    { is_burned: true, owner: String(burn?.tx.Owner ?? burn?.tx.Account), ledger_index: burn?.ledgerIndex },
  );
});

t.test('bad requests are 400s naming the parameter', async (t) => {
  const cases: [string, string][] = [
    ['/nfts', 'issuer'],
    ['/nfts?issuer=rNotAnAddress', 'issuer'],
    ['/nfts?issuer=rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw&taxon=-1', 'taxon'],
    ['/nfts?issuer=rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw&marker=nope', 'marker'],
    ['/nfts?issuer=rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw&limit=0', 'limit'],
    [`/nft/${'A'.repeat(64)}/history?limit=401`, 'limit'],
    ['/nft/xyz/history', 'NFTOKEN_ID'],
  ];
  for (const [path, parameter] of cases) {
    const answer = await getJson(`${base}${path}`);
    t.equal(answer.status, 400, path);
    t.match(answer.body, { error: { code: /^(INVALID_PARAMETER|MISSING_PARAMETER)$/, details: { parameter } } }, path);
  }
  // A marker of another walk is refused, not silently restarted.
  const mint = recorded.find((f) => f.tx.TransactionType === 'NFTokenMint');
  const issuer = String(mint?.tx.Issuer ?? mint?.tx.Account);
  const first = (await getJson(`${base}/nfts?issuer=${issuer}&limit=1`)).body as { marker?: string };
  if (first.marker !== undefined) {
    const other = await getJson(`${base}/nfts?issuer=rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw&marker=${first.marker}`);
    t.equal(other.status, 400);
    t.match(other.body, { error: { message: /another request/ } });
  }
});
