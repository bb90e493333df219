import { resolve } from 'node:path';
import { createProgress, defineCommand, integerOption } from '@xle/core';
import type { LedgerInput } from '@xle/documents';
import { CheckpointStore } from '../pipeline/checkpoint.js';
import { LEDGER_KINDS, runPipeline, type IngestTotals } from '../pipeline/run.js';
import { listLedgerFiles, readLedgerFiles, type FileError } from '../sources/files.js';
import { withIngestEngine } from './context.js';

export const fileCommand = defineCommand({
  usage: 'file <path> [--source NAME] [--batch-ledgers N]',
  summary: 'index rippled ledger JSON: one file, a folder (recursive), or NDJSON',
  options: { source: { type: 'string', default: 'files' }, 'batch-ledgers': { type: 'string' } },
  positionals: { min: 1, max: 1 },
  run: async ({ values, positionals: [path = ''] }) => {
    const batchLedgers = integerOption(values['batch-ledgers'], 'batch-ledgers', { min: 1, default: 50 });
    const files = listLedgerFiles(resolve(path));
    return withIngestEngine(async ({ engine, config, logger }) => {
      const errors: FileError[] = [];
      const progress = createProgress({
        logger,
        label: 'ingest',
        total: files.length,
        format: 'files | {ledgers} ledgers | {docs} docs | {rate} docs/s | ETA {eta_formatted}',
      });
      const started = Date.now();
      let filesDone = 0;
      async function* ledgers(): AsyncGenerator<LedgerInput> {
        for await (const { ledger } of readLedgerFiles(files, (e) => errors.push(e))) {
          filesDone += 1;
          yield ledger;
        }
      }
      const onBatch = (totals: IngestTotals): void => {
        const rate = Math.round(totals.documents / Math.max((Date.now() - started) / 1000, 0.001));
        progress.update(filesDone, { ledgers: totals.ledgers, docs: totals.documents, rate });
      };
      const checkpoints = new CheckpointStore(engine, values.source ?? 'files');
      const totals = await runPipeline(ledgers(), engine, checkpoints, {
        onBatch,
        batchLedgers,
        networkId: config.xrpl.networkId,
      });
      progress.stop();
      await engine.refresh(LEDGER_KINDS);
      const seconds = (Date.now() - started) / 1000;
      for (const e of errors) logger.error({ file: e.file, line: e.line, error: e.message }, 'not a ledger, skipped');
      console.log(
        `indexed ${totals.ledgers} ledgers, ${totals.transactions} transactions, ${totals.documents} documents in ${seconds.toFixed(1)} s` +
          ` (${totals.superseded} superseded by newer state, ${totals.deadLetters} dead letters, ${errors.length} unreadable files)`,
      );
      return errors.length > 0 || totals.deadLetters > 0 ? 1 : 0;
    });
  },
});
