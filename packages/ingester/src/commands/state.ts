import { resolve } from 'node:path';
import { defineCommand, integerOption, UsageError } from '@xle/core';
import { RippledSource } from '../sources/rippled.js';
import { readStateFiles } from '../sources/state-files.js';
import { seedState } from '../state/snapshot.js';
import { withIngestEngine } from './context.js';

export const stateCommand = defineCommand({
  usage: 'state <path> | --ledger N [--limit K]',
  summary:
    'seed ledger objects and accounts from a state snapshot: a ledger file with accountState,\n' +
    "ledger_data pages (JSON or binary; one file or a folder), or rippled's ledger_data for ledger N;\n" +
    'a whole snapshot also retires what is gone',
  options: { ledger: { type: 'string' }, limit: { type: 'string' } },
  positionals: { min: 0, max: 1 },
  run: async ({ values, positionals: [path] }) => {
    if ((path === undefined) === (values.ledger === undefined))
      throw new UsageError('state takes a file or folder, or --ledger N (from RIPPLED_URL), not both');
    const ledger = values.ledger === undefined ? 0 : integerOption(values.ledger, 'ledger', { min: 1 });
    const limit = integerOption(values.limit, 'limit', { min: 1, max: 2048, default: 2048 });
    return withIngestEngine(async ({ engine, config, logger }) => {
      const rippled = path === undefined ? new RippledSource({ url: config.xrpl.url, logger }) : undefined;
      try {
        const pages =
          rippled === undefined ? readStateFiles(resolve(path as string)) : rippled.statePages(ledger, limit);
        const result = await seedState(pages, engine, {
          onPage: (written, at) => logger.info({ ledger: at, entries: written }, 'progress'),
        });
        console.log(
          `state of ledger ${result.ledger_index}: ${result.entries} entries (${result.superseded} older than indexed state, ${result.removed} retired, ${result.deadLetters} dead letters)${result.whole ? '' : '; a partial snapshot: nothing retired'}`,
        );
        return result.deadLetters > 0 ? 1 : 0;
      } finally {
        await rippled?.close();
      }
    });
  },
});
