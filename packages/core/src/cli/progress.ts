import cliProgress from 'cli-progress';
import type { Logger } from '../logger.js';

/**
 * Progress of a long piece of work: on a terminal a bar with the count, the rate and the time
 * left; otherwise a JSON log line per update (`progress`, with `done`, `of`, `unit`, `rate` per
 * second in `rate_unit`, `elapsed_s` and `eta_s`), which a log shipper or a supervisor's journal keeps.
 */
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
  /** What the count counts: `files`, `ledgers`, `documents`, `steps`. */
  unit: string;
  /** Fields shown between the count and the rate, e.g. `{docs} docs` (given to each update). */
  format?: string;
  /**
   * What the rate counts when it is not the unit (a file ingest counts files and rates documents):
   * each update then gives `rate`. By default the rate is the count per second since the start.
   */
  rateUnit?: string;
  stream?: NodeJS.WriteStream;
  /** The clock (tests). */
  now?: () => number;
}

export function createProgress({
  logger,
  label,
  total,
  unit,
  format,
  rateUnit = unit,
  stream = process.stderr,
  now = Date.now,
}: ProgressOptions): Progress {
  const started = now();
  let of = total;
  /** The rate and time left of `done` so far (the rate from the caller when it rates another unit). */
  const measure = (done: number, fields: Record<string, string | number>) => {
    const seconds = Math.max((now() - started) / 1000, 0.001);
    const rate = typeof fields.rate === 'number' ? fields.rate : Math.round((done / seconds) * 10) / 10;
    const eta = done > 0 && of >= done ? Math.round((seconds * (of - done)) / done) : null;
    return { rate, elapsed_s: Math.round(seconds), eta_s: eta };
  };
  if (stream.isTTY !== true) {
    return {
      update: (done, fields = {}) =>
        logger.info({ label, done, of, unit, ...fields, ...measure(done, fields), rate_unit: rateUnit }, 'progress'),
      setTotal: (next) => {
        of = next;
      },
      stop: () => undefined,
    };
  }
  // The count, the rate and the time left first: a narrow terminal crops the end of the line.
  const parts = [`${label} |{bar}| {value}/{total} ${unit}`, `{rate} ${rateUnit}/s`, 'ETA {time_left}', format];
  const bar = new cliProgress.SingleBar(
    { format: parts.filter((p) => p !== undefined && p !== '').join(' | '), stream, hideCursor: false, barsize: 20 },
    cliProgress.Presets.shades_classic,
  );
  let drawing = false;
  return {
    update: (done, fields = {}) => {
      const { rate, eta_s } = measure(done, fields);
      const payload = { ...fields, rate, time_left: eta_s === null ? '?' : formatSeconds(eta_s) };
      if (!drawing) bar.start(of, done, payload);
      else bar.update(done, payload);
      drawing = true;
    },
    setTotal: (next) => {
      of = next;
      if (drawing) bar.setTotal(next);
    },
    stop: () => {
      if (drawing) bar.stop();
      drawing = false;
    },
  };
}

/** A duration as people read it on a bar: `42s`, `3m05s`, `2h07m`, `3d04h`. */
export function formatSeconds(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const pad = (n: number): string => String(n).padStart(2, '0');
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${pad(s % 60)}s`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h${pad(Math.floor((s % 3600) / 60))}m`;
  return `${Math.floor(s / 86_400)}d${pad(Math.floor((s % 86_400) / 3600))}h`;
}
