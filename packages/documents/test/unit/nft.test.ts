import t from 'tap';
import { readTransactionFixtures } from '@xle/test-helpers';
import { nftPageChanges } from '../../src/nft.js';

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
