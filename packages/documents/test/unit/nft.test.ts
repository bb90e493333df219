import t from 'tap';
import { encodeAccountID } from 'xrpl';
import { readFixture, readTransactionFixtures } from '@xle/test-helpers';
import {
  type Json,
  nftChanges,
  nftPageChanges,
  nftIdentity,
  nftsTouched,
  snapshotNfts,
  transformTransaction,
} from '../../src/index.js';

/** A rippled `tx` answer of the shared fixtures, as the ledger reader gives transactions. */
function fixtureTx(path: string): Json {
  const raw = readFixture<Json>(`transactions/mainnet-verified/${path}`);
  const result = (raw.result ?? raw) as Json;
  return result.tx === undefined
    ? result
    : {
        ...(result.tx as Json),
        meta: result.meta,
        hash: result.hash,
        ledger_index: result.ledger_index,
        date: result.date,
      };
}

function touchedAndChanged(path: string): {
  touched: string[];
  changes: ReturnType<typeof nftChanges>;
  observed: ReturnType<typeof nftChanges>;
  tx: Json;
} {
  const tx = fixtureTx(path);
  // rippled's `tx` gives `date` in seconds since the XRPL epoch; some recordings hold it as ISO text.
  const closeTime = typeof tx.date === 'number' ? tx.date : Date.parse(String(tx.date)) / 1000 - 946_684_800;
  const doc = transformTransaction(tx, { ledgerIndex: Number(tx.ledger_index), closeTime, networkId: 0 });
  return {
    tx,
    touched: (doc._nftokens as string[] | undefined) ?? [],
    changes: nftChanges({ ...tx, _date: doc._date }, Number(tx.ledger_index)).filter((c) => c.observed !== true),
    observed: nftChanges({ ...tx, _date: doc._date }, Number(tx.ledger_index)).filter((c) => c.observed === true),
  };
}

t.test('an NFToken id decodes to what XLS-20 packs in it', async (t) => {
  const id = '000827102D192F0A3AAA1EDE5AC7F33892E95FBA16D2221472E88A1A00000080';
  // Flags 0x0008, fee 0x2710, issuer's AccountID, taxon scrambled with the serial (XLS-20:
  // taxon XOR (384160001 * serial + 2459) mod 2^32), serial 0x80.
  const serial = 0x80;
  const taxon = (0x72e88a1a ^ Number((384160001n * BigInt(serial) + 2459n) % 2n ** 32n)) >>> 0;
  t.same(nftIdentity(id.toLowerCase()), {
    NFTokenID: id,
    Issuer: encodeAccountID(Buffer.from(id.slice(8, 48), 'hex')),
    NFTokenTaxon: taxon,
    nft_serial: serial,
    Flags: 8,
    TransferFee: 10000,
  });
  t.equal(taxon, 1);
  // Memoised: the id again, in either case, is the same decoded identity, which no caller can change.
  const again = nftIdentity(id);
  t.equal(again, nftIdentity(id.toLowerCase()));
  t.same(again, nftIdentity(id.toLowerCase()));
  t.throws(() => {
    (again as { Issuer: string }).Issuer = 'rSomeoneElse';
  }, TypeError);
  t.equal(nftIdentity(id).Issuer, encodeAccountID(Buffer.from(id.slice(8, 48), 'hex')));
});

t.test('a mint that splits its page changes only the minted token', async (t) => {
  // tx14: NFTokenMint whose page was full: three NFTokenPages in the metadata.
  const { touched, changes, observed, tx } = touchedAndChanged('xrplwin-nft-mutation-parser/tx14.json');
  // Recorded before rippled added meta.nftoken_id: the minted token is the one no page held before.
  const meta = tx.meta as Json;
  t.equal(meta.nftoken_id, undefined);
  const heldBefore = new Set(
    (meta.AffectedNodes as Json[])
      .flatMap((wrapper) => Object.values(wrapper) as Json[])
      .filter((node) => node.LedgerEntryType === 'NFTokenPage' && node.NewFields === undefined)
      .flatMap(
        (node) =>
          ((node.PreviousFields as Json | undefined)?.NFTokens ?? (node.FinalFields as Json).NFTokens) as Json[],
      )
      .map((wrapper) => (wrapper.NFToken as Json).NFTokenID),
  );
  t.ok(heldBefore.size > 20, `the pages held ${heldBefore.size} tokens before`);
  t.equal(touched.length, 1);
  const minted = touched[0];
  t.notOk(heldBefore.has(minted), 'the one token no page held before');
  t.equal(changes.length, 1);
  t.match(changes[0], {
    id: minted,
    version: Number(tx.ledger_index) * 65536 + Number((tx.meta as Json).TransactionIndex),
    doc: {
      NFTokenID: minted,
      Owner: tx.Account,
      is_burned: false,
      URI: tx.URI,
      tx_hash: tx.hash,
      ledger_index: tx.ledger_index,
    },
  });
  // The tokens that only moved between the minter's pages are seen, not changed: observations of
  // where they are, written only where nothing else is known of them.
  t.same(observed.map((c) => c.id).sort(), [...heldBefore].sort(), 'every token held before is observed');
  for (const c of observed)
    t.match(c, { version: changes[0]?.version, doc: { Owner: tx.Account, is_burned: false, tx_hash: null } });
});

t.test('a burn that deletes a page: burned, with its last owner', async (t) => {
  const { touched, changes, tx } = touchedAndChanged('xrplwin-nft-mutation-parser/tx15.json');
  t.same(touched, [tx.NFTokenID]);
  t.equal(changes.length, 1);
  // The burner held it (no Owner field: an issuer burning a burnable token would name its owner).
  t.equal(tx.Owner, undefined);
  t.match(changes[0]?.doc, { NFTokenID: tx.NFTokenID, Owner: tx.Account, is_burned: true, tx_hash: tx.hash });
  t.type(changes[0]?.doc.URI, 'string', 'the URI it had is kept');
});

t.test('an accepted offer moves the token to the buyer', async (t) => {
  const { touched, changes, tx } = touchedAndChanged('explorer/NFTokenAcceptOffer_NFTokenAcceptOffer_Broker.json');
  t.equal(touched.length, 1, 'both offers name the same token');
  const id = touched[0];
  t.equal(changes.length, 1);
  // The buy offer's owner receives the token; the broker (the sender) never holds it.
  const offers = ((tx.meta as Json).AffectedNodes as Json[])
    .map((wrapper) => wrapper.DeletedNode as Json | undefined)
    .filter((node) => node?.LedgerEntryType === 'NFTokenOffer')
    .map((node) => node?.FinalFields as Json | undefined)
    .filter((fields): fields is Json => fields?.NFTokenID === id);
  t.equal(offers.length, 2, 'the buy and the sell offer');
  // lsfSellNFToken (0x0001) marks the sell offer.
  const buyer = offers.find((fields) => ((fields.Flags as number) & 1) === 0)?.Owner;
  t.type(buyer, 'string');
  t.equal(changes[0]?.doc.Owner, buyer);
  t.not(changes[0]?.doc.Owner, tx.Account);
  t.notOk(changes[0]?.doc.is_burned);
});

t.test('offers name their token; a failed offer too, and nothing changes', async (t) => {
  const created = touchedAndChanged('explorer/NFTokenCreateOffer_NFTokenCreateOfferDestination.json');
  t.same(created.touched, [created.tx.NFTokenID]);
  t.same(created.changes, []);
  const failed = touchedAndChanged('explorer/NFTokenCreateOffer_NFTokenCreateOfferFailed.json');
  t.same(failed.touched, [failed.tx.NFTokenID], 'a failed offer is in the token history too');
  t.same(failed.changes, []);
  const other = touchedAndChanged('explorer/AccountSet_AccountSetWithNFTokenMinter.json');
  t.same(other.touched, []);
});

t.test('a snapshot page gives one document per token it holds', async (t) => {
  const index = '2D192F0A3AAA1EDE5AC7F33892E95FBA16D22214FFFFFFFFFFFFFFFFFFFFFFFF';
  const page: Json = {
    LedgerEntryType: 'NFTokenPage',
    index,
    NFTokens: [
      {
        NFToken: {
          NFTokenID: '000827102D192F0A3AAA1EDE5AC7F33892E95FBA16D2221472E88A1A00000080',
          URI: '697066733A2F2F',
        },
      },
      { NFToken: { NFTokenID: '000827102D192F0A3AAA1EDE5AC7F33892E95FBA16D22214AE0F6DA500000B09' } },
    ],
  };
  const docs = snapshotNfts(page, 90_000_000);
  t.equal(docs.length, 2);
  t.match(docs[0], {
    Owner: encodeAccountID(Buffer.from(index.slice(0, 40), 'hex')),
    URI: '697066733A2F2F',
    is_burned: false,
    tx_hash: null,
  });
  t.equal(docs[1]?.URI, null);
  t.same(nftsTouched({}, {}), []);
});

const metaOf = (hashStart: string): unknown =>
  readTransactionFixtures().find((f) => String(f.tx.hash).startsWith(hashStart))?.tx.metaData;

t.test('a mint adds its NFT to a page, a burn takes it off every page, a transfer does neither', async (t) => {
  // NFTokenMint whose metadata predates meta.nftoken_id.
  t.same(nftPageChanges(metaOf('465A6EAC412E')), {
    added: ['000800001C6BECB802DFC006F025A13EA940ECBF9FD4909E0000099B00000000'],
    removed: [],
  });
  // NFTokenBurn.
  t.same(nftPageChanges(metaOf('98C6761197D6')), {
    added: [],
    removed: ['000A27106D6349BB3F5965F24292DD17C93874EAAEA38DA800AA41C100000325'],
  });
  // NFTokenAcceptOffer: the NFT moves from the seller's page to the buyer's.
  t.same(nftPageChanges(metaOf('E6CE3C3C554B')), { added: [], removed: [] });
  t.same(nftPageChanges(undefined), { added: [], removed: [] });
});

t.test('every real mint adds exactly its own NFT', async (t) => {
  for (const f of readTransactionFixtures()) {
    const meta = f.tx.metaData as { TransactionResult?: string; nftoken_id?: string };
    if (f.tx.TransactionType !== 'NFTokenMint' || meta.TransactionResult !== 'tesSUCCESS') continue;
    const { added } = nftPageChanges(meta);
    t.equal(added.length, 1, `${String(f.tx.hash)} adds one NFT`);
    if (meta.nftoken_id !== undefined) t.equal(added[0], meta.nftoken_id, 'the one rippled names');
  }
});
