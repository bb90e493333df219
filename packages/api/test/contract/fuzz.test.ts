import t from 'tap';
import fc from 'fast-check';
import { getJson, loadedIndices, runAllJobs, serve } from '../fixtures/serve.js';

/**
 * Schema-driven fuzzing: requests generated from the OpenAPI document itself (every operation,
 * every path and query parameter, values that match each schema and values that do not, unknown
 * parameters), against the fixture data. No request may end in a 5xx; the routes documented as
 * DATA_NOT_READY may answer exactly that 503 and nothing else.
 */
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);

interface Parameter {
  name: string;
  in: 'path' | 'query';
  schema: {
    type?: string;
    pattern?: string;
    format?: string;
    minimum?: number;
    maximum?: number;
    anyOf?: { const?: unknown }[];
    enum?: unknown[];
    examples?: string[];
  };
}
interface Operation {
  path: string;
  parameters: Parameter[];
  dataNotReady: boolean;
}

const junk = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    '',
    ' ',
    '..',
    '%',
    '%00',
    '-1',
    '0',
    '1e309',
    'NaN',
    'null',
    '[]',
    '{}',
    'r',
    'C'.repeat(16),
    'F'.repeat(64),
    'A'.repeat(5000),
    "' OR 1=1 --",
    '<script>',
    '\u0000',
  ),
  fc.integer().map(String),
  fc.double().map(String),
);

/** Values that fit the schema (weighted 4:1 over junk, so most requests reach the engine). */
function valueFor(schema: Parameter['schema']): fc.Arbitrary<string> {
  const options: fc.Arbitrary<string>[] = [];
  // The document's examples are real ids of the fixture data: they reach existing resources.
  if (schema.examples !== undefined && schema.examples.length > 0) options.push(fc.constantFrom(...schema.examples));
  if (schema.pattern !== undefined) options.push(fc.stringMatching(new RegExp(schema.pattern)));
  if (schema.format === 'xrpl-address') {
    options.push(
      fc.constantFrom(
        'rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw',
        'rvYAfWj5gh67oV6fW32ZzP3Aw4Eubs59B',
        'rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y',
        'rrrrrrrrrrrrrrrrrrrrBZbvji',
      ),
    );
    options.push(fc.stringMatching(/^r[1-9A-HJ-NP-Za-km-z]{24,34}$/));
  }
  if (schema.format === 'date-time')
    options.push(
      fc
        .date({ min: new Date('2012-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
        .map((d) => d.toISOString()),
    );
  if (schema.type === 'integer' || schema.type === 'number') {
    options.push(
      fc
        .integer({
          min: (schema.minimum ?? -1e6) - 2,
          max: Math.min((schema.maximum ?? 1e6) + 2, Number.MAX_SAFE_INTEGER),
        })
        .map(String),
    );
  }
  if (schema.type === 'boolean') options.push(fc.constantFrom('true', 'false', '1', 'yes'));
  const literals = [...(schema.anyOf ?? []).map((a) => a.const), ...(schema.enum ?? [])].filter((v) => v !== undefined);
  if (literals.length > 0) options.push(fc.constantFrom(...literals.map(String)));
  return options.length === 0
    ? junk
    : fc.oneof({ arbitrary: fc.oneof(...options), weight: 4 }, { arbitrary: junk, weight: 1 });
}

function requestFor(op: Operation): fc.Arbitrary<string> {
  const path = op.parameters.filter((p) => p.in === 'path');
  const query = op.parameters.filter((p) => p.in === 'query');
  return fc
    .record({
      path: fc.tuple(...path.map((p) => valueFor(p.schema))),
      query: fc
        .subarray(query)
        .chain((chosen) => fc.tuple(...chosen.map((p) => valueFor(p.schema).map((v) => [p.name, v] as const)))),
      // One request in twelve also carries a parameter the API does not know.
      unknown: fc.oneof(
        { arbitrary: fc.constant(null), weight: 11 },
        { arbitrary: fc.tuple(fc.stringMatching(/^[a-z_]{1,12}$/), junk), weight: 1 },
      ),
    })
    .map(({ path: values, query: pairs, unknown }) => {
      let url = op.path;
      path.forEach((p, i) => {
        url = url.replace(`{${p.name}}`, encodeURIComponent(values[i] ?? ''));
      });
      const search = new URLSearchParams();
      for (const [k, v] of pairs) search.append(k, v);
      if (unknown !== null) search.append(unknown[0], unknown[1]);
      const qs = search.toString();
      return qs === '' ? url : `${url}?${qs}`;
    });
}

t.test(`${REQUESTS} generated requests, no 5xx`, async (t) => {
  const target = await loadedIndices(t);
  // The derived data sets too, so that their routes answer (and are checked) rather than 503.
  await runAllJobs(target);
  const base = await serve(t, target);
  const origin = base.replace(/\/api\/v1$/, '');
  const doc = (await getJson(`${base}/openapi.json`)).body as {
    paths: Record<string, Record<string, { parameters: Parameter[]; description?: string }>>;
  };
  // GET operations: the mounted search routes (POST, DELETE) take bodies and have tests of their own.
  const operations: Operation[] = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => method === 'get')
      .map(([, op]) => ({
        path,
        parameters: op.parameters ?? [],
        dataNotReady: (op.description ?? '').includes('DATA_NOT_READY'),
      })),
  );
  t.ok(operations.length >= 30, `${operations.length} operations`);
  // One generator per operation, built once (building them per sample is what costs).
  const perOperation = operations.map((op) => requestFor(op).map((url) => ({ op, url })));
  const urls = fc.sample(fc.oneof(...perOperation), { numRuns: REQUESTS, seed: SEED });

  const statuses = new Map<number, number>();
  const failures: string[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < urls.length) {
      const item = urls[next];
      next += 1;
      if (item === undefined) continue;
      // A connection reset is retried once (a keep-alive socket may close as a request goes out
      // on it); a second one is a failure, with its URL.
      let response: Response;
      let text: string;
      try {
        response = await fetch(`${origin}${item.url}`).catch(() => fetch(`${origin}${item.url}`));
        text = await response.text();
      } catch (error) {
        failures.push(`no answer (${String((error as Error).cause ?? error)}) ${item.url.slice(0, 300)}`);
        continue;
      }
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      const notReady = item.op.dataNotReady && response.status === 503 && text.includes('"DATA_NOT_READY"');
      if (response.status >= 500 && !notReady) failures.push(`${response.status} ${item.url} ${text.slice(0, 200)}`);
      if (response.status >= 400 && !text.startsWith('{"error":{"code":"'))
        failures.push(`error without the shared body: ${response.status} ${item.url}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  t.equal(urls.length, REQUESTS);
  t.same(failures.slice(0, 20), [], 'no 5xx, every error in the shared body');
  t.comment(`statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`);
  t.ok((statuses.get(200) ?? 0) > REQUESTS / 20, 'a fair share of requests are valid and found');
});
