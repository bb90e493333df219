import t from 'tap';
import { decodeQuality } from 'ripple-binary-codec';
import { normalizeAmount, type Json } from '@xle/documents';
import { fixtureLedgers } from '@xle/test-loaded';
import { makerExchangeRate, shapeOrders } from '../../src/shapers/account.js';

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

/** rippled's quality in XRP (not drops) for the amounts' currencies, as ripple-lib adjusts it. */
const qualityOf = (offer: CreatedOffer): number => {
  const shift = (typeof offer.TakerPays === 'string' ? -6 : 0) - (typeof offer.TakerGets === 'string' ? -6 : 0);
  return Number(decodeQuality(offer.BookDirectory.slice(-16))) * 10 ** shift;
};

t.test('every offer: TakerPays / TakerGets, within the quality mantissa of rippled’s rate', async (t) => {
  let far = 0;
  let long = 0;
  for (const offer of offers) {
    const pays = normalizeAmount(offer.TakerPays) as { value: string };
    const gets = normalizeAmount(offer.TakerGets) as { value: string };
    const rate = makerExchangeRate(pays, gets);
    const quality = qualityOf(offer);
    // An offer partly crossed on creation keeps what is left at its rate but for the rounding of
    // the amounts' last digits (1.7e-11 at most here); a rate inverted or in drops is off by far more.
    if (Math.abs(Number(rate) - quality) / quality > 1e-9) far += 1;
    if (
      rate
        .replace(/e.*$/, '')
        .replace(/^[0.]+/, '')
        .replace('.', '').length > 16
    )
      long += 1;
  }
  t.equal(far, 0, 'no rate is off rippled’s quality (an inverted rate would be)');
  t.equal(long, 0, 'at most 16 significant digits');
});

t.test('buy and sell orders alike; exact decimals, no float noise', async (t) => {
  t.equal(makerExchangeRate({ value: '7.3' }, { value: '1' }), '7.3', 'not 7.299999999999999');
  t.equal(makerExchangeRate({ value: '1' }, { value: '3' }), '0.3333333333333333', '16 digits');
  t.equal(makerExchangeRate({ value: '2' }, { value: '3' }), '0.6666666666666667', 'rounded half up');
  t.equal(makerExchangeRate({ value: '1' }, { value: '100000000' }), '1e-8', 'as bignumber.js writes a small rate');
  const offer = (flags: number): Json => ({
    LedgerEntryType: 'Offer',
    Account: 'rh3VLyj1GbQjX7eA15BwUagEhSrPHmLkSR',
    Sequence: 7,
    Flags: flags,
    TakerPays: { value: '5', currency: 'USD', issuer: 'rvYAfWj5gh67oV6fW32ZzP3Aw4Eubs59B', _value: 5 },
    TakerGets: { value: '20', currency: 'XRP', _value: 20 },
  });
  const [buy, sell] = shapeOrders([offer(0), offer(0x00020000)]) as Array<{
    specification: { direction: string };
    properties: { makerExchangeRate: string };
  }>;
  t.equal(buy?.specification.direction, 'buy');
  t.equal(sell?.specification.direction, 'sell');
  t.equal(buy?.properties.makerExchangeRate, '0.25', 'TakerPays / TakerGets for a buy (not 4)');
  t.equal(sell?.properties.makerExchangeRate, '0.25', 'and for a sell');
});
