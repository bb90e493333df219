import { pino, type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import sonicBoom, { type SonicBoom, type SonicBoomOpts } from 'sonic-boom';

export type { Logger };

/**
 * How log lines are written: `json` (one JSON object a line, for log shippers), `pretty`
 * (readable lines for people), or `auto`: pretty when the destination is a terminal, JSON
 * otherwise.
 */
export type LogFormat = 'auto' | 'json' | 'pretty';

/** How many bytes of log lines wait in memory, at most, while stdout is not read (LOG_BUFFER_BYTES). */
export const DEFAULT_LOG_BUFFER_BYTES = 4 * 1024 * 1024;

/** How long an exiting process keeps offering its last lines to a stdout nobody reads. */
const EXIT_FLUSH_MS = 1000;

/**
 * Lines are gathered up to this many bytes, or for at most LOG_FLUSH_MS, and written in one
 * system call instead of one per line: about 4 µs of CPU less per access-log line at a paced
 * request rate on this 2-core machine (measured in a process of its own), and the pipe's reader
 * is woken once per batch instead of once per request.
 */
const LOG_BATCH_BYTES = 8 * 1024;
/** The longest a line waits in the batch before it is written. */
const LOG_FLUSH_MS = 100;

/** JSON lines of these levels (the level comes first in each line) are written at once, not batched. */
const URGENT = ['{"level":"warn"', '{"level":"error"', '{"level":"fatal"'];

/** Standard output as the loggers of a process share it: lines, and a flush of what waits. */
interface LineSink {
  write(line: string): void;
  flush(): void;
}

/** One destination on fd 1 per process (per buffer size), whatever the number of loggers. */
const stdoutDestinations = new Map<number, LineSink>();

/**
 * Standard output that never stops the process. Lines are written on the calling thread (a write
 * to a pipe is one cheap system call, where the thread pool would cost two thread wake-ups a
 * line), several at a time (LOG_BATCH_BYTES, or after LOG_FLUSH_MS at most), and the pipe is
 * non-blocking: while the reader does not read (a stalled log shipper, a full pipe) a write
 * answers EAGAIN at once and the lines wait in memory, offered again with the next line, up to
 * `bufferBytes`; later ones are dropped and counted, and the count is logged once
 * lines flow again. Nothing sleeps, so requests and a SIGTERM go on. At exit the lines still
 * waiting are written if the reader takes them within EXIT_FLUSH_MS, and dropped otherwise.
 */
function stdoutDestination(bufferBytes: number): LineSink {
  let out = stdoutDestinations.get(bufferBytes);
  if (out === undefined) {
    out = openStdout(bufferBytes);
    stdoutDestinations.set(bufferBytes, out);
  }
  return out;
}

function openStdout(bufferBytes: number): LineSink {
  // Node's own stdout handle makes a pipe on fd 1 non-blocking: a full pipe then answers EAGAIN
  // instead of holding the thread in write(2).
  void process.stdout;
  // sonic-boom sleeps and retries on EAGAIN while this says so: only during the exit's flush.
  let exitDeadline = Number.NEGATIVE_INFINITY;
  // The package's types name a class its CommonJS module only gives as its default export.
  const out = new (sonicBoom as unknown as new (options: SonicBoomOpts) => SonicBoom)({
    fd: 1,
    sync: true,
    minLength: Math.min(LOG_BATCH_BYTES, Math.floor(bufferBytes / 2)),
    maxLength: bufferBytes,
    retryEAGAIN: () => Date.now() < exitDeadline,
  });
  // Info and debug lines in batches: a batch is written LOG_FLUSH_MS after the first line that
  // waits in it, by a timer armed only then (sonic-boom's periodicFlush would wake an idle process
  // ten times a second for nothing). A warning or an error is written at once, with whatever waits
  // before it, so that the lines before a crash are not the ones lost.
  let flushing: NodeJS.Timeout | undefined;
  const flushLater = (): void => {
    flushing = undefined;
    out.flush();
  };
  const sink: LineSink = {
    write(line: string) {
      out.write(line);
      if (URGENT.some((prefix) => line.startsWith(prefix))) out.flush();
      else if (flushing === undefined) {
        flushing = setTimeout(flushLater, LOG_FLUSH_MS);
        flushing.unref();
      }
    },
    flush: () => out.flush(),
  };
  let dropped = 0;
  out.on('drop', () => {
    dropped += 1;
    // A full buffer takes no line, so no line would offer it again: this empty one does.
    out.write('');
  });
  out.on('write', () => {
    if (dropped === 0) return;
    const lines = dropped;
    dropped = 0;
    // After the write that just ended is accounted for, not inside its bookkeeping.
    queueMicrotask(() =>
      sink.write(
        `${JSON.stringify({ level: 'warn', time: new Date().toISOString(), pid: process.pid, dropped: lines, msg: 'log lines dropped: stdout was not read' })}\n`,
      ),
    );
  });
  // EAGAIN: the lines wait for the next write. EPIPE, a reader that went away: they are lost, and
  // the process goes on without it.
  out.on('error', () => undefined);
  process.once('exit', () => {
    exitDeadline = Date.now() + EXIT_FLUSH_MS;
    try {
      out.flushSync();
    } catch {
      // The reader did not take them in time: they are dropped, the exit goes on.
    }
  });
  return sink;
}

/**
 * One log line per event on stdout (or the given destination), with the package name bound.
 * `bufferBytes` bounds what waits for a stdout that is not read (see stdoutDestination).
 */
export function createLogger(
  name: string,
  level: string,
  destination?: NodeJS.WritableStream,
  format: LogFormat = 'json',
  bufferBytes = DEFAULT_LOG_BUFFER_BYTES,
): Logger {
  const options: LoggerOptions = {
    name,
    level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: {
      paths: ['*.apiKey', '*.password', '*.authorization', 'req.headers.authorization'],
      censor: '[redacted]',
    },
  };
  const target = destination ?? process.stdout;
  const terminal = (target as { isTTY?: boolean }).isTTY === true;
  if (format === 'pretty' || (format === 'auto' && terminal))
    return pino(
      options,
      pretty({
        destination: target,
        sync: true,
        colorize: terminal,
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname',
      }),
    );
  return pino(options, (destination as pino.DestinationStream | undefined) ?? stdoutDestination(bufferBytes));
}
