import cliProgress from 'cli-progress';
import type { Logger } from '../logger.js';

/** Progress of a long piece of work: a bar on a terminal, a log line per update otherwise. */
export interface Progress {
  update(done: number, fields?: Record<string, string | number>): void;
  /** A total learnt as the work goes (a live catch-up whose target moves). */
  setTotal(total: number): void;
  stop(): void;
}

export interface ProgressOptions {
  logger: Logger;
  /** What is being done, e.g. `ingest` or a job's name. */
  label: string;
  total: number;
  /** Extra fields of the bar, after `{bar} {value}/{total}`, e.g. `{docs} docs | {rate} docs/s`. */
  format?: string;
  stream?: NodeJS.WriteStream;
}

export function createProgress({
  logger,
  label,
  total,
  format = '',
  stream = process.stderr,
}: ProgressOptions): Progress {
  if (stream.isTTY !== true) {
    let of = total;
    return {
      update: (done, fields = {}) => logger.info({ label, done, of, ...fields }, 'progress'),
      setTotal: (next) => {
        of = next;
      },
      stop: () => undefined,
    };
  }
  const bar = new cliProgress.SingleBar(
    { format: `${label} |{bar}| {value}/{total} ${format}`.trimEnd(), stream, hideCursor: false },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update: (done, fields = {}) => {
      if (!started) bar.start(total, done, fields);
      else bar.update(done, fields);
      started = true;
    },
    setTotal: (next) => {
      if (started) bar.setTotal(next);
      else total = next;
    },
    stop: () => {
      if (started) bar.stop();
      started = false;
    },
  };
}
