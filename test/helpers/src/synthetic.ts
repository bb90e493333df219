import { createHash } from 'node:crypto';
import { decodeAccountID, encodeAccountID, isValidClassicAddress } from 'ripple-address-codec';
import { encode } from 'ripple-binary-codec';
import { hashes } from 'xrpl';
import { asRippledJson, type Json, type LedgerInput } from '@xle/documents';

/**
 * Deterministic synthetic ledgers at any size, made from the real fixture ledgers, for the scale
 * benchmark and the backfill tests: every transaction is a real mainnet transaction (fields and
 * metadata) with its accounts redrawn from a large pool, so documents keep their real size and
 * shape while the data set grows without bound. What stays consistent:
 *
 * - ledgers: fresh consecutive indices from `startLedger`, close times 4 s apart, total coins
 *   that fall by the fees burnt, and the hashes rippled would give them: `transaction_hash` is the
 *   root of the transaction tree (each transaction's binary form and metadata), `ledger_hash` the
 *   hash of the header, chained through `parent_hash`, so they pass the ingester's checks (only
 *   `account_hash` is made up: there is no state tree);
 * - transactions: their own hash (of the binary transaction, as rippled computes it),
 *   `TransactionIndex` in ledger order, `LastLedgerSequence` a few ledgers ahead, and per-account
 *   `Sequence` numbers that count up with no gap (the sender's AccountRoot in the metadata moves
 *   from `Sequence` to `Sequence + 1`);
 * - ledger objects: an AccountRoot's id is the real keylet of its (new) account, and its
 *   `PreviousTxnID`/`PreviousTxnLgrSeq` name the transaction that touched it before; any other
 *   object gets an id derived from its template id and the accounts it holds, so the same trust
 *   line or offer touched twice keeps one id (with `objectSlots`, one of that many ids per
 *   template object, so the state levels off);
 * - accounts: drawn from a pool with a Zipf skew (a few accounts send most transactions, most send
 *   few), one heavy account (an exchange's hot wallet) sending `heavyShare` of all transactions,
 *   a brand-new account wherever the template created one, and accounts created earlier coming
 *   back (`revisit`), as new accounts do on the ledger; token issuers and AMM accounts keep their
 *   real addresses, so tokens and pools stay few, as on mainnet.
 */
export interface SyntheticOptions {
  /** Transactions to generate in all. */
  transactions: number;
  /** First ledger index (default 200,000,000: far from every real fixture ledger). */
  startLedger?: number;
  /** Mean transactions per ledger (default 50); each ledger holds from half to 1.5 times that. */
  perLedger?: number;
  /** Accounts in the pool (default one per 20 transactions, at least 1,000). */
  accounts?: number;
  /** Zipf exponent of account popularity (default 1.1). */
  skew?: number;
  /** Share of transactions sent by the heavy account (default 0.22). */
  heavyShare?: number;
  /** Seed of every draw and hash (default "xle"): the same options give the same ledgers. */
  seed?: string;
  /** Share of drawn accounts taken among those created earlier in the set (default 0.1). */
  revisit?: number;
  /**
   * Real transaction, tree and ledger hashes (default true). They cost about 6 ms of CPU per
   * transaction (ripple-binary-codec encodes each transaction and its metadata), so a benchmark
   * that feeds the pipeline directly, with no source that checks them, turns them off: ledgers
   * then get distinct made-up hashes, still chained through `parent_hash`.
   */
  hashed?: boolean;
  /**
   * Seconds between two ledgers' close times (default 4, mainnet's pace). A benchmark that wants
   * its history to span months without generating months of ledgers spaces them wider.
   */
  closeSeconds?: number;
  /**
   * Ledger indices from one generated ledger to the next (default 1). A test that wants a history
   * in many range indices without generating every ledger between them spaces them wider.
   */
  ledgerStride?: number;
  /**
   * Ids each template's ledger object (any but an AccountRoot) may take (default: no bound, one per
   * set of accounts it holds). Unbounded, every new holder makes a new object that no later
   * transaction deletes, so the ledger state grows with the history; mainnet's does not (offers
   * are consumed, lines and directories reused). Bounded, the holders' set is hashed to one of
   * this many ids: a later transaction on the same id replaces the object, and the state levels
   * off at about (template objects × objectSlots) entries, as a benchmark of history's growth
   * wants it to.
   */
  objectSlots?: number;
}

const ADDRESS = /"(r[1-9A-HJ-NP-Za-km-z]{24,34})"/g;
const ACCOUNT_ZERO = 'rrrrrrrrrrrrrrrrrrrrrhoLvTp';
/** Amount fields of a transaction whose issuer is a token issuer (kept, not redrawn). */
const AMOUNT_FIELDS = ['Amount', 'SendMax', 'DeliverMax', 'DeliverMin', 'TakerGets', 'TakerPays', 'LimitAmount'];

const sha512Half = (...parts: (string | Uint8Array)[]): Buffer => {
  const hash = createHash('sha512');
  for (const part of parts) hash.update(part);
  return hash.digest().subarray(0, 32);
};
const hex = (bytes: Buffer): string => bytes.toString('hex').toUpperCase();

/** A small fast deterministic generator (mulberry32) seeded from a string. */
function random(seed: string): () => number {
  let state = createHash('sha256').update(seed).digest().readUInt32LE(0);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One template transaction: its JSON cut at every redrawable address, and what those addresses are. */
interface Template {
  /** The JSON text between addresses: segments.length === slots.length + 1. */
  segments: string[];
  /** Which of `addresses` goes between segment i and i + 1. */
  slots: number[];
  /** Distinct redrawable addresses, the sender first when it is one. */
  addresses: string[];
  /** Addresses the template creates (a CreatedNode AccountRoot): always a brand-new account. */
  created: Set<string>;
  senderRedrawn: boolean;
  fee: bigint;
}

function walkStrings(value: unknown, visit: (key: string, s: string) => void, key = ''): void {
  if (typeof value === 'string') visit(key, value);
  else if (Array.isArray(value)) for (const item of value) walkStrings(item, visit, key);
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value as Json)) walkStrings(v, visit, k);
}

/** Addresses that keep their real value: token issuers of transaction amounts, AMM accounts, account zero. */
function fixedAddresses(transactions: readonly Json[]): Set<string> {
  const fixed = new Set([ACCOUNT_ZERO]);
  for (const tx of transactions) {
    for (const field of AMOUNT_FIELDS) {
      const amount = tx[field];
      if (amount !== null && typeof amount === 'object' && typeof (amount as Json).issuer === 'string')
        fixed.add((amount as Json).issuer as string);
    }
    for (const node of ((tx.metaData as Json | undefined)?.AffectedNodes ?? []) as Json[]) {
      const inner = Object.values(node)[0] as Json;
      const fields = (inner.FinalFields ?? inner.NewFields ?? {}) as Json;
      if (inner.LedgerEntryType === 'AccountRoot' && fields.AMMID !== undefined && typeof fields.Account === 'string')
        fixed.add(fields.Account);
    }
  }
  return fixed;
}

function makeTemplate(tx: Json, fixed: ReadonlySet<string>): Template {
  const text = JSON.stringify(tx);
  const addresses: string[] = [];
  const sender = tx.Account as string;
  if (!fixed.has(sender)) addresses.push(sender);
  const segments: string[] = [];
  const slots: number[] = [];
  let last = 0;
  for (const match of text.matchAll(ADDRESS)) {
    const address = match[1] as string;
    if (fixed.has(address) || !isValidClassicAddress(address)) continue;
    let slot = addresses.indexOf(address);
    if (slot === -1) slot = addresses.push(address) - 1;
    segments.push(text.slice(last, (match.index ?? 0) + 1));
    slots.push(slot);
    last = (match.index ?? 0) + 1 + address.length;
  }
  segments.push(text.slice(last));
  const created = new Set<string>();
  for (const node of ((tx.metaData as Json | undefined)?.AffectedNodes ?? []) as Json[]) {
    const createdNode = node.CreatedNode as Json | undefined;
    const account = (createdNode?.NewFields as Json | undefined)?.Account;
    if (createdNode?.LedgerEntryType === 'AccountRoot' && typeof account === 'string') created.add(account);
  }
  return {
    segments,
    slots,
    addresses,
    created,
    senderRedrawn: !fixed.has(sender) && !created.has(sender),
    fee: BigInt(String(tx.Fee ?? '0')),
  };
}

/** The pool: accounts by rank (rank 0 is the heavy account), made on first use. */
class AccountPool {
  private readonly addresses: string[] = [];
  private readonly rootIds: string[] = [];
  private readonly cdf: Float64Array;
  private fresh = 0;

  constructor(
    private readonly seed: string,
    readonly size: number,
    skew: number,
  ) {
    this.cdf = new Float64Array(size);
    let total = 0;
    for (let k = 0; k < size; k += 1) {
      total += 1 / (k + 1) ** skew;
      this.cdf[k] = total;
    }
    for (let k = 0; k < size; k += 1) this.cdf[k] = (this.cdf[k] as number) / total;
  }

  /** A rank drawn with the Zipf skew. */
  draw(u: number): number {
    let lo = 0;
    let hi = this.size - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.cdf[mid] as number) < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** A rank outside the Zipf pool: a newly created account. */
  newAccount(): number {
    this.fresh += 1;
    return this.size + this.fresh - 1;
  }

  /** An account created earlier (uniformly), or undefined before the first one. */
  created(u: number): number | undefined {
    return this.fresh === 0 ? undefined : this.size + Math.floor(u * this.fresh);
  }

  address(rank: number): string {
    let address = this.addresses[rank];
    if (address === undefined) {
      const id = createHash('sha256').update(`account:${this.seed}:${rank}`).digest().subarray(0, 20);
      address = encodeAccountID(id);
      this.addresses[rank] = address;
    }
    return address;
  }

  /** The AccountRoot keylet: SHA-512Half of the space key 'a' (0x0061) and the account id. */
  rootId(rank: number): string {
    let id = this.rootIds[rank];
    if (id === undefined) {
      id = hex(sha512Half(Buffer.from([0x00, 0x61]), decodeAccountID(this.address(rank))));
      this.rootIds[rank] = id;
    }
    return id;
  }
}

/**
 * The fields of a transaction's binary form: JSON answers add `DeliverMax` (API v2's name for a
 * Payment's Amount, not a field of the binary format), the hash and the metadata.
 */
function binaryFields(tx: Json): Json {
  const { metaData: _meta, hash: _hash, ...fields } = tx;
  if (fields.TransactionType === 'Payment' && fields.Amount !== undefined) delete fields.DeliverMax;
  return fields;
}

/**
 * Whether rippled's binary format can hold the transaction and its metadata (a few historical
 * answers in the fixtures carry values it cannot, such as an XRP amount of -1 in old metadata):
 * only those make templates, so every synthetic ledger has a transaction tree to hash.
 */
function encodable(tx: Json): boolean {
  try {
    encode(binaryFields(tx) as never);
    encode(tx.metaData as never);
    return true;
  } catch {
    return false;
  }
}

/**
 * The transaction's own hash (SHA-512Half of its binary form). Two draws can make the same
 * transaction (a ticketed one between the same accounts, say): the later one expires a ledger
 * later, which makes it another transaction, as it would be on the ledger.
 */
function uniqueHash(tx: Json, seen: Set<string>): string {
  const fields = binaryFields(tx);
  for (;;) {
    const hash = hashes.hashSignedTx(fields as never);
    if (!seen.has(hash)) {
      seen.add(hash);
      return hash;
    }
    fields.LastLedgerSequence = (fields.LastLedgerSequence as number) + 1;
    tx.LastLedgerSequence = fields.LastLedgerSequence;
  }
}

/** The holders' key itself, or with `slots` finite, one of that many slots it hashes to. */
function slotOf(held: string, slots: number): string {
  if (!Number.isFinite(slots)) return held;
  return String(createHash('sha256').update(held).digest().readUInt32LE(0) % slots);
}

export interface SyntheticLedgerSet extends Iterable<LedgerInput> {
  /** The heavy account's address. */
  readonly heavyAccount: string;
  /** The options in force, defaults filled in. */
  readonly options: Required<SyntheticOptions>;
}

/** Ledgers of `options.transactions` synthetic transactions made from `templates` (real ledgers). */
export function syntheticLedgers(templates: readonly LedgerInput[], options: SyntheticOptions): SyntheticLedgerSet {
  const settings: Required<SyntheticOptions> = {
    startLedger: 200_000_000,
    perLedger: 50,
    accounts: Math.max(1000, Math.round(options.transactions / 20)),
    skew: 1.1,
    heavyShare: 0.22,
    seed: 'xle',
    revisit: 0.1,
    hashed: true,
    closeSeconds: 4,
    ledgerStride: 1,
    objectSlots: Number.POSITIVE_INFINITY,
    ...options,
  };
  // Written as a current rippled writes JSON (asRippledJson), as the source gives every ledger it
  // fetches in binary: a set fed to the pipeline directly and the same set served by the replay
  // server then index the same documents.
  const sources = templates
    .flatMap((ledger) => ledger.transactions.map((tx) => asRippledJson(tx, { transaction: true })))
    .filter((tx) => tx.Account !== ACCOUNT_ZERO && tx.metaData !== undefined && (!settings.hashed || encodable(tx)));
  const fixed = fixedAddresses(sources);
  const prepared = sources.map((tx) => makeTemplate(tx, fixed));
  const last = templates.reduce((a, b) => (b.ledger_index > a.ledger_index ? b : a));
  const pool = new AccountPool(settings.seed, settings.accounts, settings.skew);

  function* generate(): Generator<LedgerInput> {
    const rand = random(settings.seed);
    const sequences = new Map<string, number>();
    const previousTx = new Map<string, { hash: string; ledger: number }>();
    let coins = BigInt(last.total_coins);
    let parent = last.ledger_hash;
    let made = 0;
    const hashesSeen = new Set<string>();
    for (let ledgerIndex = settings.startLedger; made < settings.transactions; ledgerIndex += settings.ledgerStride) {
      const count = Math.min(
        settings.transactions - made,
        Math.max(1, Math.round(settings.perLedger * (0.5 + rand()))),
      );
      const transactions: Json[] = [];
      for (let i = 0; i < count; i += 1) {
        const template = prepared[Math.floor(rand() * prepared.length)] as Template;
        const ranks = template.addresses.map((address, slot) => {
          if (template.created.has(address)) return pool.newAccount();
          if (slot === 0 && template.senderRedrawn && rand() < settings.heavyShare) return 0;
          if (rand() < settings.revisit) return pool.created(rand()) ?? pool.draw(rand());
          return pool.draw(rand());
        });
        // Two parties of one transaction are two accounts: redraw a clash as a fresh account.
        const seen = new Set<number>();
        for (let s = 0; s < ranks.length; s += 1) {
          if (seen.has(ranks[s] as number)) ranks[s] = pool.newAccount();
          seen.add(ranks[s] as number);
        }
        const mapped = ranks.map((rank) => pool.address(rank));
        let text = template.segments[0] as string;
        for (let s = 0; s < template.slots.length; s += 1)
          text += (mapped[template.slots[s] as number] as string) + (template.segments[s + 1] as string);
        const tx = JSON.parse(text) as Json;
        delete tx.hash;
        tx.LastLedgerSequence = ledgerIndex + 4;
        const meta = tx.metaData as Json;
        meta.TransactionIndex = i;
        // The sender's next sequence (a ticketed transaction, Sequence 0, uses none).
        const sender = tx.Account as string;
        let sequence: number | undefined;
        if (typeof tx.Sequence === 'number' && tx.Sequence > 0) {
          sequence = sequences.get(sender) ?? 1;
          sequences.set(sender, sequence + 1);
          tx.Sequence = sequence;
        }
        const hash = settings.hashed
          ? uniqueHash(tx, hashesSeen)
          : hex(sha512Half(`tx:${settings.seed}:${ledgerIndex}:${i}`));
        tx.hash = hash;
        const rankOf = new Map(mapped.map((address, slot) => [address, ranks[slot] as number]));
        for (const node of (meta.AffectedNodes ?? []) as Json[]) {
          const inner = Object.values(node)[0] as Json;
          const fields = (inner.FinalFields ?? inner.NewFields ?? {}) as Json;
          let id: string;
          if (inner.LedgerEntryType === 'AccountRoot' && typeof fields.Account === 'string') {
            const rank = rankOf.get(fields.Account);
            id = rank === undefined ? (inner.LedgerIndex as string) : pool.rootId(rank);
            if (fields.Account === sender && sequence !== undefined) {
              fields.Sequence = sequence + 1;
              const previous = inner.PreviousFields as Json | undefined;
              if (previous !== undefined && 'Sequence' in previous) previous.Sequence = sequence;
            }
          } else {
            const holders: string[] = [];
            walkStrings(fields, (_, s) => {
              if (rankOf.has(s)) holders.push(s);
            });
            const held = [...new Set(holders)].sort().join(',');
            id =
              holders.length === 0
                ? (inner.LedgerIndex as string)
                : hex(sha512Half(`object:${inner.LedgerIndex as string}:${slotOf(held, settings.objectSlots)}`));
          }
          inner.LedgerIndex = id;
          if ('PreviousTxnID' in inner) {
            const before = previousTx.get(id);
            if (before !== undefined) {
              inner.PreviousTxnID = before.hash;
              inner.PreviousTxnLgrSeq = before.ledger;
            }
          }
          if (inner.LedgerEntryType === 'AccountRoot') previousTx.set(id, { hash, ledger: ledgerIndex });
        }
        coins -= template.fee;
        transactions.push(tx);
      }
      made += count;
      const header = {
        ledger_index: ledgerIndex,
        parent_hash: parent,
        account_hash: hex(sha512Half(`state:${settings.seed}:${ledgerIndex}`)),
        transaction_hash: settings.hashed
          ? hashes.hashTxTree(transactions.map((tx) => ({ ...binaryFields(tx), metaData: tx.metaData })) as never)
          : hex(sha512Half(`txset:${settings.seed}:${ledgerIndex}`)),
        close_time: last.close_time + settings.closeSeconds * (ledgerIndex - settings.startLedger + 1),
        close_time_resolution: 10,
        close_flags: 0,
        parent_close_time: last.close_time + settings.closeSeconds * (ledgerIndex - settings.startLedger),
        total_coins: coins.toString(),
      };
      const ledgerHash = settings.hashed
        ? hashes.hashLedgerHeader(header as never)
        : hex(sha512Half(`ledger:${settings.seed}:${ledgerIndex}`));
      yield { ...header, ledger_hash: ledgerHash, transactions };
      parent = ledgerHash;
    }
  }

  return {
    heavyAccount: pool.address(0),
    options: settings,
    [Symbol.iterator]: generate,
  };
}
