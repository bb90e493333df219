import t from 'tap';
import { checkFields, closestFields, fieldReferences, searchableFields } from '../../src/dsl-fields.js';

const fields = searchableFields({
  Account: { type: 'keyword' },
  Amount: { properties: { value: { type: 'keyword' }, _value: { type: 'double' } } },
  Memo: { type: 'text', fields: { keyword: { type: 'keyword' } } },
  AuctionSlot: { type: 'flattened' },
  _exchanges: { type: 'nested', properties: { token: { type: 'keyword' } } },
  meta: { properties: { AffectedNodes: { type: 'object', enabled: false }, _objects: { type: 'keyword' } } },
});

t.test('the searchable names of a mapping', async (t) => {
  for (const name of ['Account', 'Amount', 'Amount._value', 'Memo.keyword', '_exchanges', '_exchanges.token', 'meta'])
    t.ok(fields.names.has(name), name);
  t.notOk(fields.names.has('meta.AffectedNodes'), 'a disabled object is not searchable');
  t.same(fields.storedOnly, ['meta.AffectedNodes']);
  t.same(fields.flattened, ['AuctionSlot']);
});

t.test('every place a body names a field', async (t) => {
  const refs = fieldReferences({
    query: {
      bool: {
        must: [{ match: { Memo: 'x' } }, { multi_match: { query: 'x', fields: ['Memo^2', 'Account'] } }],
        filter: { nested: { path: '_exchanges', query: { term: { '_exchanges.token': 'A' } } } },
        should: [{ constant_score: { filter: { exists: { field: 'Amount' } } } }],
      },
    },
    post_filter: { terms: { Account: ['a'], boost: 2 } },
    sort: ['Account', { 'Amount._value': { order: 'desc' } }],
    aggs: {
      f: { filter: { term: { 'meta._objects': 'B' } }, aggs: { top: { top_hits: { sort: [{ Account: 'asc' }] } } } },
    },
    collapse: { field: 'Account' },
    fields: ['Amount.value', { field: 'Account' }],
  });
  t.same(
    refs.map((r) => r.field),
    [
      'Memo',
      'Memo',
      'Account',
      '_exchanges',
      '_exchanges.token',
      'Amount',
      'Account',
      'Account',
      'Amount._value',
      'meta._objects',
      'Account',
      'Account',
      'Amount.value',
      'Account',
    ],
  );
  t.equal(refs[2]?.path, '$.query.bool.must[1].multi_match.fields[1]');
});

t.test('unknown fields are refused with the closest names; known ones pass', async (t) => {
  t.doesNotThrow(() => checkFields({ query: { term: { 'AuctionSlot.Account': 'r' } } }, 't', fields), 'flattened');
  t.doesNotThrow(() => checkFields({ query: { exists: { field: 'Amo*' } } }, 't', fields), 'a pattern');
  t.throws(() => checkFields({ query: { term: { Acount: 'r' } } }, 'transactions', fields), {
    code: 'INVALID_QUERY',
    status: 400,
    details: { path: '$.query.term.Acount', field: 'Acount', closest: ['Account', 'Amount'] },
  });
  t.throws(() => checkFields({ query: { term: { 'meta.AffectedNodes.X': 'r' } } }, 'transactions', fields), {
    code: 'INVALID_QUERY',
    details: { stored_only: 'meta.AffectedNodes' },
  });
  t.same(closestFields('FinalFields.Account', fields)[0], 'Account', 'by the last segment');
  t.same(closestFields('zzzzzzzzzz', fields), [], 'nothing close: no guess');
});

t.test('_index and _tier are refused wherever a body names them', async (t) => {
  for (const body of [
    { aggs: { where: { terms: { field: '_index' } } } },
    { sort: [{ _index: 'asc' }] },
    { query: { exists: { field: '_tier' } } },
    { collapse: { field: '_index' } },
  ])
    t.throws(
      () => checkFields(body, 'transactions', fields),
      { code: 'FORBIDDEN_QUERY', status: 400 },
      JSON.stringify(body),
    );
  t.doesNotThrow(
    () => checkFields({ sort: [{ _id: 'asc' }, { _score: 'desc' }] }, 'transactions', fields),
    '_id and _score stay',
  );
});
