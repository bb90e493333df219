import t from 'tap';
import { signPaymentChannelClaim, Wallet, type ECDSA } from 'xrpl';
import {
  channelFromDoc,
  checkChannel,
  toRippleTime,
  verifyClaimSignature,
  type PaymentClaim,
} from '../../src/index.js';
import { rawPayChannel } from '../fixtures/payg.js';
import { entryFields, dropsToXrpString } from '@xle/documents';

const SERVICE = Wallet.generate().classicAddress;

function signedClaim(channel: string, amountDrops: bigint, wallet: Wallet): PaymentClaim {
  return {
    channel,
    amountDrops,
    signature: signPaymentChannelClaim(channel, dropsToXrpString(String(amountDrops)), wallet.privateKey).toUpperCase(),
    publicKey: wallet.publicKey.toUpperCase(),
  };
}

t.test('ripple time and drops', async (t) => {
  t.equal(toRippleTime(new Date('2000-01-01T00:00:00Z')), 0);
  t.equal(toRippleTime(new Date('2000-01-01T00:01:40.999Z')), 100);
  t.equal(dropsToXrpString(String(100n)), '0.0001');
  t.equal(dropsToXrpString(String(1_000_001n)), '1.000001');
  t.equal(dropsToXrpString(String(100_000_000_000_000_000n)), '100000000000');
});

t.test('signatures by generated wallets verify with xrpl; forgeries do not', async (t) => {
  // xrpl's ECDSA enum is not importable as a value from ESM; these are its two values.
  for (const algorithm of ['ecdsa-secp256k1', 'ed25519'] as ECDSA[]) {
    const owner = Wallet.generate(algorithm);
    const { id } = rawPayChannel({ owner, destination: SERVICE, amountDrops: 1_000_000n });
    const claim = signedClaim(id, 5_000n, owner);
    t.doesNotThrow(() => verifyClaimSignature(claim), `${algorithm} claim verifies`);
    const forged = { code: 'CLAIM_SIGNATURE_INVALID', status: 402 };
    t.throws(() => verifyClaimSignature({ ...claim, amountDrops: 5_001n }), forged, `${algorithm}: other amount`);
    const { id: other } = rawPayChannel({ owner, destination: SERVICE, amountDrops: 1_000_000n });
    t.throws(() => verifyClaimSignature({ ...claim, channel: other }), forged, `${algorithm}: other channel`);
    const mallory = Wallet.generate(algorithm);
    t.throws(
      () => verifyClaimSignature({ ...claim, signature: signedClaim(id, 5_000n, mallory).signature }),
      forged,
      `${algorithm}: signed by another key`,
    );
    t.throws(
      () => verifyClaimSignature({ ...claim, signature: 'AB'.repeat(64) }),
      forged,
      `${algorithm}: garbage signature`,
    );
  }
  const owner = Wallet.generate();
  const { id } = rawPayChannel({ owner, destination: SERVICE, amountDrops: 1_000_000n });
  t.throws(
    () => verifyClaimSignature({ ...signedClaim(id, 100n, owner), publicKey: `02${'F'.repeat(64)}` }),
    { code: 'CLAIM_SIGNATURE_INVALID' },
    'a key that is not on the curve is a forgery, not a crash',
  );
});

t.test('channelFromDoc reads what the ingester indexes', async (t) => {
  const owner = Wallet.generate();
  const { id, entry } = rawPayChannel({
    owner,
    destination: SERVICE,
    amountDrops: 12_345_678n,
    balanceDrops: 1_000_001n,
    expiration: 800_000_000,
    cancelAfter: 900_000_000,
  });
  const doc = { ...entryFields(entry), ledger_index: 1, deleted: false };
  t.match(doc, { Amount: { value: '12.345678', native: true } }, 'amounts are XRP in the index');
  t.same(channelFromDoc(id.toLowerCase(), doc), {
    id,
    account: owner.classicAddress,
    destination: SERVICE,
    publicKey: owner.publicKey.toUpperCase(),
    amountDrops: 12_345_678n,
    balanceDrops: 1_000_001n,
    expiration: 800_000_000,
    cancelAfter: 900_000_000,
  });
  t.equal(channelFromDoc(id, { ...doc, deleted: true }), undefined, 'a tombstone is no channel');
  t.equal(channelFromDoc(id, { ...doc, LedgerEntryType: 'Escrow' }), undefined, 'another entry type');
  t.equal(
    channelFromDoc(id, { ...doc, Amount: { value: '1', currency: 'USD', native: false } }),
    undefined,
    'a token channel is not accepted',
  );
});

t.test('checkChannel applies destination, key, expiry, redemption and funding rules', async (t) => {
  const owner = Wallet.generate();
  const now = 800_000_000;
  const { id, entry } = rawPayChannel({ owner, destination: SERVICE, amountDrops: 10_000n });
  const channel = channelFromDoc(id, { ...entryFields(entry), deleted: false });
  if (channel === undefined) throw new Error('no channel');
  const claim = signedClaim(id, 10_000n, owner);
  const rules = { destination: SERVICE, now };
  t.doesNotThrow(() => checkChannel(channel, claim, rules), 'a claim for exactly the channel amount');
  t.throws(() => checkChannel({ ...channel, destination: owner.classicAddress }, claim, rules), {
    status: 402,
    code: 'CHANNEL_WRONG_DESTINATION',
  });
  const other = Wallet.generate();
  t.throws(() => checkChannel(channel, signedClaim(id, 100n, other), rules), {
    status: 402,
    code: 'CHANNEL_KEY_MISMATCH',
  });
  t.throws(() => checkChannel({ ...channel, expiration: now }, claim, rules), {
    code: 'CHANNEL_EXPIRED',
    details: { Expiration: now },
  });
  t.throws(() => checkChannel({ ...channel, cancelAfter: now - 1 }, claim, rules), {
    code: 'CHANNEL_EXPIRED',
    details: { CancelAfter: now - 1 },
  });
  t.doesNotThrow(
    () => checkChannel({ ...channel, expiration: now + 1, cancelAfter: now + 1 }, claim, rules),
    'expiry one second ahead still admits',
  );
  t.throws(() => checkChannel(channel, signedClaim(id, 10_001n, owner), rules), {
    status: 402,
    code: 'CHANNEL_UNDERFUNDED',
    details: { claimed_drops: '10001', channel_drops: '10000' },
  });
  const redeemed = { ...channel, balanceDrops: 4_000n };
  t.throws(() => checkChannel(redeemed, signedClaim(id, 4_000n, owner), rules), {
    status: 402,
    code: 'CLAIM_INSUFFICIENT',
    details: { claimed_drops: '4000', redeemed_drops: '4000' },
  });
  t.doesNotThrow(() => checkChannel(redeemed, signedClaim(id, 4_100n, owner), rules), 'above what was redeemed');
});
