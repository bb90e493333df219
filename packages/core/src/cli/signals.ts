let controller: AbortController | undefined;

/**
 * One abort signal for the whole process, aborted by the first SIGINT or SIGTERM: long-running
 * commands stop at their next safe point (a batch boundary, a reconnect wait) instead of dying.
 */
export function abortOnSignals(): AbortSignal {
  if (controller === undefined) {
    const created = new AbortController();
    controller = created;
    process.once('SIGINT', () => created.abort());
    process.once('SIGTERM', () => created.abort());
  }
  return controller.signal;
}

/** Waits `ms`, or less when `signal` aborts first. */
export function sleepUnless(signal: AbortSignal, ms: number): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}
