#!/usr/bin/env node
/**
 * The floor of any API in front of the engine, for bench:api: a bare Node HTTP server, no
 * framework and no work of its own, that answers `GET /f/<steps>` (see floor-steps.ts) by sending
 * those engine requests in turn to `FORWARD_ENGINE` over a keep-alive connection and passing the
 * last answer's status, type, encoding and bytes straight back (the earlier answers are read and
 * dropped; the client's Accept-Encoding goes to the engine, so both sides decompress alike). Run in
 * its own process, as the API is; prints `{"url": ...}` once it listens.
 */
import { Agent, createServer, request, type IncomingMessage, type IncomingHttpHeaders } from 'node:http';
import { floorSteps, type FloorStep } from './floor-steps.js';

const engine = new URL(process.env.FORWARD_ENGINE ?? 'http://127.0.0.1:9200');
const agent = new Agent({ keepAlive: true });

function send(step: FloorStep, incoming: IncomingHttpHeaders): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const upstream = request(
      {
        host: engine.hostname,
        port: engine.port,
        path: step.path,
        method: step.method ?? 'GET',
        agent,
        headers: {
          'content-type': 'application/json',
          ...(incoming['accept-encoding'] === undefined ? {} : { 'accept-encoding': incoming['accept-encoding'] }),
        },
      },
      resolve,
    );
    upstream.on('error', reject);
    upstream.end(step.body);
  });
}

const server = createServer((req, res) => {
  const steps = floorSteps(req.url);
  if (steps === undefined || steps.length === 0) {
    res.writeHead(404).end();
    return;
  }
  void (async () => {
    let answer = await send(steps[0] as FloorStep, req.headers);
    for (const step of steps.slice(1)) {
      answer.resume();
      answer = await send(step, req.headers);
    }
    const headers: Record<string, string> = { 'content-type': answer.headers['content-type'] ?? 'application/json' };
    if (answer.headers['content-encoding'] !== undefined)
      headers['content-encoding'] = answer.headers['content-encoding'];
    res.writeHead(answer.statusCode ?? 502, headers);
    answer.pipe(res);
  })().catch(() => res.writeHead(502).end());
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (typeof address === 'object' && address !== null)
    console.log(JSON.stringify({ url: `http://127.0.0.1:${address.port}` }));
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
