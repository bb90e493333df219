import t from 'tap';
import {
  admitRequest,
  refundRequest,
  requestsCovered,
  type PayChannelState,
  type PaymentClaim,
} from '../../src/index.js';

const CHANNEL: PayChannelState = {
  id: 'C'.repeat(64),
  account: 'rOwner',
  destination: 'rService',
  publicKey: `02${'A'.repeat(64)}`,
  amountDrops: 1_000_000n,
  balanceDrops: 0n,
};
const at = new Date('2025-01-02T03:04:05.000Z');
const claim = (amountDrops: bigint, signature = 'AB'.repeat(35)): PaymentClaim => ({
  channel: CHANNEL.id,
  amountDrops,
  signature,
  publicKey: CHANNEL.publicKey,
});

t.test('the first request opens the account', async (t) => {
  t.same(admitRequest(undefined, claim(300n), CHANNEL, 100n, at), {
    channel: CHANNEL.id,
    account: 'rOwner',
    destination: 'rService',
    public_key: CHANNEL.publicKey,
    served: 1,
    cost_drops: '100',
    latest_claim: {
      amount_drops: '300',
      signature: 'AB'.repeat(35),
      public_key: CHANNEL.publicKey,
      received_at: at.toISOString(),
    },
    updated_at: at.toISOString(),
  });
});

t.test('a claim must cover everything served plus this request', async (t) => {
  let account = admitRequest(undefined, claim(300n, 'AA'.repeat(35)), CHANNEL, 100n, at);
  account = admitRequest(account, claim(300n, 'AA'.repeat(35)), CHANNEL, 100n, at);
  account = admitRequest(account, claim(300n, 'AA'.repeat(35)), CHANNEL, 100n, at);
  t.equal(account.served, 3);
  t.equal(account.cost_drops, '300');
  t.throws(
    () => admitRequest(account, claim(300n), CHANNEL, 100n, at),
    {
      status: 402,
      code: 'CLAIM_INSUFFICIENT',
      details: { served: 3, cost_drops: '300', price_drops: '100', required_drops: '400', claimed_drops: '300' },
    },
    'a replayed claim, once used up',
  );
  t.throws(
    () => admitRequest(account, claim(200n), CHANNEL, 100n, at),
    { code: 'CLAIM_INSUFFICIENT' },
    'a stale claim',
  );
  const later = admitRequest(account, claim(1_000n, 'BB'.repeat(35)), CHANNEL, 100n, at);
  t.equal(later.latest_claim.amount_drops, '1000', 'a higher claim becomes the latest');
  const lower = admitRequest(later, claim(500n, 'CC'.repeat(35)), CHANNEL, 100n, at);
  t.equal(lower.latest_claim.signature, 'BB'.repeat(35), 'a lower (still sufficient) claim does not replace it');
  t.equal(requestsCovered(lower, 1_000n, 100n), 5n);
  t.equal(requestsCovered(lower, 500n, 100n), 0n);
  t.equal(requestsCovered(lower, 100n, 100n), 0n);
});

t.test('price changes apply to later requests only', async (t) => {
  const account = admitRequest(undefined, claim(1_000n), CHANNEL, 100n, at);
  const dearer = admitRequest(account, claim(1_000n), CHANNEL, 250n, at);
  t.equal(dearer.cost_drops, '350');
});

t.test('a refund gives back one price, never below zero', async (t) => {
  const account = admitRequest(undefined, claim(1_000n), CHANNEL, 100n, at);
  const refunded = refundRequest(account, 100n, at);
  t.match(refunded, { served: 0, cost_drops: '0', latest_claim: { amount_drops: '1000' } });
  t.equal(refundRequest(refunded, 100n, at), refunded, 'nothing to refund');
});
