#!/usr/bin/env node
/**
 * The floor of the API's own stack, for bench:api: Koa, @koa/router, the product's engine client
 * (`createEngineClient`, same connection and options) and its compression middleware, and nothing
 * else: no access plans, validation, shaping, ETag, log or metrics. `GET /f/<steps>` (see
 * floor-steps.ts) sends those engine requests in turn through the client and answers the last
 * one's parsed result as JSON again. What it adds over the engine is what the chosen stack costs
 * before the API does anything of its own. Run in its own process, as the API is; prints
 * `{"url": ...}` once it listens.
 */
import Router from '@koa/router';
import Koa from 'koa';
import { createEngineClient, loadConfig, negotiatedCompression } from '@xle/core';
import { floorSteps } from './floor-steps.js';

const client = createEngineClient(loadConfig());
const app = new Koa();
const router = new Router();
router.get('/f/:steps', async (ctx) => {
  const steps = floorSteps(ctx.path);
  if (steps === undefined) return;
  let answer: unknown;
  for (const step of steps)
    answer = await client.transport.request({
      method: step.method ?? 'GET',
      path: step.path,
      ...(step.body === undefined ? {} : { body: JSON.parse(step.body) as Record<string, unknown> }),
    });
  ctx.type = 'json';
  ctx.body = Buffer.from(JSON.stringify(answer));
});
app.use(negotiatedCompression());
app.use(router.routes());
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (typeof address === 'object' && address !== null)
    console.log(JSON.stringify({ url: `http://127.0.0.1:${address.port}` }));
});
server.keepAliveTimeout = 60_000;
process.once('SIGTERM', () => server.close(() => process.exit(0)));
