import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import t from 'tap';
import { readAllDocuments } from '@xle/test-helpers';
import { indexName } from '@xle/core';
import { createTestIndices } from '@xle/test-helpers';
import { fixtureLedgers, getJson, ingest, loadedIndices, serve } from '../fixtures/serve.js';

/** GET /export/{KIND} on the fixture ledgers: whole, cut off and resumed, ranged, compressed. */
const target = await loadedIndices(t);
const base = await serve(t, target);
type Line = Record<string, unknown> & { _cursor: string };

const parse = (text: string): Line[] =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Line);

async function exportAll(path: string): Promise<Line[]> {
  const response = await fetch(`${base}${path}`);
  t.equal(response.status, 200, path);
  t.match(response.headers.get('content-type'), /^application\/x-ndjson/);
  return parse(await response.text());
}

/**
 * Reads an export until `keep` complete lines arrived, then drops the connection mid-stream (as
 * a flaky network would): the lines received whole, and nothing after them.
 */
function exportCut(path: string, keep: number): Promise<Line[]> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        const complete = text.split('\n').slice(0, -1);
        if (complete.length >= keep) {
          req.destroy();
          resolve(parse(complete.slice(0, keep).join('\n')));
        }
      });
      res.on('end', () => reject(new Error(`${path} ended before ${keep} lines`)));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET') reject(error);
    });
    req.end();
  });
}

const keyOf: Record<string, (l: Line) => string> = {
  transactions: (l) => String(l.hash),
  ledgers: (l) => String(l.ledger_index),
  accounts: (l) => String(l.Account),
  objects: (l) => String(l.index),
};
const ledgerOf: Record<string, (l: Line) => number> = {
  transactions: (l) =>
    Number(l.ledger_index) * 65536 + Number((l.meta as { TransactionIndex: number }).TransactionIndex),
  ledgers: (l) => Number(l.ledger_index),
  accounts: (l) => Number(l._updated_ledger_index),
  objects: (l) => Number(l.ledger_index),
};

t.test('each kind: every indexed document once, in ledger order', async (t) => {
  for (const kind of ['transactions', 'ledgers', 'accounts', 'objects']) {
    const lines = await exportAll(`/export/${kind}`);
    // Objects: the live entries and the guards of deleted ones (their tombstones).
    const indexed = [
      ...(await readAllDocuments(target.client, indexName(target.naming, kind as 'objects'))),
      ...(kind === 'objects' ? await readAllDocuments(target.client, indexName(target.naming, 'deletions')) : []),
    ];
    const keys = lines.map(keyOf[kind]!);
    t.equal(lines.length, indexed.length, `${kind}: ${lines.length} lines, as many as documents indexed`);
    t.equal(new Set(keys).size, keys.length, `${kind}: each once`);
    const order = lines.map(ledgerOf[kind]!);
    t.ok(
      order.every((v, i) => i === 0 || v >= (order[i - 1] as number)),
      `${kind}: in ledger order`,
    );
    t.ok(
      lines.every((l) => typeof l._cursor === 'string' && l._cursor.length < 200),
      `${kind}: each line carries its cursor`,
    );
  }
  // Some fixture files hold the same ledger: each transaction is one document.
  const txs = new Set(fixtureLedgers().flatMap((l) => l.transactions.map((tx) => String(tx.hash)))).size;
  t.equal((await exportAll('/export/transactions')).length, txs, `${txs} fixture transactions`);
});

t.test('cut off mid-way and resumed with the cursor: every document exactly once', async (t) => {
  for (const [kind, at] of [
    ['transactions', 700],
    ['transactions', 1000],
    ['transactions', 1001],
    ['objects', 2345],
    ['ledgers', 30],
    ['accounts', 1],
  ] as const) {
    const whole = (await exportAll(`/export/${kind}`)).map(keyOf[kind]!);
    const first = await exportCut(`/export/${kind}`, at);
    t.equal(first.length, at);
    const rest = await exportAll(`/export/${kind}?cursor=${first.at(-1)!._cursor}`);
    const keys = [...first, ...rest].map(keyOf[kind]!);
    t.same(keys, whole, `${kind} cut after ${at}: the same documents, in the same order, each once`);
  }
});

t.test('a ledger range, and a cursor of another export', async (t) => {
  const ledgers = fixtureLedgers()
    .map((l) => ({ index: l.ledger_index }))
    .sort((a, b) => a.index - b.index);
  const from = ledgers[10]!.index;
  const to = ledgers[20]!.index;
  const expected = new Set(
    fixtureLedgers()
      .filter((l) => l.ledger_index >= from && l.ledger_index <= to)
      .flatMap((l) => l.transactions.map((tx) => String(tx.hash))),
  ).size;
  const ranged = await exportAll(`/export/transactions?from_ledger=${from}&to_ledger=${to}`);
  t.equal(ranged.length, expected, `${expected} transactions in ledgers ${from}-${to}`);
  t.ok(ranged.every((l) => Number(l.ledger_index) >= from && Number(l.ledger_index) <= to));
  const cut = await exportCut(`/export/transactions?from_ledger=${from}&to_ledger=${to}`, 5);
  const resumed = await exportAll(`/export/transactions?cursor=${cut.at(-1)!._cursor}`);
  t.equal(cut.length + resumed.length, expected, 'the cursor carries the range');

  const wrongKind = await getJson(`${base}/export/ledgers?cursor=${cut.at(-1)!._cursor}`);
  t.equal(wrongKind.status, 400);
  t.match(wrongKind.body, { error: { code: 'INVALID_PARAMETER', details: { parameter: 'cursor' } } });
  const otherRange = await getJson(`${base}/export/transactions?from_ledger=${from + 1}&cursor=${cut.at(-1)!._cursor}`);
  t.equal(otherRange.status, 400);
  for (const bad of [
    '/export/blocks',
    '/export/transactions?from_ledger=abc',
    '/export/transactions?cursor=x',
    '/export/ledgers?limit=3',
  ])
    t.equal((await getJson(`${base}${bad}`)).status, 400, bad);
});

t.test('compressed when asked', async (t) => {
  const plain = await exportAll('/export/ledgers');
  const response = await fetch(`${base}/export/ledgers`, { headers: { 'Accept-Encoding': 'gzip' } });
  t.equal(response.headers.get('content-encoding'), 'gzip');
  // fetch decodes gzip itself; the bytes on the wire are read raw below.
  const raw = await new Promise<Buffer>((resolve, reject) => {
    request(`${base}/export/ledgers`, { headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks)));
    })
      .on('error', reject)
      .end();
  });
  t.same(parse(gunzipSync(raw).toString('utf8')), plain, 'the same lines, gzipped');
  await response.arrayBuffer();
});

t.test('one request for the access plans, however long', async (t) => {
  const plans = await createTestIndices(t, { access: { mode: 'plans', freePerDay: 5, freePerSecond: 100 } });
  await ingest(plans, fixtureLedgers().slice(0, 3));
  const url = await serve(t, plans);
  const response = await fetch(`${url}/export/transactions`);
  t.equal(response.status, 200);
  await response.arrayBuffer();
  t.equal(response.headers.get('x-ratelimit-remaining'), '4');
  const next = await fetch(`${url}/ledgers`);
  await next.arrayBuffer();
  t.equal(next.headers.get('x-ratelimit-remaining'), '3');
});

t.test('no point in time is left open: cut off, HEAD, or read to the end', async (t) => {
  const openContexts = async (): Promise<number> => {
    const stats = await target.client.nodes.stats({ metric: 'indices', index_metric: 'search' });
    return Object.values(stats.nodes).reduce((n, node) => n + (node.indices?.search?.open_contexts ?? 0), 0);
  };
  const before = await openContexts();
  // Twenty of each: a leak would hold 60 contexts for the two minutes of their keep-alive; other
  // tests running beside this one hold a few for a moment.
  for (let i = 0; i < 20; i += 1) {
    await exportCut('/export/transactions', 3);
    const head = await fetch(`${base}/export/objects`, { method: 'HEAD' });
    t.equal(head.status, 200);
    await exportAll('/export/ledgers');
  }
  let after = await openContexts();
  for (let tries = 0; tries < 50 && after >= before + 10; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    after = await openContexts();
  }
  t.ok(after < before + 10, `open search contexts: ${before} before, ${after} after 60 exports`);
  const badHead = await fetch(`${base}/export/ledgers?cursor=nope`, { method: 'HEAD' });
  t.equal(badHead.status, 400, 'HEAD checks the request too');
});
