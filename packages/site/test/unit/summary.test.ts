import t from 'tap';
import { deliveredAmount, nftOf, summarize, summaryText } from '../../src/model/summary.js';
import { fixtureTx, transactionFixtures } from '../fixtures/site.js';

const text = (hashStart: string): string => summaryText(summarize(fixtureTx(hashStart)));

t.test('payments: who paid whom what was delivered', async (t) => {
  t.equal(
    text('F4AD54E6FE56'),
    'rNQEMJA4PsoSrZRn9J6RajAYhcDzzhf8ok paid rHoPwMC75KVUhBMeV3uDMybKG5JND74teh 2,421.8268 XRP',
  );
  // An issued currency: code.issuer, the delivered amount (not SendMax).
  t.equal(
    text('AABF5991C454'),
    'r3RaNVLvWjqqtFAawC6jbRhgKyFH7HvRS8 paid rprcTynT68nYdKzDTefAZG9HjSHiYcnP4b 17,366,599.150289 XRdoge.rLqUC2eCPohYvJCEBJ77eCCqVL2uEiczjA',
  );
  // What the destination's line gained (1.042770229770227 → 1.043812187812185), not the
  // 0.001041958041958041 of delivered_amount, which rippled computes apart, to 16 digits of its own.
  t.equal(
    text('439B1D82C473'),
    'rGTurN94Nn3RkJGSqy9MwmQCLpXZkELbnq paid rMQ4oGC8fasuJwfdrfknFTttDbf8cR3D2j 0.001041958041958 xCoin.rXCoYSUnkpygdtfpz3Df8dKQuRZjM9UFi (a partial payment)',
  );
  // To itself: a conversion.
  t.equal(
    text('D36265AD359D'),
    'rogue5HnPRSszD9CWGSUz8UGHMVwSSKF6 exchanged 26.42538528 CNY.rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y for 100.004362 XRP',
  );
  // A failure says what was tried and the result.
  t.equal(
    text('DA9E41A957D5'),
    'r9x5PHDiwuvbpYB3uvGAqEUVV5wxHayQEx tried to exchange at most 1,140 XRP for 1,140 YCN.r8HgVGenRTAiNSM5iqt9PX2D2EczFZhZr (failed: tecPATH_DRY)',
  );
});

t.test('offers, trust lines, settings and the rest', async (t) => {
  t.equal(
    text('75B818FCF3C7'),
    'rXTZ5g8X7mrAYEe7iFeM9fiS4ccueyurG created an offer to sell 17,588.363594 XRP for 6,101.330339051342 USD.rvYAfWj5gh67oV6fW32ZzP3Aw4Eubs59B at 0.346896 USD per XRP, replacing its offer #80543309 (placed on the books)',
  );
  t.equal(
    text('DB244B742B5C'),
    'r3rhWeE31Jt5sWmi4QiGLMZnY3ENgqw96W created an offer to buy 24,755.081083 XRP for 51.41523894181696 BCH.rcyS4CeCZVYvTiKcxj6Sx32ibKwcDHLds at 0.00207696 BCH per XRP (placed on the books)',
  );
  t.equal(text('F4EFFD0C02EC'), 'rENDnFwR3CPvrsPjD9XXeqVoXeVt2CpPWX cancelled its offer #15239384');
  t.equal(
    text('8566673ECD0A'),
    'r9qheokwreSsfdFqvYzYerrTa6xGpD8N5r set a trust line of 10,000 USD.rf1BiGeXwwQoi8Z2ueFYTEXSwuJYfV2Jpn',
  );
  t.equal(text('C464D4D13DCB'), 'rf1BiGeXwwQoi8Z2ueFYTEXSwuJYfV2Jpn turned on “require destination tags”');
  t.equal(
    text('91BCF2965F73'),
    'raf19Ns8czi85kTfia3KJ9ndjSp9baTLyH deleted its account and sent its remaining 14.999988 XRP to raT74sdzpxJUaubcBAQNS8aLqFMU85Rr5J',
  );
  t.equal(
    text('C44F2EB84196'),
    'rf1BiGeXwwQoi8Z2ueFYTEXSwuJYfV2Jpn escrowed 0.01 XRP for ra5nK24KXen9AHvsdFTKHSANinZseWnPcX',
  );
  t.equal(text('09A9C86BF206'), 'rf1BiGeXwwQoi8Z2ueFYTEXSwuJYfV2Jpn set a signer list of 2 signers with quorum 2');
  t.equal(
    text('6D85FF2BEE30'),
    // What the metadata changed (not the Amount asked for), and the LP tokens received.
    'rLGLRLAyh6sPsYYddF9XighPaK6YyhftpW deposited 15,839,384.3984393 WLFI.rGVxqEKH58bAZQKoRjyBJkYDPazCRxsqJ and 2 XRP into the AMM pool XRP/WLFI.rGVxqEKH58bAZQKoRjyBJkYDPazCRxsqJ and received 4,279,342.399292 LP.rn8gn11MeoxnAcSvHiTGDUdvAZydGvXp21',
  );
});

t.test('NFTs: the id comes from the fields, the metadata, or the pages it changed', async (t) => {
  // A mint whose metadata predates meta.nftoken_id: the id is the one its pages added.
  const mint = fixtureTx('465A6EAC412E');
  t.equal(
    summaryText(summarize(mint)),
    'rsbHDfMAdxv1EyAURp8F5txgFesepmCYRY minted NFT 000800001C6BECB802DFC006F025A13EA940ECBF9FD4909E0000099B00000000',
  );
  t.equal(nftOf(mint), '000800001C6BECB802DFC006F025A13EA940ECBF9FD4909E0000099B00000000');
  t.equal(
    text('98C6761197D6'),
    'rDB9Fd4SP1drhHc7BZqpGY5rrpDC6ZoMpu burned NFT 000A27106D6349BB3F5965F24292DD17C93874EAAEA38DA800AA41C100000325',
  );
  t.equal(
    text('2C476AF454BA'),
    'rG5qYqxdmDmLkVnPrLcWKE6LYTMeFGhYy9 tried to offer to sell NFT 00080000AC7377C74DD53E77C8161537F5EBF56B0CE8FD3BD392C2B800001702 for 500 XRP (failed: tecNO_ENTRY)',
  );
  t.match(summarize(fixtureTx('E6CE3C3C554B')), [
    { kind: 'account' },
    { kind: 'text' },
    { kind: 'text' },
    { kind: 'nft' },
  ]);
});

t.test('pseudo-transactions speak of the network; unknown types fall back to "submitted"', async (t) => {
  t.equal(
    text('042AA148D6FF'),
    'Amendment B2A4DB846F0891BF2C76AB2F2ACC8F5B4EC64437135C6E56F3F859DE5FFD5856 gained a majority of validators',
  );
  const named = { ...fixtureTx('1500FADB73E7'), AmendmentName: 'fixNFTokenRemint' };
  t.equal(summaryText(summarize(named)), 'The network enabled amendment fixNFTokenRemint');
  t.match(summarize(named)[1], { kind: 'amendment', name: 'fixNFTokenRemint' });
  t.equal(
    text('0746806B2E9C'),
    'The network put validator nHUXeusfwk61c4xJPneb9Lgy7Ga6DVaVLEyB29ftUdt9k2KxD6Hw on the negative UNL',
  );
  t.match(summarize(fixtureTx('0746806B2E9C'))[2], { kind: 'validator' });
  t.equal(text('3119491F7965'), 'rsMvgKpm7cb5TMxt9XRGBXyyVWToBnDTBn submitted a DIDSet');
  t.equal(text('A968A7E7875F'), 'rJdTJRJZ6GXCCRaamHJgEqVzB7Zy4557Pi submitted an XChainCreateClaimID');
});

t.test('every fixture transaction has a summary (golden file)', async (t) => {
  const summaries = transactionFixtures().map((f) => {
    const { metaData, ...fields } = f.tx;
    return `${String(f.tx.hash)}: ${summaryText(summarize({ ...fields, meta: metaData }))}`;
  });
  for (const line of summaries) t.notMatch(line, /undefined|NaN|\[object/, line);
  t.matchSnapshot(summaries.join('\n'), 'summaries');
});

t.test('the delivered amount, by rippled’s rule for delivered_amount', async (t) => {
  const partial = fixtureTx('439B1D82C473');
  const meta = partial.meta as Record<string, unknown>;
  t.same(deliveredAmount(partial), meta.delivered_amount ?? meta.DeliveredAmount, 'what the metadata records');
  // A full payment whose metadata records nothing (binary metadata) delivered its Amount.
  const full = fixtureTx('F4AD54E6FE56');
  const { delivered_amount: _d, DeliveredAmount: _D, ...bare } = full.meta as Record<string, unknown>;
  t.equal(deliveredAmount({ ...full, meta: bare }), full.Amount);
  // A partial payment without DeliveredAmount (before ledger 4594095) delivered an unknown amount.
  const { delivered_amount: _pd, DeliveredAmount: _pD, ...partialBare } = meta;
  t.equal(deliveredAmount({ ...partial, meta: partialBare }), undefined);
  t.equal(deliveredAmount(fixtureTx('DA9E41A957D5')), undefined, 'a failed payment delivered nothing');
});
