import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { createEngineClient, loadConfig } from '@xle/core';
import {
  clusterFromConfig,
  clusterStatus,
  engineHttpUrl,
  killNode,
  startCluster,
  stopCluster,
  type EngineInstance,
} from '../../src/index.js';

// A real three-node cluster of the same jars, on ports of its own, in a throw-away folder.
const dataDir = mkdtempSync(join(tmpdir(), 'xle-cluster-test-'));
// The client knows all three nodes, as a production client configured with ES_URL=a,b,c would.
const config = loadConfig({
  overrides: {
    engine: { port: 9291, transportPort: 9391, dataDir, heap: '384m', nodes: 3 },
    es: { url: 'http://127.0.0.1:9291,http://127.0.0.1:9292,http://127.0.0.1:9293' },
  },
});
const cluster = clusterFromConfig(config);
t.teardown(async () => {
  await stopCluster(cluster);
  rmSync(dataDir, { recursive: true, force: true });
});

t.test('three nodes on consecutive ports form one cluster', async (t) => {
  t.same(
    cluster.nodes.map((n) => [n.nodeName, n.port, n.transportPort]),
    [
      ['local-9291', 9291, 9391],
      ['local-9292', 9292, 9392],
      ['local-9293', 9293, 9393],
    ],
  );
  t.same(cluster.nodes[0]?.members, {
    seedHosts: ['127.0.0.1:9391', '127.0.0.1:9392', '127.0.0.1:9393'],
    initialMasters: ['local-9291', 'local-9292', 'local-9293'],
  });
  t.not(cluster.nodes[0]?.dataDir, cluster.nodes[1]?.dataDir, 'each node has its own data folder');
  const started = await startCluster(cluster);
  t.equal(started.joined, 3, 'all three joined');
  t.equal(started.running, true);
  const recorded = JSON.parse(readFileSync(join(dataDir, 'cluster.json'), 'utf8')) as { nodes: unknown[] };
  t.equal(recorded.nodes.length, 3, 'the cluster is recorded for clients and engine status/stop');
  t.equal((await startCluster(cluster)).joined, 3, 'starting a running cluster is a no-op');
});

t.test('losing a node is a normal event: reads and writes go on, the node rejoins', async (t) => {
  const client = createEngineClient(config);
  t.teardown(() => client.close());
  await client.indices.create({
    index: 'spread',
    settings: { number_of_shards: 3, number_of_replicas: 1 },
  });
  await client.cluster.health({ index: 'spread', wait_for_status: 'green', timeout: '60s' });
  const docs = (from: number, n: number) =>
    Array.from({ length: n }, (_, i) => [
      { index: { _index: 'spread', _id: String(from + i) } },
      { n: from + i },
    ]).flat();
  await client.bulk({ operations: docs(0, 300), refresh: true });

  const lost = cluster.nodes[1] as EngineInstance;
  await killNode(lost);
  const status = await clusterStatus(cluster);
  t.same(
    status.nodes.map((n) => n.running),
    [true, false, true],
    'the killed node is down',
  );
  // The cluster notices the loss, promotes replicas, and stays readable with every document.
  const yellow = await client.cluster.health({ wait_for_nodes: '2', wait_for_status: 'yellow', timeout: '60s' });
  t.equal(yellow.number_of_nodes, 2);
  t.equal(yellow.unassigned_primary_shards ?? 0, 0, 'no primary is lost');
  t.equal((await client.count({ index: 'spread' })).count, 300, 'every document is still counted');
  const written = await client.bulk({ operations: docs(300, 100), refresh: true });
  t.equal(written.errors, false, 'writes go on');
  t.equal((await client.count({ index: 'spread' })).count, 400);

  // Restarting the lost node rejoins it; the cluster returns to green.
  const restarted = await startCluster(cluster);
  t.equal(restarted.joined, 3);
  const green = await client.cluster.health({ index: 'spread', wait_for_status: 'green', timeout: '90s' });
  t.equal(green.status, 'green');
  t.equal((await client.count({ index: 'spread' })).count, 400);
  const perNode = await fetch(`${engineHttpUrl(lost)}/spread/_count`).then((r) => r.json());
  t.equal((perNode as { count: number }).count, 400, 'the rejoined node answers too');
});

t.test('stop takes every node down', async (t) => {
  t.equal(await stopCluster(cluster), true);
  const status = await clusterStatus(cluster);
  t.equal(status.running, false);
  t.equal(status.health, undefined);
});
