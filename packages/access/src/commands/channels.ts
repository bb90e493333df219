import { defineCommand } from '@xle/core';
import { dropsToXrpString } from '@xle/documents';
import type { PaygStore } from '../engine/payg-store.js';
import { withStores } from './stores.js';

/** One line of `channels`: what the operator can redeem on a channel, and with what. */
export interface ChannelReport {
  channel: string;
  account: string;
  destination: string;
  served: number;
  cost_drops: string;
  cost_xrp: string;
  /** The latest (highest) valid claim: the operator redeems it with a PaymentChannelClaim. */
  latest_claim_drops: string;
  latest_claim_xrp: string;
  /** Owed by the channel's source: the latest claim, cumulative. */
  owed_drops: string;
  owed_xrp: string;
  /** Already redeemed on ledger (the channel's Balance); absent when the channel is gone from the index. */
  redeemed_drops?: string;
  /** owed - redeemed: what a PaymentChannelClaim with the latest claim would still move. */
  unredeemed_drops?: string;
  signature: string;
  public_key: string;
  received_at: string;
}

/** The reports of every channel with an account, in channel id order. */
export async function listChannelReports(store: PaygStore): Promise<ChannelReport[]> {
  const accounts = [];
  for await (const account of store.listAccounts()) accounts.push(account);
  const channels = await store.getChannels(accounts.map((a) => a.channel));
  return accounts.map((account) => {
    const owed = BigInt(account.latest_claim.amount_drops);
    const report: ChannelReport = {
      channel: account.channel,
      account: account.account,
      destination: account.destination,
      served: account.served,
      cost_drops: account.cost_drops,
      cost_xrp: dropsToXrpString(account.cost_drops),
      latest_claim_drops: account.latest_claim.amount_drops,
      latest_claim_xrp: dropsToXrpString(owed.toString()),
      owed_drops: owed.toString(),
      owed_xrp: dropsToXrpString(owed.toString()),
      signature: account.latest_claim.signature,
      public_key: account.latest_claim.public_key,
      received_at: account.latest_claim.received_at,
    };
    const channel = channels.get(account.channel);
    if (channel !== undefined) {
      report.redeemed_drops = channel.balanceDrops.toString();
      const left = owed - channel.balanceDrops;
      report.unredeemed_drops = (left < 0n ? 0n : left).toString();
    }
    return report;
  });
}

/** The reports as the command prints them: JSON, or one block of text per channel (pure). */
export function renderChannelReports(reports: ChannelReport[], json: boolean): string {
  if (json) return `${JSON.stringify(reports, null, 2)}\n`;
  if (reports.length === 0) return 'No pay-as-you-go channels yet.\n';
  return reports
    .map((r) =>
      [
        `channel     ${r.channel}`,
        `account     ${r.account}`,
        `served      ${r.served} request(s), cost ${r.cost_drops} drops (${r.cost_xrp} XRP)`,
        `owed        ${r.owed_drops} drops (${r.owed_xrp} XRP), latest claim of ${r.received_at}` +
          (r.unredeemed_drops === undefined
            ? ''
            : `; ${r.redeemed_drops} drops redeemed on ledger, ${r.unredeemed_drops} still to redeem`),
        `signature   ${r.signature}`,
        `public_key  ${r.public_key}`,
      ].join('\n'),
    )
    .join('\n\n')
    .concat('\n');
}

/**
 * `channels [--json]`: every pay-as-you-go channel with its latest claim and what is owed, so the
 * operator can redeem it (PaymentChannelClaim with Channel, Balance = Amount = owed, Signature,
 * PublicKey).
 */
export const channelsCommand = defineCommand({
  usage: 'channels [--json]',
  summary: 'pay-as-you-go channels: served, cost, latest claim, owed, signature to redeem',
  options: { json: { type: 'boolean' } },
  run: ({ values }) =>
    withStores(async ({ payg }) => {
      process.stdout.write(renderChannelReports(await listChannelReports(payg), values.json === true));
      return 0;
    }),
});
