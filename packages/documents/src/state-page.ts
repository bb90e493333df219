import { DEFAULT_DEFINITIONS } from 'ripple-binary-codec';
import { decode } from 'xrpl';
import { isRecord, type Json } from './json.js';
import { LedgerShapeError } from './ledger-input.js';

/** One page of state: the ledger it belongs to and its entries. */
export interface StatePage {
  ledger_index: number;
  ledger_hash?: string;
  entries: Json[];
  /** `ledger_data` paging: present when more pages follow. */
  marker?: string;
  /** True for a dump that holds the whole state (accountState). */
  whole: boolean;
}

function toIndex(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
}

/**
 * The codec writes UInt64 fields (OwnerNode, LowNode, BookNode, ...) as 16 hex digits; rippled's
 * JSON writes them in lower case without leading zeros ("0", "2a"). Decoded entries are made to read as rippled's
 * JSON does, so a binary and a JSON snapshot index the same documents. The codec's base-10 fields
 * (MPT amounts) are left as they are.
 */
function rippledUInt64(fields: Json): Json {
  const definitions = DEFAULT_DEFINITIONS.field as unknown as Record<string, { type?: { name?: string } } | undefined>;
  for (const [name, value] of Object.entries(fields))
    if (typeof value === 'string' && /^[0-9A-F]{16}$/.test(value) && definitions[name]?.type?.name === 'UInt64')
      fields[name] = value.replace(/^0+(?=.)/, '').toLowerCase();
  return fields;
}

/** A state entry as JSON with its `index`: JSON entries as they are, binary ones decoded. */
export function stateEntry(raw: unknown, where: string): Json {
  if (!isRecord(raw)) throw new LedgerShapeError(`${where}: a state entry is not an object`);
  if (typeof raw.data === 'string' && typeof raw.index === 'string' && raw.LedgerEntryType === undefined) {
    let fields: Json;
    try {
      fields = decode(raw.data) as Json;
    } catch (error) {
      throw new LedgerShapeError(
        `${where}: entry ${raw.index} is not a serialized ledger entry (${(error as Error).message})`,
      );
    }
    return { ...rippledUInt64(fields), index: raw.index.toUpperCase() };
  }
  if (typeof raw.index !== 'string' || !/^[0-9A-Fa-f]{64}$/.test(raw.index) || typeof raw.LedgerEntryType !== 'string')
    throw new LedgerShapeError(`${where}: a state entry needs a 64-hex index and a LedgerEntryType`);
  return { ...raw, index: raw.index.toUpperCase() };
}

/**
 * The state in a file: a ledger with `accountState` (in any envelope the ledger reader accepts),
 * or a `ledger_data` answer or page (`{result:{state}}`, `{state}`), whose `ledger_index` may sit
 * beside the state or in its `ledger` header.
 */
export function parseStatePage(raw: unknown, where = 'state'): StatePage {
  if (!isRecord(raw)) throw new LedgerShapeError(`${where}: not a JSON object`);
  const result = isRecord(raw.result) ? raw.result : raw;
  const ledger = isRecord(result.ledger) ? result.ledger : result;
  if (Array.isArray(ledger.accountState)) {
    const index = toIndex(ledger.ledger_index ?? ledger.seqNum);
    if (index === undefined) throw new LedgerShapeError(`${where}: the ledger has no ledger_index`);
    const hash = ledger.ledger_hash ?? ledger.hash;
    return {
      ledger_index: index,
      ...(typeof hash === 'string' ? { ledger_hash: hash.toUpperCase() } : {}),
      entries: ledger.accountState.map((e, i) => stateEntry(e, `${where} accountState[${i}]`)),
      whole: true,
    };
  }
  if (Array.isArray(result.state)) {
    const index = toIndex(result.ledger_index) ?? toIndex(ledger.ledger_index ?? ledger.seqNum);
    if (index === undefined) throw new LedgerShapeError(`${where}: the ledger_data page names no ledger_index`);
    const hash = result.ledger_hash ?? ledger.ledger_hash;
    return {
      ledger_index: index,
      ...(typeof hash === 'string' ? { ledger_hash: hash.toUpperCase() } : {}),
      entries: result.state.map((e, i) => stateEntry(e, `${where} state[${i}]`)),
      ...(typeof result.marker === 'string' ? { marker: result.marker } : {}),
      whole: false,
    };
  }
  throw new LedgerShapeError(`${where}: neither a ledger with accountState nor a ledger_data page`);
}
