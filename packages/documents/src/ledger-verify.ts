import { createHash } from 'node:crypto';
import { coreTypes, DEFAULT_DEFINITIONS, encode } from 'ripple-binary-codec';
import { isRecord, type Json } from './json.js';
import type { LedgerInput } from './ledger-input.js';

/**
 * What a ledger's own hashes say about its content:
 * - `verified`: the transactions (fields and metadata) hash to the header's `transaction_hash`,
 *   and the header hashes to `ledger_hash`;
 * - `refused`: one of them does not (`check` names which; the content is not the ledger's);
 * - `cannot-check`: something the hashes need is missing (`reason` says what); whatever could be
 *   checked did verify.
 */
export type LedgerVerification =
  | { status: 'verified' }
  | { status: 'refused'; check: 'transaction_hash' | 'ledger_hash'; reason: string }
  | { status: 'cannot-check'; reason: string };

// rippled's hash prefixes (src/libxrpl/protocol/HashPrefix.h): three letters and a zero byte.
const PREFIX_TRANSACTION_ID = '54584E00'; // "TXN\0": a transaction's id
const PREFIX_TX_NODE = '534E4400'; // "SND\0": a leaf of the transaction tree (tx + meta)
const PREFIX_INNER_NODE = '4D494E00'; // "MIN\0": an inner node of a SHAMap
const PREFIX_LEDGER = '4C575200'; // "LWR\0": a ledger header
const ZERO_HASH = '0'.repeat(64);

/** SHA-512Half: the first 256 bits of SHA-512, XRPL's hash of everything. */
function sha512Half(hex: string): string {
  return createHash('sha512').update(Buffer.from(hex, 'hex')).digest('hex').slice(0, 64).toUpperCase();
}

/** The length prefix of a variable-length field (XRPL binary format: 1, 2 or 3 bytes). */
function lengthPrefixed(hex: string): string {
  const length = hex.length / 2;
  let prefix: number[];
  if (length <= 192) prefix = [length];
  else if (length <= 12480) prefix = [193 + ((length - 193) >>> 8), (length - 193) & 0xff];
  else prefix = [241 + ((length - 12481) >>> 16), ((length - 12481) >>> 8) & 0xff, (length - 12481) & 0xff];
  return Buffer.from(prefix).toString('hex').toUpperCase() + hex;
}

interface TreeNode {
  /** A leaf: its key (the transaction id) and its hash. */
  leaf?: { key: string; hash: string };
  /** An inner node: up to 16 children, by the key's nibble at this depth. */
  children?: (TreeNode | undefined)[];
}

function insert(node: TreeNode, key: string, hash: string, depth: number): void {
  const children = (node.children ??= new Array<TreeNode | undefined>(16).fill(undefined));
  const slot = parseInt(key.charAt(depth), 16);
  const existing = children[slot];
  if (existing === undefined) {
    children[slot] = { leaf: { key, hash } };
  } else if (existing.leaf !== undefined) {
    if (existing.leaf.key === key) throw new Error(`transaction ${key} appears twice`);
    const inner: TreeNode = {};
    insert(inner, existing.leaf.key, existing.leaf.hash, depth + 1);
    insert(inner, key, hash, depth + 1);
    children[slot] = inner;
  } else {
    insert(existing, key, hash, depth + 1);
  }
}

function nodeHash(node: TreeNode | undefined): string {
  if (node === undefined) return ZERO_HASH;
  if (node.leaf !== undefined) return node.leaf.hash;
  const children = node.children ?? [];
  if (children.every((c) => c === undefined)) return ZERO_HASH;
  return sha512Half(PREFIX_INNER_NODE + Array.from({ length: 16 }, (_, i) => nodeHash(children[i])).join(''));
}

/**
 * The transaction fields as they are signed and hashed: without `hash`, `metaData` and rippled's
 * JSON-only additions. API v1 answers repeat a Payment's `Amount` as `DeliverMax`; API v2 answers
 * give only `DeliverMax` (rippled 2.0, `DeliverMax` is not a serialized field).
 */
function signedFields(tx: Json): Json {
  const { hash: _hash, metaData: _meta, DeliverMax, ...fields } = tx;
  if (DeliverMax !== undefined && fields.Amount === undefined) fields.Amount = DeliverMax;
  return fields;
}

const FIELDS = DEFAULT_DEFINITIONS.field as unknown as Record<string, { type?: { name?: string } } | undefined>;
const NEGATIVE_DROPS = /^-\d+$/;
/** rippled's cPositive: the bit a native amount's serialized form sets when it is not negative. */
const POSITIVE_BIT = 0x4000000000000000n;
/** The codec's Amount type: an instance given to `encode` is written as its bytes. */
const CodecAmount = coreTypes.Amount as unknown as new (bytes: Uint8Array) => object;

/**
 * A negative native amount as rippled serializes it (STAmount::add, src/libxrpl/protocol/STAmount.cpp:
 * the 62-bit magnitude, with neither the "not native" bit nor cPositive set). Metadata carries such
 * amounts (a `DeliveredAmount` of "-1" on mainnet ledger 90150378); the codec refuses them, so they
 * are handed over already encoded. Undefined for anything else.
 */
function negativeDrops(value: unknown): object | undefined {
  if (typeof value !== 'string' || !NEGATIVE_DROPS.test(value)) return undefined;
  const magnitude = -BigInt(value);
  if (magnitude <= 0n || magnitude >= POSITIVE_BIT) return undefined;
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, magnitude);
  return new CodecAmount(bytes);
}

/**
 * A copy of a transaction or its metadata ready for the codec, every amount as rippled stores it:
 * negative native amounts become their serialized form (see negativeDrops); the rest is unchanged.
 */
function asStored(value: unknown, field?: string): unknown {
  if (field !== undefined && FIELDS[field]?.type?.name === 'Amount') return negativeDrops(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => asStored(v));
  if (!isRecord(value)) return value;
  const out: Json = {};
  for (const [name, inner] of Object.entries(value)) out[name] = asStored(inner, name);
  return out;
}

/** The serialized form of a transaction's fields or of its metadata, amounts as rippled stores them. */
export function encodeAsStored(json: Json): string {
  return encode(asStored(json) as Json).toUpperCase();
}

type TreeCheck = { ok: true } | { ok: false; refused: string } | { ok: false; missing: string };

/**
 * rippled numbers a ledger's transactions 0, 1, 2 ... in the order it applied them
 * (meta.TransactionIndex): the first transaction whose position is held twice or lies past the
 * list (one is missing then), or undefined.
 */
function checkPositions(transactions: readonly Json[]): string | undefined {
  const held = new Set<number>();
  for (const tx of transactions) {
    const position = (tx.metaData as Json).TransactionIndex;
    if (typeof position !== 'number' || !Number.isInteger(position))
      return `transaction ${String(tx.hash)}: its metadata has no TransactionIndex`;
    if (held.has(position)) return `transaction ${String(tx.hash)}: position ${position} is another transaction's too`;
    held.add(position);
  }
  const count = transactions.length;
  const beyond = transactions.find((tx) => ((tx.metaData as Json).TransactionIndex as number) >= count);
  if (beyond === undefined) return undefined;
  let missing = 0;
  while (held.has(missing)) missing += 1;
  return `transaction ${String(beyond.hash)}: position ${String((beyond.metaData as Json).TransactionIndex)} of a list of ${count}: the transaction at position ${missing} is missing`;
}

/** The transaction tree (a SHAMap keyed by transaction id, each leaf tx + metadata) against its root. */
function checkTransactions(ledger: LedgerInput): TreeCheck {
  if (ledger.transaction_hash === undefined) return { ok: false, missing: 'the header has no transaction_hash' };
  const withoutMeta = ledger.transactions.filter((tx) => !isRecord(tx.metaData));
  if (withoutMeta.length > 0)
    return {
      ok: false,
      missing: `${withoutMeta.length} of ${ledger.transactions.length} transactions have no metadata (first: ${String(withoutMeta[0]?.hash)})`,
    };
  const binary = ledger.binary?.length === ledger.transactions.length ? ledger.binary : undefined;
  const root: TreeNode = {};
  for (const [i, tx] of ledger.transactions.entries()) {
    let txBlob: string;
    let metaBlob: string;
    try {
      const blobs = binary?.[i];
      txBlob = (blobs?.tx_blob ?? encodeAsStored(signedFields(tx))).toUpperCase();
      metaBlob = (blobs?.meta ?? encodeAsStored(tx.metaData as Json)).toUpperCase();
    } catch (error) {
      // What rippled keeps is binary; a JSON value that does not serialize cannot be the ledger's.
      return { ok: false, refused: `transaction ${String(tx.hash)} does not serialize: ${(error as Error).message}` };
    }
    const id = sha512Half(PREFIX_TRANSACTION_ID + txBlob);
    if (typeof tx.hash === 'string' && tx.hash.toUpperCase() !== id)
      return { ok: false, refused: `transaction ${tx.hash}: its fields hash to ${id}` };
    try {
      insert(root, id, sha512Half(PREFIX_TX_NODE + lengthPrefixed(txBlob) + lengthPrefixed(metaBlob) + id), 0);
    } catch (error) {
      return { ok: false, refused: (error as Error).message };
    }
  }
  const misplaced = checkPositions(ledger.transactions);
  if (misplaced !== undefined) return { ok: false, refused: misplaced };
  const computed = nodeHash(root);
  if (computed !== ledger.transaction_hash)
    return {
      ok: false,
      refused:
        `the ${ledger.transactions.length} transactions hash to ${computed}, the header says transaction_hash ${ledger.transaction_hash}: ` +
        `every transaction's fields hash to its own hash and their positions run from 0 without a gap, so the metadata of ` +
        `at least one is not what the ledger holds (the header's one hash cannot tell which)`,
    };
  return { ok: true };
}

const HEADER_FIELDS = [
  'account_hash',
  'transaction_hash',
  'parent_close_time',
  'close_time_resolution',
  'close_flags',
] as const;

/**
 * rippled's serialized header (what a `binary: true` answer gives as `ledger_data`): index,
 * total coins, parent hash, transaction hash, account hash, parent close time, close time, close
 * time resolution, close flags. Undefined when the header lacks one of them.
 */
export function encodeLedgerHeader(ledger: LedgerInput): string | undefined {
  if (HEADER_FIELDS.some((f) => ledger[f] === undefined) || !/^[0-9A-F]{64}$/.test(ledger.parent_hash))
    return undefined;
  const int = (value: number | bigint, bytes: number): string =>
    value
      .toString(16)
      .toUpperCase()
      .padStart(bytes * 2, '0');
  return (
    int(ledger.ledger_index, 4) +
    int(BigInt(ledger.total_coins), 8) +
    ledger.parent_hash +
    String(ledger.transaction_hash) +
    String(ledger.account_hash) +
    int(ledger.parent_close_time ?? 0, 4) +
    int(ledger.close_time, 4) +
    int(ledger.close_time_resolution ?? 0, 1) +
    int(ledger.close_flags ?? 0, 1)
  );
}

/** The header hash: SHA-512Half of "LWR\0" and the serialized header. */
export function hashLedgerHeader(ledger: LedgerInput): string | undefined {
  const header = encodeLedgerHeader(ledger);
  return header === undefined ? undefined : sha512Half(PREFIX_LEDGER + header);
}

function checkHeader(ledger: LedgerInput): TreeCheck {
  const missing: string[] = HEADER_FIELDS.filter((f) => ledger[f] === undefined);
  if (!/^[0-9A-F]{64}$/.test(ledger.parent_hash)) missing.unshift('parent_hash');
  if (missing.length > 0) return { ok: false, missing: `the header has no ${missing.join(', ')}` };
  const computed = hashLedgerHeader(ledger);
  if (computed !== ledger.ledger_hash)
    return { ok: false, refused: `the header fields hash to ${computed}, not to ledger_hash ${ledger.ledger_hash}` };
  return { ok: true };
}

/**
 * Checks a ledger against its own hashes (pure). Transactions received in binary are hashed as
 * received (their JSON is decoded from those bytes); JSON transactions are serialized again, so
 * what verifies is what the documents are built from.
 */
export function verifyLedger(ledger: LedgerInput): LedgerVerification {
  const transactions = checkTransactions(ledger);
  if ('refused' in transactions)
    return {
      status: 'refused',
      check: 'transaction_hash',
      reason: `ledger ${ledger.ledger_index}: ${transactions.refused}`,
    };
  const header = checkHeader(ledger);
  if ('refused' in header)
    return { status: 'refused', check: 'ledger_hash', reason: `ledger ${ledger.ledger_index}: ${header.refused}` };
  const missing = [
    ...('missing' in header ? [`${header.missing}: ledger_hash cannot be recomputed`] : []),
    ...('missing' in transactions ? [`${transactions.missing}: transaction_hash cannot be recomputed`] : []),
  ];
  if (missing.length === 0) return { status: 'verified' };
  const treeVerified = transactions.ok ? ' (the transactions do hash to its transaction_hash)' : '';
  return { status: 'cannot-check', reason: `ledger ${ledger.ledger_index}: ${missing.join('; ')}${treeVerified}` };
}

/**
 * Consecutive ledgers chain: ledger N+1 names ledger N's hash as its parent. Returns what breaks
 * the chain, or undefined.
 */
export function checkLedgerChain(
  previous: Pick<LedgerInput, 'ledger_index' | 'ledger_hash'>,
  next: LedgerInput,
): string | undefined {
  if (next.ledger_index !== previous.ledger_index + 1)
    return `ledger ${next.ledger_index} does not follow ledger ${previous.ledger_index}`;
  if (next.parent_hash !== previous.ledger_hash)
    return `ledger ${next.ledger_index} names parent ${next.parent_hash || '(none)'}, but ledger ${previous.ledger_index} is ${previous.ledger_hash}`;
  return undefined;
}
