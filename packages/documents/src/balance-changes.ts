import BigNumber from 'bignumber.js';
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
 * an accounting export lists fees on their own line.
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
  /** Signed exact change: positive when the account gained (XRP in XRP, not drops). */
  value: BigNumber;
  /** The balance after the change, from the account's side (XRP in XRP). */
  balance: BigNumber;
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
  const [kind, node] = Object.entries(wrapper)[0] ?? [];
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

const valueOf = (balance: unknown): string | undefined =>
  typeof balance === 'string'
    ? balance
    : isRecord(balance) && typeof balance.value === 'string'
      ? balance.value
      : undefined;

function amountOf(balance: unknown): BigNumber | undefined {
  const text = valueOf(balance);
  if (text === undefined) return undefined;
  const value = new BigNumber(text);
  return value.isFinite() ? value : undefined;
}

/**
 * The balance before and after (pure). A created entry started at zero (its NewFields leave out a
 * zero Balance); an entry whose PreviousFields do not list Balance kept it (no change).
 */
function balanceOf(sides: NodeSides): { before: BigNumber; after: BigNumber } | undefined {
  const after = amountOf(sides.final?.Balance) ?? (sides.created ? new BigNumber(0) : undefined);
  if (after === undefined) return undefined;
  const before = sides.created ? new BigNumber(0) : amountOf(sides.previous?.Balance);
  if (before === undefined) return undefined;
  return { before, after };
}

const issuerOf = (limit: unknown): string | undefined =>
  isRecord(limit) && typeof limit.issuer === 'string' ? limit.issuer : undefined;

/**
 * Every balance a transaction's metadata changed (pure), in metadata order, low side before high
 * side for a trust line. Unchanged balances are left out, except an account created with nothing
 * (an AMM account of a pool without XRP): its history starts there all the same.
 */
export function rawBalanceChanges(meta: unknown): RawBalanceChange[] {
  const out: RawBalanceChange[] = [];
  const nodes = isRecord(meta) ? meta.AffectedNodes : undefined;
  for (const wrapper of Array.isArray(nodes) ? nodes : []) {
    const sides = sidesOf(wrapper);
    if (sides === undefined) continue;
    const balance = balanceOf(sides);
    if (balance === undefined) continue;
    const delta = balance.after.minus(balance.before);
    if (sides.type === 'AccountRoot') {
      const account = sides.final?.Account;
      if (typeof account !== 'string' || (delta.isZero() && !sides.created)) continue;
      out.push({
        account,
        currency: 'XRP',
        value: delta.shiftedBy(-6),
        balance: balance.after.shiftedBy(-6),
        created: sides.created,
      });
    }
    if (sides.type === 'RippleState' && !delta.isZero()) {
      const raw = sides.final?.Balance;
      const currency = isRecord(raw) && typeof raw.currency === 'string' ? raw.currency : undefined;
      const low = issuerOf(sides.final?.LowLimit);
      const high = issuerOf(sides.final?.HighLimit);
      if (currency === undefined || low === undefined || high === undefined) continue;
      out.push({ account: low, currency, issuer: high, value: delta, balance: balance.after, created: sides.created });
      out.push({
        account: high,
        currency,
        issuer: low,
        value: delta.negated(),
        balance: balance.after.negated(),
        created: sides.created,
      });
    }
  }
  return out;
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

function assetFields(currency: string): { currency: string; currency_hex: string } {
  if (currency === 'XRP') return { currency: 'XRP', currency_hex: 'XRP' };
  return { currency: decodeCurrency(currency), currency_hex: currencyHex(currency) ?? currency.toUpperCase() };
}

/**
 * The balance-changes documents of one transaction (pure), with deterministic ids
 * (`<hash>.<position>`) so that re-ingesting writes the same documents.
 */
export function balanceChangeDocuments(source: BalanceChangeSource): Array<{ id: string; doc: BalanceChangeDoc }> {
  const meta = isRecord(source.meta) ? source.meta : {};
  const known = parties(meta);
  const transactionIndex = typeof meta.TransactionIndex === 'number' ? meta.TransactionIndex : 0;
  const sender = typeof source.Account === 'string' ? source.Account : undefined;
  const destination = typeof source.Destination === 'string' ? source.Destination : undefined;
  const fee =
    typeof source.Fee === 'string' && /^\d+$/.test(source.Fee) ? new BigNumber(source.Fee).shiftedBy(-6) : undefined;
  const common = {
    ledger_index: source.ledger_index,
    transaction_index: transactionIndex,
    hash: source.hash,
    date: source._date,
    ...(typeof source.TransactionType === 'string' ? { transaction_type: source.TransactionType } : {}),
    ...(typeof meta.TransactionResult === 'string' ? { result: meta.TransactionResult } : {}),
    ...(tagOf(source.DestinationTag) === undefined ? {} : { destination_tag: tagOf(source.DestinationTag) }),
    ...(tagOf(source.SourceTag) === undefined ? {} : { source_tag: tagOf(source.SourceTag) }),
  };
  const out: Array<{ id: string; doc: BalanceChangeDoc }> = [];
  const push = (change: RawBalanceChange, value: BigNumber, balance: BigNumber, kind: BalanceChangeKind): void => {
    const counterparty = change.account === sender ? destination : sender;
    const doc: BalanceChangeDoc = {
      account: change.account,
      ...assetFields(change.currency),
      ...(change.issuer === undefined ? {} : { issuer: change.issuer }),
      value: value.toFixed(),
      _value: value.toNumber(),
      balance: balance.toFixed(),
      _balance: balance.toNumber(),
      ...common,
      position: out.length,
      kind,
      ...(counterparty === undefined || counterparty === change.account ? {} : { counterparty }),
    };
    if (change.created && change.currency === 'XRP') doc.history_start = true;
    out.push({ id: `${source.hash}.${out.length}`, doc });
  };
  for (const change of rawBalanceChanges(meta)) {
    const kind = balanceChangeKind(change.account, source, known);
    if (change.currency === 'XRP' && change.account === sender && fee !== undefined && !fee.isZero()) {
      // The fee first, then what the transaction itself moved (nothing for most failed ones).
      const rest = change.value.plus(fee);
      push(change, fee.negated(), change.balance.minus(rest), 'fee');
      if (!rest.isZero()) push(change, rest, change.balance, kind);
      continue;
    }
    push(change, change.value, change.balance, kind);
  }
  return out;
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
    balance: BigNumber,
    side: string,
  ): { id: string; doc: BalanceChangeDoc } => ({
    id: `${ledgerIndex}.${id}.${side}`,
    doc: {
      account,
      ...assetFields(currency),
      ...(issuer === undefined ? {} : { issuer }),
      value: balance.toFixed(),
      _value: balance.toNumber(),
      balance: balance.toFixed(),
      _balance: balance.toNumber(),
      ledger_index: ledgerIndex,
      // After every transaction of the ledger: the snapshot is the state at its end.
      transaction_index: 0xffff,
      position: side === 'H' ? 1 : 0,
      ...(date === undefined ? {} : { date }),
      kind: 'opening',
      ...(currency === 'XRP' ? { history_start: true } : {}),
    },
  });
  if (entry.LedgerEntryType === 'AccountRoot' && typeof entry.Account === 'string') {
    const drops = amountOf(entry.Balance);
    return drops === undefined ? [] : [opening(entry.Account, 'XRP', undefined, drops.shiftedBy(-6), 'A')];
  }
  if (entry.LedgerEntryType === 'RippleState') {
    const raw = entry.Balance;
    const currency = isRecord(raw) && typeof raw.currency === 'string' ? raw.currency : undefined;
    const balance = amountOf(raw);
    const low = issuerOf(entry.LowLimit);
    const high = issuerOf(entry.HighLimit);
    if (currency === undefined || balance === undefined || low === undefined || high === undefined) return [];
    return [opening(low, currency, high, balance, 'L'), opening(high, currency, low, balance.negated(), 'H')];
  }
  return [];
}
