import t from 'tap';
import type { AppError } from '@xle/core';
import { checkSearchBody } from '../../src/index.js';

const refused = (body: unknown): AppError => {
  try {
    checkSearchBody(body);
  } catch (error) {
    return error as AppError;
  }
  throw new Error(`accepted: ${JSON.stringify(body).slice(0, 80)}`);
};

t.test('passing bodies come back unchanged', async (t) => {
  const body = {
    query: {
      bool: { must: [{ term: { TransactionType: 'Payment' } }], filter: [{ range: { ledger_index: { gte: 1 } } }] },
    },
    sort: [{ ledger_index: 'desc' }],
    size: 1000,
    from: 9000,
    aggs: { types: { terms: { field: 'TransactionType', size: 1000 }, aggs: { fee: { sum: { field: '_Fee' } } } } },
    _source: ['hash'],
    track_total_hits: true,
  };
  const copy = structuredClone(body);
  t.equal(checkSearchBody(body), body);
  t.same(body, copy, 'not modified');
  t.same(checkSearchBody({}), {}, 'an empty body is a match_all');
});

t.test('each refusal names the path and carries a stable code', async (t) => {
  const cases: [unknown, string, string][] = [
    [
      { query: { bool: { filter: [{ script: { script: 'x' } }] } } },
      'FORBIDDEN_QUERY',
      '$.query.bool.filter[0].script',
    ],
    [
      { aggs: { a: { terms: { field: 'x' }, aggs: { b: { bucket_script: {} } } } } },
      'FORBIDDEN_QUERY',
      '$.aggs.a.aggs.b.bucket_script',
    ],
    [{ query: { terms: { Account: { index: 'a', id: 'b', path: 'c' } } } }, 'FORBIDDEN_QUERY', '$.query.terms.Account'],
    [{ runtime_mappings: {} }, 'FORBIDDEN_QUERY', '$.runtime_mappings'],
    [{ size: 1001 }, 'QUERY_LIMIT_EXCEEDED', '$.size'],
    [{ from: 9001, size: 1000 }, 'QUERY_LIMIT_EXCEEDED', '$.from'],
    [{ size: 1.5 }, 'INVALID_QUERY', '$.size'],
    [{ aggs: { a: { terms: { field: 'x', size: 1001 } } } }, 'QUERY_LIMIT_EXCEEDED', '$.aggs.a.terms.size'],
    [
      {
        aggs: {
          a: {
            terms: { field: 'x' },
            aggs: {
              b: {
                terms: { field: 'y' },
                aggs: { c: { terms: { field: 'z' }, aggs: { d: { max: { field: 'w' } } } } },
              },
            },
          },
        },
      },
      'QUERY_LIMIT_EXCEEDED',
      '$.aggs.a.aggs.b.aggs.c.aggs',
    ],
    [{ pit: { id: 'x', keep_alive: '10m' } }, 'QUERY_LIMIT_EXCEEDED', '$.pit.keep_alive'],
    [{ pit: { id: 'x', keep_alive: 'forever' } }, 'INVALID_QUERY', '$.pit.keep_alive'],
    [{ pit: { id: 'x', index: 'y' } }, 'INVALID_QUERY', '$.pit.index'],
    [{ index: 'accounts' }, 'INVALID_QUERY', '$.index'],
    ['match_all', 'INVALID_QUERY', '$'],
  ];
  for (const [body, code, path] of cases) {
    const error = refused(body);
    t.equal(error.status, 400, path);
    t.equal(error.code, code, `${path}: ${error.message}`);
    t.same(error.details, { path }, path);
  }
});
