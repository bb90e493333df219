import { createRequire } from 'node:module';

/**
 * Builds the engine mappings of every XRPL field from ripple-binary-codec's definitions.json, so
 * that each field the protocol knows is searchable under its own name with a type that fits its
 * serialized type. The output is committed under index-templates/components/ and a test checks
 * that it is still what this function produces (regenerate with `pnpm templates:generate`).
 */
type Mapping = Record<string, unknown>;
interface FieldInfo {
  type: string;
  isSerialized: boolean;
}
interface Definitions {
  FIELDS: [string, FieldInfo][];
}

const require = createRequire(import.meta.url);

export function loadDefinitions(): Definitions {
  return require('ripple-binary-codec/dist/enums/definitions.json') as Definitions;
}

/** The normalised amount object written by the ingester for every amount-like field. */
/** Keyword mappings of the named fields. */
const keywords = (...names: string[]): Record<string, Mapping> =>
  Object.fromEntries(names.map((name) => [name, { type: 'keyword' }]));

export const AMOUNT_OBJECT: Mapping = {
  type: 'object',
  dynamic: false,
  properties: {
    value: { type: 'keyword' },
    _value: { type: 'double' },
    // XRP in drops, exact (absent for tokens): sums and comparisons in the ledger's own unit.
    _drops: { type: 'long' },
    ...keywords('currency', '_currency', 'issuer', 'mpt_issuance_id'),
    native: { type: 'boolean' },
  },
};

/** Fields that are amounts in the API but not `Amount` in the codec, or that stay plain drops. */
const EXTRA_AMOUNT_FIELDS = ['DeliverMax'];
const PLAIN_DROPS_FIELDS = new Set(['Fee']);
/** Integers in the binary format that rippled's JSON writes as names ("Payment", "AccountRoot", ...). */
const NAMED_ENUM_FIELDS = new Set(['TransactionType', 'LedgerEntryType', 'TransactionResult', 'PermissionValue']);
/** Ripple-epoch times that also get an ISO `_` twin. */
export const TIME_FIELDS = ['Expiration', 'CancelAfter', 'FinishAfter'] as const;

const DECODED_TEXT: Mapping = {
  type: 'text',
  fields: { raw: { type: 'keyword', ignore_above: 1024 } },
};

function leafMapping(type: string): Mapping | undefined {
  switch (type) {
    // ignore_malformed: a value that is not a number is kept in _source instead of rejecting the document.
    case 'UInt8':
    case 'UInt16':
    case 'UInt32':
    case 'Int32':
      return { type: 'long', ignore_malformed: true };
    // UInt64 and Int64 are hex or decimal strings in JSON and may exceed 2^53: keep them exact.
    case 'UInt64':
    case 'Int64':
    case 'Number':
    case 'AccountID':
    case 'Currency':
    case 'Hash128':
    case 'Hash160':
    case 'Hash192':
    case 'Hash256':
    case 'Vector256':
      return { type: 'keyword' };
    case 'Blob':
      return { type: 'keyword', ignore_above: 8191 };
    case 'PathSet':
      return { type: 'object', dynamic: false, properties: keywords('account', 'currency', 'issuer') };
    // Nested objects and arrays have open-ended contents: one flattened field each, searchable
    // by `Field.Inner.Key`, which can never add mappings however their contents change.
    case 'STObject':
    case 'STArray':
    case 'XChainBridge':
      return { type: 'flattened', depth_limit: 20, ignore_above: 8191 };
    default:
      return undefined;
  }
}

function sortKeys(record: Record<string, Mapping>): Record<string, Mapping> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Memos are searched as text, so they get a real object mapping instead of a flattened one. */
function memosMapping(): Mapping {
  const memo: Record<string, Mapping> = {};
  for (const name of ['MemoType', 'MemoData', 'MemoFormat']) {
    memo[name] = { type: 'keyword', ignore_above: 8191 };
    memo[`_${name}`] = DECODED_TEXT;
  }
  return {
    type: 'object',
    dynamic: false,
    properties: { Memo: { type: 'object', dynamic: false, properties: sortKeys(memo) } },
  };
}

export interface GeneratedComponents {
  fields: Mapping;
  amount: Mapping;
}

export function buildFieldComponents(definitions: Definitions = loadDefinitions()): GeneratedComponents {
  const fields: Record<string, Mapping> = {};
  const amounts: Record<string, Mapping> = {};
  for (const [name, info] of definitions.FIELDS) {
    if (!info.isSerialized) continue;
    if (PLAIN_DROPS_FIELDS.has(name)) {
      fields[name] = { type: 'long', ignore_malformed: true };
      continue;
    }
    if (NAMED_ENUM_FIELDS.has(name)) {
      fields[name] = { type: 'keyword' };
      continue;
    }
    if (info.type === 'Amount' || info.type === 'Issue') {
      amounts[name] = AMOUNT_OBJECT;
      continue;
    }
    const mapping = leafMapping(info.type);
    if (mapping !== undefined) fields[name] = mapping;
  }
  for (const name of EXTRA_AMOUNT_FIELDS) amounts[name] = AMOUNT_OBJECT;
  fields.Memos = memosMapping();
  for (const name of ['Domain', 'URI']) fields[`_${name}`] = DECODED_TEXT;
  for (const name of TIME_FIELDS) fields[`_${name}`] = { type: 'date' };
  // The metadata's delivered amounts share the amount shape.
  amounts.meta = {
    type: 'object',
    dynamic: false,
    properties: { delivered_amount: AMOUNT_OBJECT, DeliveredAmount: AMOUNT_OBJECT },
  };

  return {
    fields: {
      _meta: {
        description: 'Every serialized XRPL field, typed from ripple-binary-codec definitions.json. Generated.',
      },
      template: { mappings: { properties: sortKeys(fields) } },
    },
    amount: {
      _meta: {
        description:
          'The normalised amount object (value exact, _value double, _drops for XRP, currency, _currency, issuer, native) at every amount-like field. Generated.',
      },
      template: { mappings: { properties: sortKeys(amounts) } },
    },
  };
}
