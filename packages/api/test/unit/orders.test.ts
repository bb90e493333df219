import t from 'tap';
import BigNumber from 'bignumber.js';
import { decodeQuality } from 'ripple-binary-codec';
import { normalizeAmount, type Json, type TrustLine } from '@xle/documents';
import { fixtureLedgers } from '@xle/test-loaded';
import { makerExchangeRate, shapeObligation, shapeOrders } from '../../src/shapers/account.js';

/**
 * makerExchangeRate against rippled's own record of each offer's rate: the quality in the last
 * 64 bits of its BookDirectory (TakerPays / TakerGets, XRP in drops, a 16-digit mantissa), decoded
 * by ripple-binary-codec, for every offer the fixture ledgers created.
 */
interface CreatedOffer {
  TakerPays: unknown;
  TakerGets: unknown;
  BookDirectory: string;
  Flags?: number;
}
const offers: CreatedOffer[] = [];
for (const ledger of fixtureLedgers())
  for (const tx of ledger.transactions) {
    const record = tx as { meta?: { AffectedNodes?: Json[] }; metaData?: { AffectedNodes?: Json[] } };
    const nodes = ((record.meta ?? record.metaData)?.AffectedNodes ?? []) as Array<{
      CreatedNode?: { LedgerEntryType: string; NewFields: CreatedOffer };
    }>;
    for (const node of nodes)
      if (node.CreatedNode?.LedgerEntryType === 'Offer') offers.push(node.CreatedNode.NewFields);
  }

t.ok(offers.length >= 50, `${offers.length} offers created in the fixture ledgers`);

/** rippled's quality of an offer in XRP (not drops), as ripple-lib adjusts it, by ripple-binary-codec. */
const qualityOf = (offer: CreatedOffer): string => {
  const shift = (typeof offer.TakerPays === 'string' ? -6 : 0) - (typeof offer.TakerGets === 'string' ? -6 : 0);
  return new BigNumber(decodeQuality(offer.BookDirectory.slice(-16))).shiftedBy(shift).toString();
};

t.test('every offer: rippled’s quality, and TakerPays / TakerGets within its rounding', async (t) => {
  let differ = 0;
  let far = 0;
  for (const offer of offers) {
    const pays = normalizeAmount(offer.TakerPays) as { value: string; native: boolean };
    const gets = normalizeAmount(offer.TakerGets) as { value: string; native: boolean };
    const rate = makerExchangeRate({ BookDirectory: offer.BookDirectory, TakerPays: pays, TakerGets: gets });
    if (rate !== qualityOf(offer)) differ += 1;
    // An offer partly crossed on creation keeps what is left at its rate but for the rounding of
    // the amounts' last digits (1.7e-11 at most here); a rate inverted or in drops is off by far more.
    const ratio = new BigNumber(pays.value).dividedBy(gets.value);
    if (ratio.minus(rate).abs().dividedBy(rate).gt(1e-9)) far += 1;
  }
  t.equal(differ, 0, 'each rate is the quality ripple-binary-codec decodes from its BookDirectory');
  t.equal(far, 0, 'and TakerPays / TakerGets of what the offer holds (not its inverse)');
});

t.test('buy and sell orders alike; exact decimals, no float noise', async (t) => {
  const rate = (pays: string, gets: string): string =>
    makerExchangeRate({ TakerPays: { value: pays }, TakerGets: { value: gets } });
  t.equal(rate('7.3', '1'), '7.3', 'without a BookDirectory: not 7.299999999999999');
  t.equal(rate('1', '3'), '0.3333333333333333', '16 digits');
  t.equal(rate('2', '3'), '0.6666666666666667', 'rounded half up');
  t.equal(rate('1', '100000000'), '1e-8', 'as bignumber.js writes a small rate');
  const offer = (flags: number): Json => ({
    LedgerEntryType: 'Offer',
    Account: 'rh3VLyj1GbQjX7eA15BwUagEhSrPHmLkSR',
    Sequence: 7,
    Flags: flags,
    TakerPays: { value: '5', currency: 'USD', issuer: 'rvYAfWj5gh67oV6fW32ZzP3Aw4Eubs59B', _value: 5 },
    TakerGets: { value: '20', currency: 'XRP', _value: 20, native: true },
  });
  const [buy, sell] = shapeOrders([offer(0), offer(0x00020000)]) as Array<{
    specification: { direction: string };
    properties: { makerExchangeRate: string };
  }>;
  t.equal(buy?.specification.direction, 'buy');
  t.equal(sell?.specification.direction, 'sell');
  t.equal(buy?.properties.makerExchangeRate, '0.25', 'TakerPays / TakerGets for a buy (not 4)');
  t.equal(sell?.properties.makerExchangeRate, '0.25', 'and for a sell');
  // A real offer: its quality, whichever way it is read.
  const real = offers.find((o) => typeof o.TakerGets === 'string') as CreatedOffer;
  const entry = (flags: number): Json => ({
    LedgerEntryType: 'Offer',
    Account: 'rh3VLyj1GbQjX7eA15BwUagEhSrPHmLkSR',
    Sequence: 8,
    Flags: flags,
    BookDirectory: real.BookDirectory,
    TakerPays: normalizeAmount(real.TakerPays) as unknown as Json,
    TakerGets: normalizeAmount(real.TakerGets) as unknown as Json,
  });
  const shaped = shapeOrders([entry(0), entry(0x00020000)]) as Array<{ properties: { makerExchangeRate: string } }>;
  t.same(
    shaped.map((o) => o.properties.makerExchangeRate),
    [qualityOf(real), qualityOf(real)],
    `a real offer's quality ${qualityOf(real)}, bought or sold`,
  );
});

t.test('an obligation: one token whatever form its code is written in, case-sensitive', async (t) => {
  const line = (currency: string, balance: string): TrustLine => ({
    account: 'rvYAfWj5gh67oV6fW32ZzP3Aw4Eubs59B',
    balance,
    currency,
    limit: '0',
    limit_peer: '1000',
    quality_in: 0,
    quality_out: 0,
  });
  const solo = `${Buffer.from('SOLO').toString('hex').toUpperCase()}${'00'.repeat(16)}`;
  const lines = [line('CNY', '-10.5'), line('CNY', '-0.25'), line('USD', '-7'), line(solo, '-3'), line('CNY', '2')];
  const cnyHex = `${'00'.repeat(12)}434E59${'00'.repeat(5)}`;
  t.equal(shapeObligation(lines, 'CNY'), 10.75, 'the issued CNY (a line it holds is not issued)');
  t.equal(shapeObligation(lines, cnyHex), 10.75, 'CNY named by its 40-hex form');
  t.equal(shapeObligation(lines, cnyHex.toLowerCase()), 10.75, 'hex digits in either case');
  t.equal(shapeObligation(lines, 'cny'), 0, 'cny is another currency');
  t.equal(shapeObligation(lines, 'SOLO'), 3, 'a text code and its hex');
  t.equal(shapeObligation(lines, solo), 3);
  t.equal(shapeObligation(lines, 'EUR'), 0, 'a code it never issued');
});
