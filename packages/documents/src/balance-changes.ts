import BigNumber from 'bignumber.js';
import { dropsToXrpString } from './amount.js';
import { decodeCurrency } from './currency.js';
import { isRecord, type Json } from './json.js';
import { rippleTimeToIso } from './time.js';
import { currencyHex } from './tokens.js';

/**
 * Balance changes: what each account gained or lost in each transaction, one document per
 * (account, asset, transaction), read from the metadata's AffectedNodes the way xrpl.js
 * `getBalanceChanges` reads it (https://js.xrpl.org/functions/getBalanceChanges.html):
 * - AccountRoot: the XRP Balance's change (the sender's includes the fee it burnt);
 * - RippleState: the Balance is the low account's view (positive: the high account owes the low
 *   one), so the low account changes by the difference against the high account as issuer, and
 *   the high account by its opposite against the low one. Balance.issuer on a trust line is a
 *   neutral account (ACCOUNT_ONE): the sides are the LowLimit and HighLimit issuers.
 * The sender's XRP change is split in two: the fee, then the rest (the sum is xrpl.js's change), so
 * an accounting export lists fees on their own line. Besides the changes, one marker per ledger
 * (`kind: ledger`, no account) says the data set holds that ledger: balances are exact only over
 * ledgers it holds, which ranges indexed before it existed do not until they are filled.
 */

/** Why a balance changed, from the account's side of the transaction. */
export const BALANCE_CHANGE_KINDS = [
  'fee',
  'sent',
  'received',
  'dex_trade',
  'rippling',
  'amm_swap',
  'amm_deposit',
  'amm_withdraw',
  'amm_bid',
  'escrow',
  'payment_channel',
  'check',
  'nft_sale',
  'trust_line',
  'clawback',
  'account_delete',
  'opening',
  'other',
] as const;
export type BalanceChangeKind = (typeof BALANCE_CHANGE_KINDS)[number];

/** One account's change of one asset, as the metadata gives it (before documents are made). */
export interface RawBalanceChange {
  account: string;
  /** `XRP`, or the currency as the ledger writes it (3 characters or 40 hex). */
  currency: string;
  /** The other side of the trust line (absent for XRP). */
  issuer?: string;
  /** Signed exact change, a decimal string: positive when the account gained (XRP in XRP, not drops). */
  value: string;
  /** The balance after the change, from the account's side (XRP in XRP). */
  balance: string;
  /** For XRP, the same two in drops (exact integers, for the fee's split). */
  drops?: { value: bigint; balance: bigint };
  /** The entry was created by this transaction (an account's or a trust line's first balance). */
  created: boolean;
}

type Fields = Record<string, unknown> | undefined;

interface NodeSides {
  type: unknown;
  final: Fields;
  previous: Fields;
  created: boolean;
}

function sidesOf(wrapper: unknown): NodeSides | undefined {
  if (!isRecord(wrapper)) return undefined;
  // One key: CreatedNode, ModifiedNode or DeletedNode.
  for (const kind in wrapper) {
    const node = wrapper[kind];
    if (!isRecord(node)) return undefined;
    const fields = (name: string): Fields => (isRecord(node[name]) ? (node[name] as Json) : undefined);
    if (kind === 'CreatedNode')
      return { type: node.LedgerEntryType, final: fields('NewFields'), previous: undefined, created: true };
    return {
      type: node.LedgerEntryType,
      final: fields('FinalFields'),
      previous: fields('PreviousFields'),
      created: false,
    };
  }
  return undefined;
}

const INTEGER = /^-?\d+$/;

/** Drops of an AccountRoot's Balance, or undefined when it is not an integer string. */
const dropsOf = (balance: unknown): bigint | undefined =>
  typeof balance === 'string' && INTEGER.test(balance) ? BigInt(balance) : undefined;

/** A trust line's Balance value as an exact decimal, or undefined. */
function lineValueOf(balance: unknown): BigNumber | undefined {
  const text = isRecord(balance) && typeof balance.value === 'string' ? balance.value : undefined;
  if (text === undefined) return undefined;
  const value = new BigNumber(text);
  return value.isFinite() ? value : undefined;
}

const dropsText = (drops: bigint): string => dropsToXrpString(drops.toString());

const issuerOf = (limit: unknown): string | undefined =>
  isRecord(limit) && typeof limit.issuer === 'string' ? limit.issuer : undefined;

/**
 * Every balance a transaction's metadata changed (pure), in metadata order, low side before high
 * side for a trust line. Unchanged balances are left out, except an account created with nothing
 * (an AMM account of a pool without XRP): its history starts there all the same. A created entry
 * started at zero (its NewFields leave out a zero Balance); an entry whose PreviousFields do not
 * list Balance kept it. XRP is computed in integer drops, tokens in exact decimals. The XRP of
 * `payer` (the sender, whose fee is split out) is kept even when unchanged: a fee offset by XRP
 * received in the same transaction is still a fee.
 */
export function rawBalanceChanges(meta: unknown, payer?: string): RawBalanceChange[] {
  const out: RawBalanceChange[] = [];
  const nodes = isRecord(meta) ? meta.AffectedNodes : undefined;
  for (const wrapper of Array.isArray(nodes) ? nodes : []) {
    const sides = sidesOf(wrapper);
    if (sides === undefined) continue;
    if (sides.type === 'AccountRoot') {
      const account = sides.final?.Account;
      if (typeof account !== 'string') continue;
      const after = dropsOf(sides.final?.Balance) ?? (sides.created ? 0n : undefined);
      const kept = account === payer && sides.previous?.Balance === undefined ? after : undefined;
      const before = sides.created ? 0n : (dropsOf(sides.previous?.Balance) ?? kept);
      if (after === undefined || before === undefined) continue;
      const delta = after - before;
      if (delta === 0n && !sides.created && account !== payer) continue;
      out.push({
        account,
        currency: 'XRP',
        value: dropsText(delta),
        balance: dropsText(after),
        drops: { value: delta, balance: after },
        created: sides.created,
      });
    } else if (sides.type === 'RippleState') {
      const raw = sides.final?.Balance;
      const after = lineValueOf(raw) ?? (sides.created ? new BigNumber(0) : undefined);
      const before = sides.created ? new BigNumber(0) : lineValueOf(sides.previous?.Balance);
      if (after === undefined || before === undefined) continue;
      const delta = after.minus(before);
      if (delta.isZero()) continue;
      const currency = isRecord(raw) && typeof raw.currency === 'string' ? raw.currency : undefined;
      const low = issuerOf(sides.final?.LowLimit);
      const high = issuerOf(sides.final?.HighLimit);
      if (currency === undefined || low === undefined || high === undefined) continue;
      const value = delta.toFixed();
      const balance = after.toFixed();
      out.push({ account: low, currency, issuer: high, value, balance, created: sides.created });
      out.push({
        account: high,
        currency,
        issuer: low,
        value: negate(value),
        balance: negate(balance),
        created: sides.created,
      });
    }
  }
  return out;
}

/** The opposite of an exact decimal string (pure). */
function negate(text: string): string {
  if (text === '0') return text;
  return text.startsWith('-') ? text.slice(1) : `-${text}`;
}

/** One document of the balance-changes data set. */
export interface BalanceChangeDoc extends Json {
  account: string;
  /** Readable code (`XRP`, `USD`, the text of a text code, `LP` for an AMM's LP token). */
  currency: string;
  /** The 40-hex code; `XRP` for XRP. */
  currency_hex: string;
  /** The other side of the trust line; absent for XRP. */
  issuer?: string;
  /** The change, an exact decimal string (XRP in XRP). */
  value: string;
  _value: number;
  /** The balance after this change, from the account's side. */
  balance: string;
  _balance: number;
  ledger_index: number;
  transaction_index: number;
  /** Order of this change among the transaction's (the fee first). */
  position: number;
  hash?: string;
  /** ISO close time of the ledger (absent on an opening balance of a snapshot whose ledger is not indexed). */
  date?: string;
  transaction_type?: string;
  result?: string;
  kind: BalanceChangeKind;
  counterparty?: string;
  destination_tag?: number;
  source_tag?: number;
  /** This change opens the account's history: the account was created here, or a state snapshot starts here. */
  history_start?: boolean;
}

/** The transaction document fields the balance changes are made from. */
export interface BalanceChangeSource {
  hash: string;
  ledger_index: number;
  _date: string;
  TransactionType?: unknown;
  Account?: unknown;
  Destination?: unknown;
  Fee?: unknown;
  DestinationTag?: unknown;
  SourceTag?: unknown;
  meta?: unknown;
}

/** AMM accounts (their AccountRoot carries AMMID) and owners of offers crossed or removed. */
function parties(meta: Json): { amm: Set<string>; offerOwners: Set<string> } {
  const amm = new Set<string>();
  const offerOwners = new Set<string>();
  for (const wrapper of Array.isArray(meta.AffectedNodes) ? meta.AffectedNodes : []) {
    const sides = sidesOf(wrapper);
    const account = sides?.final?.Account;
    if (sides === undefined || typeof account !== 'string') continue;
    if (sides.type === 'AccountRoot' && typeof sides.final?.AMMID === 'string') amm.add(account);
    if (sides.type === 'Offer' && !sides.created) offerOwners.add(account);
  }
  return { amm, offerOwners };
}

const AMM_KINDS: Record<string, BalanceChangeKind> = {
  AMMCreate: 'amm_deposit',
  AMMDeposit: 'amm_deposit',
  AMMWithdraw: 'amm_withdraw',
  AMMDelete: 'amm_withdraw',
  AMMBid: 'amm_bid',
  AMMClawback: 'clawback',
};
const TYPE_KINDS: Record<string, BalanceChangeKind> = {
  EscrowCreate: 'escrow',
  EscrowFinish: 'escrow',
  EscrowCancel: 'escrow',
  PaymentChannelCreate: 'payment_channel',
  PaymentChannelFund: 'payment_channel',
  PaymentChannelClaim: 'payment_channel',
  CheckCash: 'check',
  NFTokenAcceptOffer: 'nft_sale',
  TrustSet: 'trust_line',
  Clawback: 'clawback',
};

/** Why `account`'s balance changed in this transaction (pure). */
export function balanceChangeKind(
  account: string,
  source: BalanceChangeSource,
  known: { amm: Set<string>; offerOwners: Set<string> },
): BalanceChangeKind {
  const type = typeof source.TransactionType === 'string' ? source.TransactionType : '';
  const sender = source.Account;
  const destination = source.Destination;
  const amm = AMM_KINDS[type];
  if (amm !== undefined) return amm;
  const fixed = TYPE_KINDS[type];
  if (fixed !== undefined) return fixed;
  if (type === 'Payment') {
    if (account === sender && account === destination) return 'dex_trade';
    if (account === sender) return 'sent';
    if (account === destination) return 'received';
    if (known.amm.has(account)) return 'amm_swap';
    return known.offerOwners.has(account) ? 'dex_trade' : 'rippling';
  }
  if (type === 'OfferCreate') return known.amm.has(account) ? 'amm_swap' : 'dex_trade';
  if (type === 'AccountDelete') return account === sender ? 'account_delete' : 'received';
  return 'other';
}

const tagOf = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;

/** The readable and 40-hex forms of each currency code seen, kept (codes repeat ledger after ledger). */
const ASSET_FORMS = new Map<string, { currency: string; currency_hex: string }>();
const ASSET_FORMS_MAX = 100_000;

function assetFields(currency: string): { currency: string; currency_hex: string } {
  if (currency === 'XRP') return { currency: 'XRP', currency_hex: 'XRP' };
  let forms = ASSET_FORMS.get(currency);
  if (forms === undefined) {
    if (ASSET_FORMS.size >= ASSET_FORMS_MAX) ASSET_FORMS.clear();
    forms = { currency: decodeCurrency(currency), currency_hex: currencyHex(currency) ?? currency.toUpperCase() };
    ASSET_FORMS.set(currency, forms);
  }
  return forms;
}

const FEE_DROPS = /^\d+$/;

/**
 * The balance-changes documents of one transaction (pure), with deterministic ids
 * (`<hash>.<position>`) so that re-ingesting writes the same documents. Built field by field (it
 * runs for every transaction of the history: no spreads, no decimal library for XRP).
 */
export function balanceChangeDocuments(source: BalanceChangeSource): Array<{ id: string; doc: BalanceChangeDoc }> {
  const meta = isRecord(source.meta) ? source.meta : {};
  const sender = typeof source.Account === 'string' ? source.Account : undefined;
  const fee = typeof source.Fee === 'string' && FEE_DROPS.test(source.Fee) ? BigInt(source.Fee) : 0n;
  const changes = rawBalanceChanges(meta, fee > 0n ? sender : undefined);
  const out: Array<{ id: string; doc: BalanceChangeDoc }> = [];
  if (changes.length === 0) return out;
  const known = parties(meta);
  const transactionIndex = typeof meta.TransactionIndex === 'number' ? meta.TransactionIndex : 0;
  const destination = typeof source.Destination === 'string' ? source.Destination : undefined;
  const type = typeof source.TransactionType === 'string' ? source.TransactionType : undefined;
  const result = typeof meta.TransactionResult === 'string' ? meta.TransactionResult : undefined;
  const destinationTag = tagOf(source.DestinationTag);
  const sourceTag = tagOf(source.SourceTag);
  const push = (change: RawBalanceChange, value: string, balance: string, kind: BalanceChangeKind): void => {
    const forms = assetFields(change.currency);
    const doc: BalanceChangeDoc = {
      account: change.account,
      currency: forms.currency,
      currency_hex: forms.currency_hex,
      value,
      _value: Number(value),
      balance,
      _balance: Number(balance),
      ledger_index: source.ledger_index,
      transaction_index: transactionIndex,
      position: out.length,
      hash: source.hash,
      date: source._date,
      kind,
    };
    if (change.issuer !== undefined) doc.issuer = change.issuer;
    if (type !== undefined) doc.transaction_type = type;
    if (result !== undefined) doc.result = result;
    const counterparty = change.account === sender ? destination : sender;
    if (counterparty !== undefined && counterparty !== change.account) doc.counterparty = counterparty;
    if (destinationTag !== undefined) doc.destination_tag = destinationTag;
    if (sourceTag !== undefined) doc.source_tag = sourceTag;
    if (change.created && change.currency === 'XRP') doc.history_start = true;
    out.push({ id: `${source.hash}.${out.length}`, doc });
  };
  for (const change of changes) {
    const kind = balanceChangeKind(change.account, source, known);
    if (change.drops !== undefined && change.account === sender && fee > 0n) {
      // The fee, then what the transaction itself moved (nothing for most failed ones).
      const rest = change.drops.value + fee;
      push(change, dropsText(-fee), dropsText(change.drops.balance - rest), 'fee');
      if (rest !== 0n) push(change, dropsText(rest), change.balance, kind);
      continue;
    }
    // An unchanged balance kept for a fee is no change of anyone else's.
    if (change.value !== '0' || change.created) push(change, change.value, change.balance, kind);
  }
  return out;
}

/** An opening's position: 48 bits of its ledger entry's id and its side (pure; below 2^53). */
export function openingPosition(entryId: string, side: string): number {
  return Number.parseInt(entryId.slice(0, 12), 16) * 2 + (side === 'H' ? 1 : 0);
}

/** The marker that says the balance-changes data set holds a ledger (one per ledger, no account). */
export interface LedgerMarkerDoc extends Json {
  kind: 'ledger';
  ledger_index: number;
  date?: string;
}

/** A ledger's marker (pure), `_id` `ledger.<index>`: written with the ledger's changes, in the same index. */
export function ledgerMarkerDocument(
  ledgerIndex: number,
  closeTime: number | undefined,
): { id: string; doc: LedgerMarkerDoc } {
  return {
    id: `ledger.${ledgerIndex}`,
    doc: {
      kind: 'ledger',
      ledger_index: ledgerIndex,
      ...(closeTime === undefined ? {} : { date: rippleTimeToIso(closeTime) }),
    },
  };
}

/** A ledger entry of a state snapshot, seen as opening balances (pure): an AccountRoot's XRP, or both sides of a trust line. */
export function openingBalanceDocuments(
  entry: Json,
  ledgerIndex: number,
  closeTime: number | undefined,
): Array<{ id: string; doc: BalanceChangeDoc }> {
  const id = typeof entry.index === 'string' ? entry.index : undefined;
  if (id === undefined) return [];
  const date = closeTime === undefined ? undefined : rippleTimeToIso(closeTime);
  const opening = (
    account: string,
    currency: string,
    issuer: string | undefined,
    balance: string,
    side: string,
  ): { id: string; doc: BalanceChangeDoc } => ({
    id: `${ledgerIndex}.${id}.${side}`,
    doc: {
      account,
      ...assetFields(currency),
      ...(issuer === undefined ? {} : { issuer }),
      value: balance,
      _value: Number(balance),
      balance,
      _balance: Number(balance),
      ledger_index: ledgerIndex,
      // After every transaction of the ledger: the snapshot is the state at its end.
      transaction_index: 0xffff,
      // Unique among the snapshot's openings (they share ledger and transaction index), so that
      // the sort on (ledger, transaction index, position) pages through them exactly once.
      position: openingPosition(id, side),
      ...(date === undefined ? {} : { date }),
      kind: 'opening',
      ...(currency === 'XRP' ? { history_start: true } : {}),
    },
  });
  if (entry.LedgerEntryType === 'AccountRoot' && typeof entry.Account === 'string') {
    const drops = dropsOf(entry.Balance);
    return drops === undefined ? [] : [opening(entry.Account, 'XRP', undefined, dropsText(drops), 'A')];
  }
  if (entry.LedgerEntryType === 'RippleState') {
    const raw = entry.Balance;
    const currency = isRecord(raw) && typeof raw.currency === 'string' ? raw.currency : undefined;
    const value = lineValueOf(raw);
    const low = issuerOf(entry.LowLimit);
    const high = issuerOf(entry.HighLimit);
    if (currency === undefined || value === undefined || low === undefined || high === undefined) return [];
    const balance = value.toFixed();
    return [opening(low, currency, high, balance, 'L'), opening(high, currency, low, negate(balance), 'H')];
  }
  return [];
}
