import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a test passes to fixtures that clean up after it (tap's `t`). */
export interface Teardown {
  teardown(fn: () => Promise<void> | void): void;
}

/**
 * Serves `listener` on an ephemeral port of 127.0.0.1 until the test ends (open connections are
 * dropped then, so a keep-alive client cannot hold the teardown); returns `http://127.0.0.1:<port>`.
 */
export async function listenForTest(t: Teardown, listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
