#!/usr/bin/env node
/**
 * The floor of any API in front of the engine, for bench:api: a bare Node HTTP server, no
 * framework and no work of its own, that answers `GET /<n>` by sending the n-th engine request of
 * `FORWARD_ROUTES` (JSON: `[{path, method?, body?}]`) to `FORWARD_ENGINE` over a keep-alive
 * connection and passing the answer's status, type, encoding and bytes straight back (the client's
 * Accept-Encoding goes to the engine, so both sides decompress alike). Run in its own process, as
 * the API is; prints `{"url": ...}` once it listens.
 */
import { Agent, createServer, request } from 'node:http';

interface Route {
  path: string;
  method?: string;
  body?: string;
}
const engine = new URL(process.env.FORWARD_ENGINE ?? 'http://127.0.0.1:9200');
const routes = JSON.parse(process.env.FORWARD_ROUTES ?? '[]') as Route[];
const agent = new Agent({ keepAlive: true });

const server = createServer((req, res) => {
  const route = routes[Number(req.url?.slice(1))];
  if (route === undefined) {
    res.writeHead(404).end();
    return;
  }
  const upstream = request(
    {
      host: engine.hostname,
      port: engine.port,
      path: route.path,
      method: route.method ?? 'GET',
      agent,
      headers: {
        'content-type': 'application/json',
        ...(req.headers['accept-encoding'] === undefined ? {} : { 'accept-encoding': req.headers['accept-encoding'] }),
      },
    },
    (answer) => {
      const headers: Record<string, string> = { 'content-type': answer.headers['content-type'] ?? 'application/json' };
      if (answer.headers['content-encoding'] !== undefined)
        headers['content-encoding'] = answer.headers['content-encoding'];
      res.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => res.writeHead(502).end());
  upstream.end(route.body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (typeof address === 'object' && address !== null)
    console.log(JSON.stringify({ url: `http://127.0.0.1:${address.port}` }));
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
