import t from 'tap';
import { verifyPaymentChannelClaim, Wallet } from 'xrpl';
import { createEngineClient, createLogger, indexName, runCommand, type Config } from '@xle/core';
import { createTestIndices, type TestIndices } from '@xle/test-helpers';
import {
  channelsCommand,
  formatPaymentClaim,
  paymentClaims,
  toRippleTime,
  type ChannelAccount,
  type ChannelReport,
} from '../../src/index.js';
import { claimHeader, createChannel, type TestChannel } from '../fixtures/payg.js';
import { get, servePaygApp } from '../fixtures/payg-app.js';
import { dropsToXrpString } from '@xle/documents';

const PRICE = 100n;
const service = Wallet.generate().classicAddress;
/** The clock the app is given: channels expire relative to it. */
const NOW = new Date('2031-05-06T07:08:09Z');
const now = (): Date => NOW;

async function paygIndices(t: { teardown(fn: () => Promise<void> | void): void }): Promise<TestIndices> {
  return createTestIndices(t, { access: { mode: 'payg', search: 'open', paygDestination: service } });
}

async function storedAccount(target: TestIndices, channel: TestChannel): Promise<ChannelAccount | undefined> {
  try {
    const found = await target.client.get<ChannelAccount>({
      index: indexName(target.naming, 'payg-channels'),
      id: channel.id,
    });
    return found._source;
  } catch {
    return undefined;
  }
}

t.test('a pay-as-you-go address refuses requests without a valid claim', async (t) => {
  const target = await paygIndices(t);
  const base = await servePaygApp(t, target, now);
  const channel = await createChannel(target, { destination: service, amountDrops: 1_000_000n });

  const missing = await get(`${base}/ok`);
  t.equal(missing.status, 402);
  t.same(missing.body, {
    error: {
      code: 'PAYMENT_REQUIRED',
      message: 'This address is pay-as-you-go: send a Payment-Claim header.',
      details: {
        header: 'Payment-Claim',
        format: 'channel=<64 hex>; amount=<drops>; signature=<hex>; public_key=<66 hex>',
      },
    },
  });
  t.equal((await get(`${base}/ok`, 'channel=nope')).code, 'CLAIM_MALFORMED');
  t.equal((await get(`${base}/ok`, `${claimHeader(channel, 500n)}; amount=600`)).code, 'CLAIM_MALFORMED');

  const mallory = Wallet.generate();
  const forged = formatPaymentClaim({
    channel: channel.id,
    amountDrops: 500n,
    signature: claimHeader(channel, 500n, mallory).match(/signature=([0-9A-F]+)/i)?.[1] ?? '',
    publicKey: channel.owner.publicKey,
  });
  t.match(await get(`${base}/ok`, forged), { status: 402, code: 'CLAIM_SIGNATURE_INVALID' }, 'signed by another key');
  const tampered = claimHeader(channel, 500n).replace('amount=500', 'amount=50000');
  t.match(await get(`${base}/ok`, tampered), { status: 402, code: 'CLAIM_SIGNATURE_INVALID' }, 'amount changed');

  t.match(
    await get(`${base}/ok`, claimHeader(channel, 500n, mallory)),
    { status: 402, code: 'CHANNEL_KEY_MISMATCH' },
    "a claim that verifies, but with a key that is not the channel's",
  );

  const unknown = { id: 'AB'.repeat(32), owner: channel.owner, destination: service };
  t.match(await get(`${base}/ok`, claimHeader(unknown, 500n)), {
    status: 402,
    code: 'CHANNEL_NOT_FOUND',
    body: { error: { details: { channel: unknown.id } } },
  });
  const closed = await createChannel(target, { destination: service, amountDrops: 1_000_000n, deleted: true });
  t.match(await get(`${base}/ok`, claimHeader(closed, 500n)), { code: 'CHANNEL_NOT_FOUND' }, 'a deleted channel');

  const elsewhere = await createChannel(target, {
    destination: Wallet.generate().classicAddress,
    amountDrops: 1_000_000n,
  });
  t.match(await get(`${base}/ok`, claimHeader(elsewhere, 500n)), { status: 402, code: 'CHANNEL_WRONG_DESTINATION' });

  const nowSeconds = toRippleTime(NOW);
  const expiring = await createChannel(target, {
    destination: service,
    amountDrops: 1_000_000n,
    expiration: nowSeconds,
  });
  t.match(
    await get(`${base}/ok`, claimHeader(expiring, 500n)),
    { status: 402, code: 'CHANNEL_EXPIRED' },
    'Expiration now',
  );
  const cancelled = await createChannel(target, {
    destination: service,
    amountDrops: 1_000_000n,
    cancelAfter: nowSeconds - 3600,
  });
  t.match(await get(`${base}/ok`, claimHeader(cancelled, 500n)), { code: 'CHANNEL_EXPIRED' }, 'CancelAfter passed');
  const soon = await createChannel(target, {
    destination: service,
    amountDrops: 1_000_000n,
    expiration: nowSeconds + 1,
    cancelAfter: nowSeconds + 1,
  });
  t.equal((await get(`${base}/ok`, claimHeader(soon, 500n))).status, 200, 'expiring one second later is still open');

  t.match(await get(`${base}/ok`, claimHeader(channel, 1_000_001n)), {
    status: 402,
    code: 'CHANNEL_UNDERFUNDED',
    body: { error: { details: { claimed_drops: '1000001', channel_drops: '1000000' } } },
  });
  t.equal((await get(`${base}/ok`, claimHeader(channel, 1_000_000n))).status, 200, 'a claim of the whole channel');

  t.equal(await storedAccount(target, elsewhere), undefined, 'refused requests are never recorded');
});

t.test('claims must cover every request served so far: stale and replayed claims are refused', async (t) => {
  const target = await paygIndices(t);
  const base = await servePaygApp(t, target, now);
  const channel = await createChannel(target, { destination: service, amountDrops: 10_000_000n });

  const three = claimHeader(channel, 3n * PRICE);
  for (const served of [1, 2, 3]) {
    const answer = await get(`${base}/ok`, three);
    t.equal(answer.status, 200);
    t.equal(answer.headers.get('payment-channel-served'), String(served));
    t.equal(answer.headers.get('payment-channel-remaining'), String(3 - served));
    t.match(answer.headers.get('access-control-expose-headers'), /Payment-Channel-Remaining/);
  }
  t.match(
    await get(`${base}/ok`, three),
    {
      status: 402,
      code: 'CLAIM_INSUFFICIENT',
      body: {
        error: {
          details: {
            channel: channel.id,
            served: 3,
            cost_drops: '300',
            price_drops: '100',
            required_drops: '400',
            claimed_drops: '300',
          },
        },
      },
    },
    'a replayed claim, once used up',
  );
  t.match(await get(`${base}/ok`, claimHeader(channel, 2n * PRICE)), { code: 'CLAIM_INSUFFICIENT' }, 'a stale claim');

  const ten = claimHeader(channel, 10n * PRICE);
  t.equal((await get(`${base}/ok`, ten)).headers.get('payment-channel-remaining'), '6');
  t.equal((await get(`${base}/ok`, claimHeader(channel, 5n * PRICE))).status, 200, 'a lower claim that still covers');

  t.equal((await get(`${base}/bad`, ten)).status, 400);
  t.equal((await get(`${base}/boom`, ten)).status, 500);
  t.equal((await get(`${base}/timeout`, ten)).status, 504, 'an engine timeout did the work: charged');

  const account = await storedAccount(target, channel);
  t.match(
    account,
    {
      channel: channel.id,
      account: channel.owner.classicAddress,
      destination: service,
      served: 7,
      cost_drops: '700',
      latest_claim: { amount_drops: '1000', public_key: channel.owner.publicKey.toUpperCase() },
    },
    'a 400 and a 504 are charged, a 500 refunded; the highest claim is kept',
  );
  const latest = account?.latest_claim;
  t.ok(
    latest &&
      verifyPaymentChannelClaim(
        channel.id,
        dropsToXrpString(String(BigInt(latest.amount_drops))),
        latest.signature,
        latest.public_key,
      ),
    'the kept claim is redeemable',
  );

  await target.client.indices.refresh({ index: indexName(target.naming, 'payg-channels') });
  /** `admin channels ...` run as the command line runs it, on this test's indices, its output kept. */
  const admin = async (...args: string[]): Promise<{ code: number; out: string }> => {
    const chunks: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    const prefix = process.env.ES_INDEX_PREFIX;
    process.env.ES_INDEX_PREFIX = target.naming.prefix;
    process.stdout.write = ((chunk: string) => chunks.push(chunk) > 0) as typeof process.stdout.write;
    try {
      return { code: await runCommand('admin', [channelsCommand], ['channels', ...args]), out: chunks.join('') };
    } finally {
      process.stdout.write = write;
      if (prefix === undefined) delete process.env.ES_INDEX_PREFIX;
      else process.env.ES_INDEX_PREFIX = prefix;
    }
  };
  const asJson = await admin('--json');
  t.equal(asJson.code, 0);
  const reports = JSON.parse(asJson.out) as ChannelReport[];
  t.same(reports, [
    {
      channel: channel.id,
      account: channel.owner.classicAddress,
      destination: service,
      served: 7,
      cost_drops: '700',
      cost_xrp: '0.0007',
      latest_claim_drops: '1000',
      latest_claim_xrp: '0.001',
      owed_drops: '1000',
      owed_xrp: '0.001',
      redeemed_drops: '0',
      unredeemed_drops: '1000',
      signature: latest?.signature,
      public_key: channel.owner.publicKey.toUpperCase(),
      received_at: latest?.received_at,
    },
  ]);
  const asText = await admin();
  t.equal(asText.code, 0);
  t.match(asText.out, `channel     ${channel.id}`);
  t.match(asText.out, 'owed        1000 drops (0.001 XRP)');
  t.equal((await admin('--yaml')).code, 64);
});

t.test('two hundred concurrent requests on one channel, across two app instances, serve exactly N', async (t) => {
  const target = await paygIndices(t);
  const first = await servePaygApp(t, target, now);
  const second = await servePaygApp(t, target, now);
  const channel = await createChannel(target, { destination: service, amountDrops: 1_000_000n });
  const covered = 137;
  const claim = claimHeader(channel, BigInt(covered) * PRICE);

  const answers = await Promise.all(
    Array.from({ length: 200 }, (_, i) => get(`${i % 2 === 0 ? first : second}/ok`, claim)),
  );
  const served = answers.filter((a) => a.status === 200);
  t.equal(served.length, covered, 'exactly the requests the claim pays for');
  t.ok(
    answers.every((a) => a.status === 200 || (a.status === 402 && a.code === 'CLAIM_INSUFFICIENT')),
    'every other one is CLAIM_INSUFFICIENT',
  );
  const counts = served.map((a) => Number(a.headers.get('payment-channel-served'))).sort((a, b) => a - b);
  t.same(
    counts,
    Array.from({ length: covered }, (_, i) => i + 1),
    'each admission saw its own count',
  );
  t.match(served[0]?.body, { payment: { channel: channel.id } }, 'ctx.state.payment reaches the routes');
  t.match(await storedAccount(target, channel), { served: covered, cost_drops: String(covered * 100) });

  const more = claimHeader(channel, BigInt(covered + 50) * PRICE);
  const second200 = await Promise.all(
    Array.from({ length: 200 }, (_, i) => get(`${i % 2 === 0 ? second : first}/ok`, more)),
  );
  t.equal(second200.filter((a) => a.status === 200).length, 50, 'a higher claim pays for exactly its increase');
  t.match(await storedAccount(target, channel), {
    served: covered + 50,
    latest_claim: { amount_drops: String((covered + 50) * 100) },
  });
});

t.test('an outer admission is not charged twice', async (t) => {
  const target = await paygIndices(t);
  const channel = await createChannel(target, { destination: service, amountDrops: 1_000_000n });
  const deps = { config: target.config, client: target.client, logger: createLogger('x', 'silent') };
  const outer = paymentClaims(deps);
  const inner = paymentClaims(deps);
  const ctx = {
    method: 'GET',
    state: {} as Record<string, unknown>,
    get: (name: string) => (name === 'Payment-Claim' ? claimHeader(channel, 1_000n) : ''),
    set: () => undefined,
    response: { get: () => '' },
    status: 200,
  };
  await outer(ctx as never, () => inner(ctx as never, async () => undefined));
  t.match(await storedAccount(target, channel), { served: 1 });
});

t.test('pay-as-you-go without a destination fails at start-up', async (t) => {
  const config: Config = { ...(await paygIndices(t)).config };
  config.access = { ...config.access };
  delete config.access.paygDestination;
  const client = createEngineClient(config);
  t.teardown(() => client.close());
  t.throws(() => paymentClaims({ config, client, logger: createLogger('x', 'silent') }), {
    code: 'CONFIG_INVALID',
    message: /PAYG_DESTINATION/,
  });
});
