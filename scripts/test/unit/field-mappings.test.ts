import { readFileSync } from 'node:fs';
import t from 'tap';
import { templatesDir } from '@xle/core';
import { buildFieldComponents } from '../../src/field-mappings.js';

t.test('the committed generated components are what the generator produces', async (t) => {
  const { fields, amount } = buildFieldComponents();
  const read = (name: string): unknown => JSON.parse(readFileSync(`${templatesDir}/components/${name}.json`, 'utf8'));
  t.same(read('fields'), fields, 'run `pnpm templates:generate` and commit the result');
  t.same(read('amount'), amount, 'run `pnpm templates:generate` and commit the result');
});

t.test('field types follow the XRPL serialized types', async (t) => {
  const { fields, amount } = buildFieldComponents();
  const props = (fields.template as { mappings: { properties: Record<string, { type: string }> } }).mappings.properties;
  t.equal(props.Account?.type, 'keyword');
  t.equal(props.Sequence?.type, 'long');
  t.equal(props.Fee?.type, 'long', 'Fee stays drops');
  for (const name of ['TransactionType', 'LedgerEntryType', 'TransactionResult', 'PermissionValue']) {
    t.equal(props[name]?.type, 'keyword', `${name} is written as a name in JSON`);
  }
  t.equal(props.OwnerNode?.type, 'keyword', 'UInt64 kept exact');
  t.equal(props._MemoData, undefined, 'memo twins live inside Memos.Memo');
  const amounts = (amount.template as { mappings: { properties: Record<string, unknown> } }).mappings.properties;
  for (const name of ['Amount', 'DeliverMax', 'SendMax', 'TakerGets', 'LimitAmount', 'Asset', 'Asset2', 'LPTokenOut']) {
    t.ok(amounts[name], `${name} is an amount`);
  }
});
