#!/usr/bin/env node
import { resolve } from 'node:path';
import cliProgress from 'cli-progress';
import { applyTemplates, createEngineClient, createLogger, isAppError, loadConfig, namingOf } from '@xle/core';
import type { LedgerInput } from './input/normalize-ledger.js';
import { runPipeline, type IngestTotals } from './pipeline.js';
import { BulkSink } from './sink/bulk-sink.js';
import { CheckpointStore, gapsOf } from './sink/checkpoint.js';
import { listLedgerFiles, readLedgerFiles, type FileError } from './sources/files.js';

const USAGE = `usage: ingest <command>
  file <path> [--source NAME] [--batch-ledgers N]
                                index rippled ledger JSON: one file, a folder (recursive), or NDJSON
  status [--source NAME] [--json]  last ledger, indexed ranges and gaps of a source
The source name (default: "files" for file, "rippled" otherwise) keys the checkpoint.`;

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  const config = loadConfig();
  const logger = createLogger('ingester', config.log.level, process.stderr);
  const client = createEngineClient(config);
  const naming = namingOf(config);
  try {
    if (command === 'status') {
      const source = option(args, '--source') ?? 'files';
      const checkpoint = await new CheckpointStore(client, naming, source).load();
      const status =
        checkpoint === undefined ? { source, indexed: false } : { ...checkpoint, gaps: gapsOf(checkpoint.ranges) };
      if (args.includes('--json')) console.log(JSON.stringify(status));
      else if (checkpoint === undefined) console.log(`${source}: nothing indexed yet`);
      else {
        const ranges = checkpoint.ranges.map((r) => (r.from === r.to ? `${r.from}` : `${r.from}-${r.to}`));
        console.log(
          `${source}: last ledger ${checkpoint.last_ledger}, ${checkpoint.ledgers} ledgers, ${checkpoint.documents} documents, ${checkpoint.dead_letters} dead letters`,
        );
        console.log(`ranges (${ranges.length}): ${ranges.join(', ')}`);
        console.log(`gaps: ${gapsOf(checkpoint.ranges).length}`);
      }
      return 0;
    }
    if (command === 'file' && args[0] !== undefined) {
      const files = listLedgerFiles(resolve(args[0]));
      const source = option(args, '--source') ?? 'files';
      await applyTemplates(client, naming);
      const errors: FileError[] = [];
      const sink = new BulkSink({ client, naming, logger, networkId: config.xrpl.networkId });
      const checkpoints = new CheckpointStore(client, naming, source);
      const bar = process.stderr.isTTY
        ? new cliProgress.SingleBar(
            {
              format:
                'ingest |{bar}| {value}/{total} files | {ledgers} ledgers | {docs} docs | {rate} docs/s | ETA {eta_formatted}',
              stream: process.stderr,
            },
            cliProgress.Presets.shades_classic,
          )
        : undefined;
      const started = Date.now();
      bar?.start(files.length, 0, { ledgers: 0, docs: 0, rate: 0 });
      let filesDone = 0;
      async function* ledgers(): AsyncGenerator<LedgerInput> {
        for await (const { ledger } of readLedgerFiles(files, (e) => errors.push(e))) {
          filesDone += 1;
          yield ledger;
        }
      }
      const progress = (totals: IngestTotals): void => {
        const rate = Math.round(totals.documents / Math.max((Date.now() - started) / 1000, 0.001));
        if (bar !== undefined) bar.update(filesDone, { ledgers: totals.ledgers, docs: totals.documents, rate });
        else
          logger.info(
            {
              files: filesDone,
              of: files.length,
              ledgers: totals.ledgers,
              documents: totals.documents,
              docsPerSecond: rate,
            },
            'progress',
          );
      };
      const batchLedgers = Number(option(args, '--batch-ledgers') ?? 50);
      if (!Number.isInteger(batchLedgers) || batchLedgers < 1)
        throw new Error('--batch-ledgers takes a positive integer');
      const totals = await runPipeline(ledgers(), sink, checkpoints, { onBatch: progress, batchLedgers });
      bar?.update(files.length);
      bar?.stop();
      await sink.refresh();
      const seconds = (Date.now() - started) / 1000;
      for (const e of errors) logger.error({ file: e.file, line: e.line, error: e.message }, 'not a ledger, skipped');
      console.log(
        `indexed ${totals.ledgers} ledgers, ${totals.transactions} transactions, ${totals.documents} documents in ${seconds.toFixed(1)} s` +
          ` (${totals.superseded} superseded by newer state, ${totals.deadLetters} dead letters, ${errors.length} unreadable files)`,
      );
      return errors.length > 0 || totals.deadLetters > 0 ? 1 : 0;
    }
    console.error(USAGE);
    return 64;
  } finally {
    await client.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(
      isAppError(error) ? `error ${error.code}: ${error.message}` : `error: ${(error as Error).stack ?? String(error)}`,
    );
    process.exit(1);
  },
);
