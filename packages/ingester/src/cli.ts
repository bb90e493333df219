#!/usr/bin/env node
import { resolve } from 'node:path';
import cliProgress from 'cli-progress';
import {
  applyTemplates,
  BadRequestError,
  createEngineClient,
  createLogger,
  isAppError,
  loadConfig,
  namingOf,
} from '@xle/core';
import type { LedgerInput } from '@xle/documents';
import { snapshotNetwork } from './jobs/network.js';
import { crawlNodes } from './jobs/nodes.js';
import { isJobName, JOB_NAMES, runJob, type JobName, type TokensJobOptions } from './jobs/run.js';
import { directoryTomlSource, httpTomlSource } from './jobs/toml.js';
import { scoreConfigOf } from './jobs/tokens.js';
import { runPipeline, type IngestTotals } from './pipeline.js';
import { BulkSink } from './sink/bulk-sink.js';
import { CheckpointStore, gapsOf } from './sink/checkpoint.js';
import { listLedgerFiles, readLedgerFiles, type FileError } from './sources/files.js';
import { RippledSource } from './sources/rippled.js';
import { readStateFiles, seedState } from './state/snapshot.js';
import { consumeValidations, ValidationStore } from './validators/consumer.js';
import { runValidatorsJob, type UnlSource } from './validators/registry.js';
import { loadValidatorList, verifyValidatorList } from './validators/validator-list.js';

const USAGE = `usage: ingest <command>
  file <path> [--source NAME] [--batch-ledgers N]
                                index rippled ledger JSON: one file, a folder (recursive), or NDJSON
  backfill --from N --to M [--concurrency K]
                                index a ledger range from rippled (RIPPLED_URL), committed in ledger order
  live [--from N]               follow validated ledgers; after a restart or reconnect the gap since the
                                checkpoint is backfilled first (--from: start there when nothing is indexed)
  status [--source NAME] [--json]  last ledger, indexed ranges, gaps, and lag behind rippled (default source: rippled)
  state <path> | state --ledger N [--limit K]
                                seed ledger objects and accounts from a state snapshot: a ledger file with
                                accountState, ledger_data pages (JSON or binary; one file or a folder), or
                                rippled's ledger_data for ledger N; a whole snapshot also retires what is gone
  amendments | facts | metrics | balances | tokens [--refresh-toml DOMAIN|all]...
                                compute one derived data set from the indexed ledgers (idempotent: a
                                re-run, or a run after a kill, ends in the same index); tokens reads
                                issuers' xrp-ledger.toml (TOML_DIR, else HTTPS) and refetches a domain
                                after TOML_MAX_AGE_HOURS, or now with --refresh-toml
  jobs                          run every derived-data job above, in that order
  network [--every SECONDS]     snapshot rippled's fee and server_info (RIPPLED_URL); with --every, repeat
                                until interrupted
  nodes --seed URL [--seed URL]... [--depth N] [--max-servers N]
                                crawl peer nodes from rippled /crawl answers (https://host:51235/crawl),
                                following peers N levels deep (default 1)
  validations [--url WS_URL]    follow rippled's validations and manifests streams (default RIPPLED_URL) into the
                                validations and manifests indices, until interrupted
  validators [--list FILE_OR_URL] [--unl-name NAME] [--publisher KEY]... [--allow-expired]
                                compute the validators data set (registry, agreement, daily reports) from the
                                collected validations; --list: a signed validator list whose verified members
                                are the UNL (--publisher: refuse lists of other publishers)
The source name (default: "files" for file, "rippled" otherwise) keys the checkpoint.`;

/** Waits `ms`, or less when `signal` aborts first. */
function sleepUnless(signal: AbortSignal, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

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
    if (command === 'backfill' || command === 'live') {
      const rippled = new RippledSource({
        url: config.xrpl.url,
        logger,
        concurrency: Number(option(args, '--concurrency') ?? 4),
      });
      const checkpoints = new CheckpointStore(client, naming, 'rippled');
      await applyTemplates(client, naming);
      const controller = new AbortController();
      process.once('SIGINT', () => controller.abort());
      process.once('SIGTERM', () => controller.abort());
      try {
        let ledgers: AsyncIterable<LedgerInput>;
        if (command === 'backfill') {
          const from = Number(option(args, '--from'));
          const to = Number(option(args, '--to'));
          if (!Number.isInteger(from) || !Number.isInteger(to) || from < 32570 || to < from) {
            throw new BadRequestError('backfill needs --from N --to M with 32570 <= N <= M');
          }
          ledgers = rippled.backfill(from, to);
        } else {
          const checkpoint = await checkpoints.load();
          const from = option(args, '--from');
          const after = checkpoint?.last_ledger ?? (from === undefined ? 0 : Number(from) - 1);
          ledgers = rippled.live(after, controller.signal);
        }
        // Backfill commits in batches of 20 ledgers; live commits every ledger as it arrives.
        const started = Date.now();
        const sink = new BulkSink({ client, naming, logger, networkId: rippled.networkId ?? config.xrpl.networkId });
        const totals = await runPipeline(ledgers, sink, checkpoints, {
          batchLedgers: command === 'live' ? 1 : 20,
          onBatch: (t, batch) =>
            logger.info(
              {
                ledger: batch[batch.length - 1]?.ledger_index,
                ledgers: t.ledgers,
                documents: t.documents,
                docsPerSecond: Math.round(t.documents / Math.max((Date.now() - started) / 1000, 0.001)),
              },
              'indexed',
            ),
        });
        console.log(
          `indexed ${totals.ledgers} ledgers, ${totals.documents} documents (${totals.deadLetters} dead letters)`,
        );
        return totals.deadLetters > 0 ? 1 : 0;
      } finally {
        await rippled.close();
      }
    }
    if (command === 'jobs' || isJobName(command)) {
      await applyTemplates(client, naming);
      const refresh = args.flatMap((a, i) => (args[i - 1] === '--refresh-toml' ? [a.toLowerCase()] : []));
      const tokens: TokensJobOptions = {
        toml:
          config.tokens.tomlDir === undefined
            ? httpTomlSource({
                urlTemplate: config.tokens.tomlUrlTemplate,
                timeoutMs: config.tokens.tomlTimeoutMs,
                maxBytes: config.tokens.tomlMaxBytes,
              })
            : directoryTomlSource(resolve(config.tokens.tomlDir), { maxBytes: config.tokens.tomlMaxBytes }),
        tomlMaxAgeMs: config.tokens.tomlMaxAgeHours * 3600_000,
        score: scoreConfigOf(config.tokens.scoreWeights),
        ...(refresh.length === 0 ? {} : { refresh: refresh.includes('all') ? 'all' : new Set(refresh) }),
      };
      const names: JobName[] = command === 'jobs' ? JOB_NAMES : [command];
      const bar = process.stderr.isTTY
        ? new cliProgress.SingleBar(
            { format: '{job} |{bar}| {value}/{total} {step}', stream: process.stderr },
            cliProgress.Presets.shades_classic,
          )
        : undefined;
      for (const name of names) {
        bar?.start(3, 0, { job: name, step: '' });
        const status = await runJob(
          {
            client,
            naming,
            logger,
            tokens,
            onStep: (step, done) => {
              if (bar !== undefined) bar.update(done, { step });
              else logger.info({ job: name, step, done, of: 3 }, 'progress');
            },
          },
          name,
        );
        bar?.stop();
        console.log(
          `${name}: ${status.documents} documents as of ledger ${status.ledger_index} (${status.removed} stale removed)`,
        );
      }
      return 0;
    }
    if (command === 'validations') {
      await applyTemplates(client, naming);
      const controller = new AbortController();
      process.once('SIGINT', () => controller.abort());
      process.once('SIGTERM', () => controller.abort());
      const totals = await consumeValidations(
        { url: option(args, '--url') ?? config.xrpl.url, store: new ValidationStore(client, naming), logger },
        controller.signal,
      );
      console.log(
        `validations: ${totals.validations} (${totals.unverified} unverified, ${totals.malformed} malformed), ` +
          `manifests: ${totals.manifests} (${totals.rejectedManifests} refused, ${totals.supersededManifests} superseded), ` +
          `${totals.failed} refused by the engine`,
      );
      return totals.failed > 0 ? 1 : 0;
    }
    if (command === 'validators') {
      const source = option(args, '--list');
      let unl: UnlSource | undefined;
      if (source !== undefined) {
        const publishers = args.flatMap((a, i) => (args[i - 1] === '--publisher' ? [a] : []));
        const list = verifyValidatorList(
          await loadValidatorList(source.startsWith('http') ? source : resolve(source)),
          {
            allowExpired: args.includes('--allow-expired'),
            ...(publishers.length === 0 ? {} : { publishers }),
          },
        );
        const name =
          option(args, '--unl-name') ??
          (/^https?:\/\//.test(source) ? new URL(source).host : (list.publisher_domain ?? list.publisher_key));
        unl = { name, list };
        logger.info(
          {
            publisher: list.publisher_key,
            sequence: list.sequence,
            expiration: list.expiration,
            validators: list.validators.length,
          },
          'validator list verified',
        );
      }
      await applyTemplates(client, naming);
      const status = await runValidatorsJob(
        {
          client,
          naming,
          logger,
          onStep: (step, done, of) => logger.info({ job: 'validators', step, done, of }, 'progress'),
        },
        unl,
      );
      console.log(
        `validators: ${status.documents} documents as of ledger ${status.ledger_index} (${status.removed} stale removed)`,
      );
      return 0;
    }
    if (command === 'nodes') {
      const seeds = args.flatMap((a, i) => (args[i - 1] === '--seed' ? [a] : []));
      if (seeds.length === 0 || seeds.some((u) => !/^https?:\/\//.test(u)))
        throw new BadRequestError('nodes needs at least one --seed http(s)://host:port/crawl');
      const depth = Number(option(args, '--depth') ?? 1);
      const maxServers = Number(option(args, '--max-servers') ?? 500);
      if (!Number.isInteger(depth) || depth < 0 || !Number.isInteger(maxServers) || maxServers < 1)
        throw new BadRequestError('--depth takes an integer >= 0 and --max-servers an integer >= 1');
      await applyTemplates(client, naming);
      const result = await crawlNodes(client, naming, seeds, {
        depth,
        maxServers,
        timeoutMs: 5000,
        concurrency: 16,
        logger,
      });
      console.log(
        `nodes: ${result.nodes} nodes from ${result.crawled} /crawl answers (${result.failed} servers did not answer)`,
      );
      return 0;
    }
    if (command === 'network') {
      await applyTemplates(client, naming);
      const every = option(args, '--every');
      const seconds = every === undefined ? 0 : Number(every);
      if (!Number.isFinite(seconds) || seconds < 0) throw new BadRequestError('--every takes a number of seconds');
      const rippled = new RippledSource({ url: config.xrpl.url, logger, attempts: 3, requestTimeoutMs: 10000 });
      const controller = new AbortController();
      process.once('SIGINT', () => controller.abort());
      process.once('SIGTERM', () => controller.abort());
      try {
        do {
          const snapshots = await snapshotNetwork(client, naming, rippled, config.xrpl.url);
          console.log(snapshots.map((s) => `${s.doc.kind} at ledger ${s.doc.ledger_index}`).join(', '));
          if (seconds > 0) await sleepUnless(controller.signal, seconds * 1000);
        } while (seconds > 0 && !controller.signal.aborted);
      } finally {
        await rippled.close();
      }
      return 0;
    }
    if (command === 'state') {
      const ledgerOption = option(args, '--ledger');
      const path = args[0] !== undefined && !args[0].startsWith('--') ? args[0] : undefined;
      if ((path === undefined) === (ledgerOption === undefined))
        throw new BadRequestError('state takes a file or folder, or --ledger N (from RIPPLED_URL), not both');
      const ledger = Number(ledgerOption);
      const limit = Number(option(args, '--limit') ?? 2048);
      if (ledgerOption !== undefined && (!Number.isInteger(ledger) || ledger < 1))
        throw new BadRequestError('--ledger takes a ledger index');
      if (!Number.isInteger(limit) || limit < 1 || limit > 2048)
        throw new BadRequestError('--limit takes an integer from 1 to 2048');
      await applyTemplates(client, naming);
      const rippled = path === undefined ? new RippledSource({ url: config.xrpl.url, logger }) : undefined;
      try {
        const result = await seedState(
          path === undefined ? rippled!.statePages(ledger, limit) : readStateFiles(resolve(path)),
          {
            client,
            naming,
            logger,
            networkId: config.xrpl.networkId,
            onPage: (written, at) => logger.info({ ledger: at, entries: written }, 'progress'),
          },
        );
        console.log(
          `state of ledger ${result.ledger_index}: ${result.entries} entries (${result.superseded} older than indexed state, ${result.removed} retired, ${result.deadLetters} dead letters)${result.whole ? '' : '; a partial snapshot: nothing retired'}`,
        );
        return result.deadLetters > 0 ? 1 : 0;
      } finally {
        await rippled?.close();
      }
    }
    if (command === 'status') {
      const source = option(args, '--source') ?? 'rippled';
      const checkpoint = await new CheckpointStore(client, naming, source).load();
      let lag: number | undefined;
      if (source === 'rippled' && checkpoint !== undefined) {
        const rippled = new RippledSource({ url: config.xrpl.url, logger, attempts: 1, requestTimeoutMs: 3000 });
        lag = await rippled.validatedLedgerIndex().then(
          (validated) => validated - checkpoint.last_ledger,
          () => undefined,
        );
        await rippled.close();
      }
      const status =
        checkpoint === undefined
          ? { source, indexed: false }
          : { ...checkpoint, gaps: gapsOf(checkpoint.ranges), lag: lag ?? null };
      if (args.includes('--json')) console.log(JSON.stringify(status));
      else if (checkpoint === undefined) console.log(`${source}: nothing indexed yet`);
      else {
        const ranges = checkpoint.ranges.map((r) => (r.from === r.to ? `${r.from}` : `${r.from}-${r.to}`));
        console.log(
          `${source}: last ledger ${checkpoint.last_ledger}, ${checkpoint.ledgers} ledgers, ${checkpoint.documents} documents, ${checkpoint.dead_letters} dead letters`,
        );
        console.log(`ranges (${ranges.length}): ${ranges.join(', ')}`);
        console.log(`gaps: ${gapsOf(checkpoint.ranges).length}`);
        if (source === 'rippled') {
          console.log(`lag behind ${config.xrpl.url}: ${lag === undefined ? 'source unreachable' : `${lag} ledgers`}`);
        }
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
        throw new BadRequestError('--batch-ledgers takes a positive integer');
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
