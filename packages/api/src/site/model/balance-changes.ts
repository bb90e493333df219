import type BigNumber from 'bignumber.js';
import { decodeCurrency, tokenId } from '@xle/documents';
import { decimal } from './format.js';

/** One balance of one account that a transaction changed. */
export interface BalanceChange {
  /** XRP, or the currency as the ledger writes it. */
  currency: string;
  /** Readable code. */
  code: string;
  /** The other side of the trust line: the issuer, seen from a holder. Absent for XRP. */
  counterparty?: string;
  /** `<currency_hex>.<counterparty>`, the token this balance is in (absent for XRP). */
  token?: string;
  /** Signed exact change: positive when the account gained. */
  value: string;
}

export interface AccountBalanceChanges {
  account: string;
  changes: BalanceChange[];
}

type Fields = Record<string, unknown> | undefined;

interface NodeSides {
  type: unknown;
  /** The balance after the transaction (0 for a deleted entry whose final fields do not say). */
  final: Fields;
  previous: Fields;
  created: boolean;
}

function sidesOf(wrapper: unknown): NodeSides | undefined {
  if (typeof wrapper !== 'object' || wrapper === null) return undefined;
  const [kind, node] = Object.entries(wrapper as Record<string, unknown>)[0] ?? [];
  if (typeof node !== 'object' || node === null) return undefined;
  const inner = node as {
    LedgerEntryType?: unknown;
    NewFields?: Fields;
    FinalFields?: Fields;
    PreviousFields?: Fields;
  };
  if (kind === 'CreatedNode')
    return { type: inner.LedgerEntryType, final: inner.NewFields, previous: undefined, created: true };
  return { type: inner.LedgerEntryType, final: inner.FinalFields, previous: inner.PreviousFields, created: false };
}

const valueOf = (balance: unknown): string | undefined =>
  typeof balance === 'string'
    ? balance
    : typeof balance === 'object' && balance !== null && typeof (balance as { value?: unknown }).value === 'string'
      ? (balance as { value: string }).value
      : undefined;

/**
 * The change of an entry's Balance: final minus previous. A created entry started at zero; an
 * entry whose PreviousFields do not list Balance kept it (pure).
 */
function balanceDelta(sides: NodeSides): BigNumber | undefined {
  const final = valueOf(sides.final?.Balance);
  if (final === undefined) return undefined;
  const previous = sides.created ? '0' : valueOf(sides.previous?.Balance);
  if (previous === undefined) return undefined;
  const before = decimal(previous);
  const after = decimal(final);
  if (before === undefined || after === undefined) return undefined;
  const delta = after.minus(before);
  return delta.isZero() ? undefined : delta;
}

const issuerOf = (limit: unknown): string | undefined =>
  typeof limit === 'object' && limit !== null && typeof (limit as { issuer?: unknown }).issuer === 'string'
    ? (limit as { issuer: string }).issuer
    : undefined;

/**
 * What each account gained or lost, read from the metadata (pure):
 * - AccountRoot: the XRP Balance's change in drops (the sender's includes the fee it burnt);
 * - RippleState: the Balance is the low account's view (positive: the high account owes the low
 *   one), so the low account changes by the difference and the high account by its opposite,
 *   each against the other as counterparty. Balance.issuer on a trust line is a neutral account
 *   (ACCOUNT_ONE): the sides are the LowLimit and HighLimit issuers.
 * Accounts appear in the order the metadata first names them; unchanged balances are left out.
 */
export function balanceChanges(meta: unknown): AccountBalanceChanges[] {
  const byAccount = new Map<string, BalanceChange[]>();
  const add = (account: string, change: BalanceChange): void => {
    const list = byAccount.get(account) ?? [];
    list.push(change);
    byAccount.set(account, list);
  };
  const nodes = (meta as { AffectedNodes?: unknown } | null)?.AffectedNodes;
  for (const wrapper of Array.isArray(nodes) ? nodes : []) {
    const sides = sidesOf(wrapper);
    if (sides === undefined) continue;
    const delta = balanceDelta(sides);
    if (delta === undefined) continue;
    if (sides.type === 'AccountRoot') {
      const account = sides.final?.Account;
      if (typeof account !== 'string') continue;
      add(account, { currency: 'XRP', code: 'XRP', value: delta.shiftedBy(-6).toFixed() });
    }
    if (sides.type === 'RippleState') {
      const balance = sides.final?.Balance as { currency?: unknown } | undefined;
      const currency = typeof balance?.currency === 'string' ? balance.currency : undefined;
      const low = issuerOf(sides.final?.LowLimit);
      const high = issuerOf(sides.final?.HighLimit);
      if (currency === undefined || low === undefined || high === undefined) continue;
      const code = decodeCurrency(currency);
      const side = (account: string, counterparty: string, value: BigNumber): void => {
        const change: BalanceChange = { currency, code, counterparty, value: value.toFixed() };
        const token = tokenId(currency, counterparty);
        if (token !== undefined) change.token = token;
        add(account, change);
      };
      side(low, high, delta);
      side(high, low, delta.negated());
    }
  }
  return [...byAccount].map(([account, changes]) => ({ account, changes }));
}
