import { relative, resolve } from 'node:path';
import { createProgress, defineCommand, integerOption, UsageError } from '@xle/core';
import type { LedgerInput } from '@xle/documents';
import { CheckpointStore } from '../pipeline/checkpoint.js';
import { DEFAULT_BATCH_LEDGERS, LEDGER_KINDS, runPipeline, type IngestTotals } from '../pipeline/run.js';
import { listLedgerFiles, readLedgerFiles, type FileError } from '../sources/files.js';
import { withIngestEngine } from './context.js';

/** The ledgers of `--accept-refused`: indices separated by commas. */
function ledgerList(value: string | undefined): Set<number> {
  if (value === undefined) return new Set();
  if (!/^\d+(,\d+)*$/.test(value))
    throw new UsageError(`--accept-refused takes ledger indices separated by commas, not ${value}`);
  return new Set(value.split(',').map(Number));
}

export const fileCommand = defineCommand({
  usage: 'file <path> [--source NAME] [--batch-ledgers N] [--accept-refused N,M]',
  summary:
    'index rippled ledger JSON: one file, a folder (recursive), or NDJSON. Each ledger is checked\n' +
    'against its hashes: one that does not match them is refused (not indexed; exit 1), one whose file\n' +
    'lacks what the check needs is indexed and counted. --accept-refused: these ledgers are indexed\n' +
    'even if refused (still reported), for files known to be edited',
  options: {
    source: { type: 'string', default: 'files' },
    'batch-ledgers': { type: 'string' },
    'accept-refused': { type: 'string' },
  },
  positionals: { min: 1, max: 1 },
  run: async ({ values, positionals: [path = ''] }) => {
    const batchLedgers = integerOption(values['batch-ledgers'], 'batch-ledgers', {
      min: 1,
      default: DEFAULT_BATCH_LEDGERS,
    });
    const accepted = ledgerList(values['accept-refused']);
    const root = resolve(path);
    const skipped: string[] = [];
    const files = listLedgerFiles(root, (file, reason) => {
      skipped.push(file);
      console.error(`skipped ${relative(root, file) || file}: ${reason}`);
    });
    const where = (file: string, line?: number): string =>
      (relative(root, file) || file) + (line === undefined ? '' : `:${line}`);
    return withIngestEngine(async ({ engine, config, logger }) => {
      const errors: FileError[] = [];
      const refused: string[] = [];
      const unchecked: string[] = [];
      const progress = createProgress({
        logger,
        label: 'ingest',
        total: files.length,
        unit: 'files',
        format: '{ledgers} ledgers | {docs} docs',
        rateUnit: 'docs',
      });
      const started = Date.now();
      let filesDone = 0;
      let lastFile: string | undefined;
      // A ledger read twice (the same ledger in two files) is indexed and counted once.
      const seen = new Set<number>();
      const repeated: string[] = [];
      async function* ledgers(): AsyncGenerator<LedgerInput> {
        // Files, not ledgers: an NDJSON file holds many. A file that gives no ledger (unreadable,
        // or one line too large) is read all the same.
        const reached = (file: string): void => {
          if (file === lastFile) return;
          filesDone += 1;
          lastFile = file;
        };
        const failed = (e: FileError): void => {
          errors.push(e);
          reached(e.file);
        };
        for await (const { file, line, ledger, verification } of readLedgerFiles(files, failed)) {
          reached(file);
          if (seen.has(ledger.ledger_index)) {
            repeated.push(`${where(file, line)} (ledger ${ledger.ledger_index})`);
            continue;
          }
          seen.add(ledger.ledger_index);
          if (verification.status === 'refused') {
            const kept = accepted.has(ledger.ledger_index);
            refused.push(
              `${kept ? 'indexed although refused' : 'refused, not indexed'}: ${where(file, line)}: ${verification.reason} (the ${verification.check} check)`,
            );
            if (!kept) continue;
          } else if (verification.status === 'cannot-check') {
            unchecked.push(where(file, line));
            logger.debug({ file, line, reason: verification.reason }, 'ledger cannot be checked, indexed');
          }
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
      // What was skipped, and why, whatever the log level: the summary below counts it.
      for (const e of errors) console.error(`not a ledger, skipped: ${where(e.file, e.line)}: ${e.message}`);
      for (const line of refused) console.error(line);
      const notIndexed = refused.filter((r) => r.startsWith('refused')).length;
      console.log(
        `indexed ${totals.ledgers} ledgers, ${totals.transactions} transactions, ${totals.documents} documents in ${seconds.toFixed(1)} s` +
          ` (${totals.superseded} superseded by newer state, ${totals.deadLetters} dead letters, ${errors.length} unreadable files or lines` +
          `${skipped.length === 0 ? '' : `, ${skipped.length} folder entries skipped`}` +
          `${repeated.length === 0 ? '' : `, ${repeated.length} ledgers read again and skipped: ${repeated.join(', ')}`});` +
          ` ${refused.length} ledgers refused by their hashes (${notIndexed} not indexed);` +
          ` ${unchecked.length} ledgers indexed that could not be checked` +
          (unchecked.length === 0 ? '' : ` (their files lack what the hashes need): ${unchecked.join(', ')}`),
      );
      return errors.length > 0 || totals.deadLetters > 0 || notIndexed > 0 ? 1 : 0;
    });
  },
});
