#!/usr/bin/env node
import { createEngineClient, exitWith, loadConfig, namingOf } from '@xle/core';
import { ApiKeyStore } from './plans/key-store.js';
import { firstKeptDay, UsageCounter } from './plans/usage-counter.js';
import { isKeyPlan, KEY_PLANS } from './plans/plans.js';
import { channelsCommand } from './payg/cli-channels.js';

const USAGE = `usage:
  keys create --plan ${KEY_PLANS.join('|')} [--label TEXT]   create a key; it is printed once, only its hash is stored
  keys list [--json]                                  key_id, plan, label, created_at, revoked (never the key)
  keys revoke <KEY_ID>                                revoke a key (every API process refuses it within 5 s)
  channels [--json]                                   pay-as-you-go channels: served, cost, latest claim, owed, signature to redeem
  usage prune [--keep-days N]                         delete daily request counters older than the last N UTC days (default 90, today included)
Keys belong to the network of the configuration (XLE_NETWORK): a mainnet key is not a testnet key.`;

/** `--name value` of argv, or undefined. */
function option(argv: readonly string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
}

async function keys(argv: readonly string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const config = loadConfig();
  const client = createEngineClient(config);
  const store = new ApiKeyStore(client, namingOf(config));
  try {
    if (sub === 'create') {
      const plan = option(rest, '--plan') ?? '';
      const label = option(rest, '--label');
      if (!isKeyPlan(plan)) {
        console.error(`--plan takes one of ${KEY_PLANS.join(', ')}`);
        return 64;
      }
      const { key, record } = await store.create(plan, label);
      console.log(key);
      console.error(
        `created ${record.key_id} (${record.plan}${label === undefined ? '' : `, ${label}`}) on ${config.network}; the key above is not shown again`,
      );
      return 0;
    }
    if (sub === 'list') {
      const records = await store.list();
      if (rest.includes('--json')) console.log(JSON.stringify(records, null, 2));
      else
        for (const r of records)
          console.log(
            [r.key_id, r.plan.padEnd(10), r.created_at, r.revoked ? 'revoked' : 'active ', r.label ?? ''].join('  '),
          );
      return 0;
    }
    if (sub === 'revoke' && rest[0] !== undefined) {
      if (!(await store.revoke(rest[0]))) {
        console.error(`no key ${rest[0]} on ${config.network}`);
        return 1;
      }
      console.log(`revoked ${rest[0]}`);
      return 0;
    }
    console.error(USAGE);
    return 64;
  } finally {
    await client.close();
  }
}

async function usage(argv: readonly string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const keep = option(rest, '--keep-days') ?? '90';
  if (sub !== 'prune' || !/^[1-9][0-9]{0,4}$/.test(keep)) {
    if (sub === 'prune') console.error('--keep-days takes a whole number of days from 1 (today only) up');
    else console.error(USAGE);
    return 64;
  }
  const config = loadConfig();
  const client = createEngineClient(config);
  try {
    const firstKept = firstKeptDay(Date.now(), Number(keep));
    const deleted = await new UsageCounter(client, namingOf(config)).prune(firstKept);
    console.log(`deleted ${deleted} usage counters of days before ${firstKept} on ${config.network}`);
    return 0;
  } finally {
    await client.close();
  }
}

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'keys':
      return keys(rest);
    case 'usage':
      return usage(rest);
    case 'channels': {
      // Pay-as-you-go channels and their latest claims (payg/cli-channels.ts).
      const config = loadConfig();
      const client = createEngineClient(config);
      try {
        return await channelsCommand(rest, { config, client });
      } finally {
        await client.close();
      }
    }
    default:
      console.error(USAGE);
      return 64;
  }
}

exitWith(main(process.argv.slice(2)));
