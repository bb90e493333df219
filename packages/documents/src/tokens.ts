import BigNumber from 'bignumber.js';
import { isLpTokenCode } from './currency.js';
import { amountParts } from './exact-sum.js';
import { isRecord, type Json } from './json.js';

/**
 * Issued tokens as the tokens data set keys them: `<currency_hex>.<issuer>`, the currency always
 * in its 40-hex form, so `USD`, `usd` stored in hex and the same code written either way map to
 * one id (https://xrpl.org/docs/references/protocol/data-types/currency-formats).
 */
const HEX40 = /^[0-9A-F]{40}$/i;
const STANDARD = /^[A-Za-z0-9?!@#$%^&*<>(){}[\]|]{3}$/;

/** The 40-hex form of a currency code (3-character, 40-hex, or a 4-20 byte text code), or undefined for XRP and for strings that are not codes. */
export function currencyHex(code: string): string | undefined {
  if (HEX40.test(code)) {
    const hex = code.toUpperCase();
    return /^0+$/.test(hex) ? undefined : hex;
  }
  if (code === 'XRP') return undefined;
  if (STANDARD.test(code))
    return `${'00'.repeat(12)}${Buffer.from(code, 'latin1').toString('hex').toUpperCase()}${'00'.repeat(5)}`;
  // A longer text code is its UTF-8 bytes, zero-padded to 20 (the form wallets and tools write).
  const bytes = Buffer.from(code, 'utf8');
  if (bytes.length < 4 || bytes.length > 20 || /\s/.test(code)) return undefined;
  return Buffer.concat([bytes, Buffer.alloc(20 - bytes.length)])
    .toString('hex')
    .toUpperCase();
}

export function tokenId(currency: string, issuer: string): string | undefined {
  const hex = currencyHex(currency);
  return hex === undefined ? undefined : `${hex}.${issuer}`;
}

/** One side of a trust line seen as a holding of a token. */
export interface TrustLineSide {
  token: string;
  issuer: string;
  holder: string;
  /** What the holder holds, exact and never negative (0 for a line that only trusts). */
  holding: string;
}

const valueOf = (amount: unknown): string | undefined =>
  isRecord(amount) && typeof amount.value === 'string' ? amount.value : undefined;
const issuerOf = (amount: unknown): string | undefined =>
  isRecord(amount) && typeof amount.issuer === 'string' ? amount.issuer : undefined;

/**
 * Which account holds and which issues on a RippleState entry (raw or normalised amounts). The
 * balance is from the low account's side: positive, the low account holds what the high account
 * issued; negative, the reverse. A zero balance holds nothing, and the line is a trust line of the
 * token of the side(s) that extend a positive limit. LP tokens (held on AMM accounts' lines) are
 * not tokens of this data set: the AMM routes serve them.
 */
export function trustLineSides(entry: Json): TrustLineSide[] {
  const currency = isRecord(entry.Balance) && typeof entry.Balance.currency === 'string' ? entry.Balance.currency : '';
  const balance = valueOf(entry.Balance);
  const low = issuerOf(entry.LowLimit);
  const high = issuerOf(entry.HighLimit);
  if (balance === undefined || low === undefined || high === undefined || isLpTokenCode(currency)) return [];
  const side = (holder: string, issuer: string, holding: BigNumber): TrustLineSide[] => {
    const token = tokenId(currency, issuer);
    return token === undefined ? [] : [{ token, issuer, holder, holding: holding.toFixed() }];
  };
  const amount = new BigNumber(balance);
  if (amount.isNaN()) return [];
  if (amount.gt(0)) return side(low, high, amount);
  if (amount.lt(0)) return side(high, low, amount.negated());
  const zero = new BigNumber(0);
  return [
    ...(new BigNumber(valueOf(entry.LowLimit) ?? 0).gt(0) ? side(low, high, zero) : []),
    ...(new BigNumber(valueOf(entry.HighLimit) ?? 0).gt(0) ? side(high, low, zero) : []),
  ];
}

/**
 * Derived fields of a RippleState document: `_token` (the token id(s) the line is a trust line
 * of), `_holder`, `_holding` (the holder's balance as a double, for sorting and ranges; 0 when
 * nothing is held), and `_holding_e`, `_holding_hi`, `_holding_lo`: the balance's exact parts
 * (`amountParts`), which the supply sums (`sumOfParts`).
 */
export function trustLineFields(entry: Json): Json {
  const sides = trustLineSides(entry);
  if (sides.length === 0) return {};
  const holding = sides.find((s) => s.holding !== '0');
  // rippled never writes more than 16 significant digits; anything wider is cut as rippled's
  // canonicalisation would (toward zero) rather than dropped from the sums.
  const parts =
    holding === undefined ? undefined : amountParts(new BigNumber(holding.holding).precision(16, BigNumber.ROUND_DOWN));
  return {
    _token: sides.map((s) => s.token),
    _holder: sides.map((s) => s.holder),
    _holding: holding === undefined ? 0 : Number(holding.holding),
    ...(parts === undefined ? {} : { _holding_e: parts.e, _holding_hi: parts.hi, _holding_lo: parts.lo }),
  };
}

/** One side of one exchange, as the transactions index stores it (nested `_exchanges`). */
export interface ExchangeSide {
  /** Token id, or `XRP`. */
  token: string;
  /** Amount of `token` that changed hands (exact decimal string) and its nearest double. */
  value: string;
  _value: number;
  /** What it was exchanged for. */
  counter: string;
  counter_value: string;
  _counter_value: number;
  /** The transaction's sender, who took the offer or swapped with the pool. */
  taker: string;
  /** The offer's owner, or the AMM account. */
  maker: string;
  via: 'offer' | 'amm';
  /** Ledger index × 65,536 + transaction index: orders exchanges in time. */
  order: number;
}

interface Asset {
  token: string;
  value: BigNumber;
}

/** An amount as an asset of the exchange: XRP (drops string, or a native normalised doc) or a token. */
function assetOf(amount: unknown): Asset | undefined {
  if (typeof amount === 'string')
    return /^\d+$/.test(amount) ? { token: 'XRP', value: new BigNumber(amount).shiftedBy(-6) } : undefined;
  if (!isRecord(amount) || typeof amount.value !== 'string' || typeof amount.currency !== 'string') return undefined;
  if (amount.currency === 'XRP' && amount.issuer === undefined)
    return { token: 'XRP', value: new BigNumber(amount.value) };
  const token = typeof amount.issuer === 'string' ? tokenId(amount.currency, amount.issuer) : undefined;
  return token === undefined ? undefined : { token, value: new BigNumber(amount.value) };
}

function nodesOf(meta: Json): Array<{ kind: string; node: Json }> {
  const out: Array<{ kind: string; node: Json }> = [];
  for (const wrapper of Array.isArray(meta.AffectedNodes) ? (meta.AffectedNodes as unknown[]) : []) {
    if (!isRecord(wrapper)) continue;
    const [kind, node] = Object.entries(wrapper)[0] ?? [];
    if (kind !== undefined && isRecord(node)) out.push({ kind, node });
  }
  return out;
}

const EXCHANGING_TYPES = new Set(['Payment', 'OfferCreate']);
/** RippleState flag of the trust lines an AMM account holds its pool's tokens on. */
const LSF_AMM_NODE = 0x01000000;

/**
 * The exchanges a successful Payment or OfferCreate made, from its metadata (pure):
 * - each offer it consumed (an Offer modified or deleted with its TakerGets / TakerPays
 *   reduced): the taker received what the offer's TakerGets lost and paid what its TakerPays lost;
 * - each AMM pool it swapped with (its XRP from the AccountRoot carrying AMMID, its tokens from
 *   the lsfAMMNode trust lines it holds; one asset up and one down): the pool received one asset
 *   and paid out the other. Token/token pools show no AccountRoot change at all.
 * Each exchange is given twice, once from each asset's side, so an engine aggregation over the
 * nested `token` field sees every exchange of a token whichever side it was on. Amounts are raw
 * (drops strings or issued-currency objects) as in rippled's metadata.
 */
export function exchangesOf(tx: Json, meta: Json, order: number): ExchangeSide[] {
  if (!EXCHANGING_TYPES.has(String(tx.TransactionType)) || meta.TransactionResult !== 'tesSUCCESS') return [];
  const taker = typeof tx.Account === 'string' ? tx.Account : '';
  const sides: ExchangeSide[] = [];
  const add = (maker: string, via: ExchangeSide['via'], got: Asset, paid: Asset): void => {
    if (!got.value.gt(0) || !paid.value.gt(0) || got.token === paid.token) return;
    const side = (a: Asset, b: Asset): ExchangeSide => ({
      token: a.token,
      value: a.value.toFixed(),
      _value: a.value.toNumber(),
      counter: b.token,
      counter_value: b.value.toFixed(),
      _counter_value: b.value.toNumber(),
      taker,
      maker,
      via,
      order,
    });
    sides.push(side(got, paid), side(paid, got));
  };
  const nodes = nodesOf(meta);
  for (const { kind, node } of nodes) {
    if (node.LedgerEntryType !== 'Offer' || (kind !== 'ModifiedNode' && kind !== 'DeletedNode')) continue;
    const previous = isRecord(node.PreviousFields) ? node.PreviousFields : undefined;
    const final = isRecord(node.FinalFields) ? node.FinalFields : undefined;
    if (previous === undefined || final === undefined) continue;
    const gets = [assetOf(previous.TakerGets), assetOf(final.TakerGets)];
    const pays = [assetOf(previous.TakerPays), assetOf(final.TakerPays)];
    if (gets.some((a) => a === undefined) || pays.some((a) => a === undefined)) continue;
    const [getsBefore, getsAfter] = gets as [Asset, Asset];
    const [paysBefore, paysAfter] = pays as [Asset, Asset];
    const maker = typeof final.Account === 'string' ? final.Account : '';
    add(
      maker,
      'offer',
      { token: getsBefore.token, value: getsBefore.value.minus(getsAfter.value) },
      { token: paysBefore.token, value: paysBefore.value.minus(paysAfter.value) },
    );
  }
  // AMM pools: a pool's XRP is its AccountRoot balance (listed only when it changed), its tokens
  // sit on trust lines flagged lsfAMMNode, which it holds.
  const pools = new Map<string, Map<string, BigNumber>>();
  const movesOf = (pool: string): Map<string, BigNumber> => {
    let moves = pools.get(pool);
    if (moves === undefined) pools.set(pool, (moves = new Map()));
    return moves;
  };
  for (const { kind, node } of nodes) {
    if (kind !== 'ModifiedNode') continue;
    const final = isRecord(node.FinalFields) ? node.FinalFields : {};
    const previous = isRecord(node.PreviousFields) ? node.PreviousFields : {};
    if (node.LedgerEntryType === 'AccountRoot' && final.AMMID !== undefined && typeof final.Account === 'string') {
      const moves = movesOf(final.Account);
      if (typeof previous.Balance === 'string' && typeof final.Balance === 'string')
        moves.set('XRP', new BigNumber(final.Balance).minus(previous.Balance).shiftedBy(-6));
    }
    if (node.LedgerEntryType !== 'RippleState' || (Number(final.Flags ?? 0) & LSF_AMM_NODE) === 0) continue;
    if (valueOf(previous.Balance) === undefined) continue;
    const now = trustLineSides(final);
    const was = trustLineSides({ ...final, Balance: previous.Balance });
    const pool = (now.find((side) => side.holding !== '0') ?? was.find((side) => side.holding !== '0'))?.holder;
    if (pool === undefined) continue;
    const held = (sides: TrustLineSide[]): TrustLineSide | undefined => sides.find((side) => side.holder === pool);
    const token = held(now)?.token ?? held(was)?.token;
    if (token === undefined) continue;
    movesOf(pool).set(token, new BigNumber(held(now)?.holding ?? 0).minus(held(was)?.holding ?? 0));
  }
  for (const [pool, moves] of pools) {
    const received = [...moves].filter(([, v]) => v.gt(0));
    const paidOut = [...moves].filter(([, v]) => v.lt(0));
    if (received.length !== 1 || paidOut.length !== 1) continue;
    const [[inToken, inValue]] = received as [[string, BigNumber]];
    const [[outToken, outValue]] = paidOut as [[string, BigNumber]];
    add(pool, 'amm', { token: outToken, value: outValue.negated() }, { token: inToken, value: inValue });
  }
  return sides;
}

/**
 * The tokens whose trust lines a transaction created, changed or deleted (pure): the tokens
 * data set dates a token by the first and the last indexed transaction among these.
 */
export function tokensTouched(meta: Json): string[] {
  const found = new Set<string>();
  for (const { kind, node } of nodesOf(meta)) {
    if (node.LedgerEntryType !== 'RippleState') continue;
    const fields = kind === 'CreatedNode' ? node.NewFields : node.FinalFields;
    if (!isRecord(fields)) continue;
    const previous = isRecord(node.PreviousFields) ? node.PreviousFields : {};
    for (const side of [...trustLineSides(fields), ...trustLineSides({ ...fields, ...previous })])
      found.add(side.token);
  }
  return [...found].sort();
}
