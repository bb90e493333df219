import BigNumber from 'bignumber.js';
import { LedgerEntry } from 'xrpl';
import { currencyHex, obligationsOf, rawEntry, type Json, type TrustLine } from '@xle/documents';
import { labelOf, type Labels } from './labels.js';

const { AccountRootFlags } = LedgerEntry;

/** The settings the account-info flags and fields mean. Pure. */
export function accountSettings(entry: Json): Json {
  const flags = typeof entry.Flags === 'number' ? entry.Flags : 0;
  const has = (flag: number): boolean => (flags & flag) !== 0;
  const settings: Json = {
    requireDestinationTag: has(AccountRootFlags.lsfRequireDestTag),
    requireAuthorization: has(AccountRootFlags.lsfRequireAuth),
    depositAuth: has(AccountRootFlags.lsfDepositAuth),
    disallowIncomingXRP: has(AccountRootFlags.lsfDisallowXRP),
    disableMasterKey: has(AccountRootFlags.lsfDisableMaster),
    noFreeze: has(AccountRootFlags.lsfNoFreeze),
    globalFreeze: has(AccountRootFlags.lsfGlobalFreeze),
    defaultRipple: has(AccountRootFlags.lsfDefaultRipple),
  };
  if (typeof entry.EmailHash === 'string') settings.emailHash = entry.EmailHash;
  if (typeof entry.MessageKey === 'string') settings.messageKey = entry.MessageKey;
  if (typeof entry._Domain === 'string') settings.domain = entry._Domain;
  if (typeof entry.TransferRate === 'number') settings.transferRate = entry.TransferRate / 1e9;
  if (typeof entry.RegularKey === 'string') settings.regularKey = entry.RegularKey;
  if (typeof entry.TickSize === 'number') settings.tickSize = entry.TickSize;
  return settings;
}

/** The spec's Account object from an accounts-index document. Pure. */
export function shapeAccount(doc: Json, labels: Labels): Json {
  // Activation fields live beside the AccountRoot fields in the document; they are not the entry's.
  const { parent: _p, initial_balance: _ib, inception: _i, tx_hash: _t, ...entry } = rawEntry(doc);
  const balance = doc.Balance as { value?: string } | undefined;
  const out: Json = {
    ...entry,
    account: entry.Account,
    sequence: entry.Sequence,
    nativeBalance: balance?.value,
    ownerCount: entry.OwnerCount,
    previousAffectingTransactionID: entry.PreviousTxnID,
    previousAffectingTransactionLedgerVersion: entry.PreviousTxnLgrSeq,
    settings: accountSettings(doc),
    accountName: labelOf(labels, entry.Account),
  };
  for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
  // The activation's fields are always there: null when the activation is not indexed.
  const activated = typeof doc.parent === 'string';
  Object.assign(out, {
    parent: activated ? doc.parent : null,
    initial_balance: activated ? Number(doc.initial_balance) : null,
    inception: activated ? (doc.inception ?? null) : null,
    ledger_index: activated ? (doc.ledger_index ?? null) : null,
    tx_hash: activated ? (doc.tx_hash ?? null) : null,
    parentName: activated ? labelOf(labels, doc.parent) : null,
  });
  return out;
}

/** The spec's activations answer: the accounts an account activated, oldest first (pure). */
export function shapeActivations(docs: readonly Json[], labels: Labels): Json {
  return {
    result: 'success',
    count: docs.length,
    accounts: docs.map((d) => ({
      account: d.Account,
      parent: d.parent,
      initial_balance: d.initial_balance,
      inception: d.inception,
      ledger_index: d.ledger_index,
      tx_hash: d.tx_hash,
      parentName: labelOf(labels, d.parent),
    })),
  };
}

/**
 * The spec's ancestry answer from the chain of account documents, the account first and its
 * oldest known ancestor last; the answer lists them oldest first (pure).
 */
export function shapeAncestry(account: string, chain: readonly Json[], labels: Labels): Json {
  const ancestry = chain
    .map((d, depth) => {
      const entry: Json = {
        account: d.Account,
        inception: d.inception ?? null,
        ledger_index: d.ledger_index ?? null,
        depth,
        accountName: labelOf(labels, d.Account),
      };
      // The oldest ancestor found has no parent and no activation transaction in the answer.
      if (typeof d.parent === 'string' && depth < chain.length - 1)
        Object.assign(entry, { parent: d.parent, tx_hash: d.tx_hash });
      return entry;
    })
    .reverse();
  const self = chain[0] ?? {};
  return {
    account,
    parent: self.parent ?? null,
    inception: self.inception ?? null,
    ledger_index: self.ledger_index ?? null,
    ancestry,
  };
}

/** Escrow entries as rippled writes them, with the creator's label (pure). */
export function shapeEscrows(entries: readonly Json[], labels: Labels): Json[] {
  return entries.map((e) => ({ ...rawEntry(e), AccountName: labelOf(labels, e.Account) }));
}

/** DepositPreauth entries as `{Account, Authorize}` (pure). */
export function shapeDepositPreauths(entries: readonly Json[]): Json[] {
  return entries.map((e) => ({ Account: e.Account, Authorize: e.Authorize }));
}

/** lsfSell on an Offer: the offer sells exactly TakerGets. */
const LSF_SELL = 0x00020000;

interface OfferAmount {
  value: string;
  currency: string;
  issuer?: string;
  _value: number;
  native?: boolean;
}

/**
 * An order's `makerExchangeRate` as ripple-lib writes it for account orders (parseAccountOrder),
 * whatever the direction: rippled's quality of the offer, the last 64 bits of its BookDirectory
 * (TakerPays / TakerGets when it was placed, XRP in drops: an exponent byte biased by 100 and a
 * 56-bit mantissa), XRP shifted to XRP (adjustQualityForXRP); an offer without a BookDirectory
 * takes TakerPays / TakerGets to 16 significant digits, half up (computeQuality). Exact decimal
 * arithmetic, written as bignumber.js writes it (exponent notation below 1e-7, as ripple-lib's)
 * (pure).
 */
export function makerExchangeRate(offer: {
  BookDirectory?: unknown;
  TakerPays: { value: string; native?: boolean };
  TakerGets: { value: string; native?: boolean };
}): string {
  const pays = offer.TakerPays;
  const gets = offer.TakerGets;
  if (typeof offer.BookDirectory === 'string' && /^[0-9A-F]{64}$/i.test(offer.BookDirectory)) {
    const shift = (pays.native === true ? -6 : 0) - (gets.native === true ? -6 : 0);
    const bits = BigInt(`0x${offer.BookDirectory.slice(-16)}`);
    const exponent = Number(bits >> 56n) - 100;
    const mantissa = bits & ((1n << 56n) - 1n);
    return new BigNumber(mantissa.toString()).shiftedBy(exponent + shift).toString();
  }
  return new BigNumber(pays.value).dividedBy(gets.value).precision(16, BigNumber.ROUND_HALF_UP).toString();
}

/** Offer entries as the spec's orders: a direction, quantity and total price, then the entry (pure). */
export function shapeOrders(entries: readonly Json[]): Json[] {
  return entries.map((e) => {
    const raw = rawEntry(e);
    const sell = ((raw.Flags as number) & LSF_SELL) !== 0;
    const gets = e.TakerGets as OfferAmount;
    const pays = e.TakerPays as OfferAmount;
    const amount = (a: OfferAmount): Json => ({
      currency: a.currency,
      value: a.value,
      ...(a.issuer === undefined ? {} : { counterparty: a.issuer }),
    });
    const [quantity, total] = sell ? [gets, pays] : [pays, gets];
    return {
      specification: { direction: sell ? 'sell' : 'buy', quantity: amount(quantity), totalPrice: amount(total) },
      properties: {
        maker: raw.Account,
        sequence: raw.Sequence,
        makerExchangeRate: makerExchangeRate({ BookDirectory: e.BookDirectory, TakerPays: pays, TakerGets: gets }),
      },
      ...raw,
    };
  });
}

/** The trust lines answer, as account_lines shows it (pure). */
export function shapeTrustLines(account: string, lines: readonly TrustLine[], ledgerIndex: number): Json {
  return { account, ledger_current_index: ledgerIndex, lines, validated: true };
}

/** The lines on which the account holds something: a positive balance (pure). */
export function heldLines(lines: readonly TrustLine[]): TrustLine[] {
  return lines.filter((l) => Number(l.balance) > 0);
}

/** Tokens the account holds (its held lines), with the issuers' labels (pure). */
export function shapeAssets(held: readonly TrustLine[], labels: Labels): Json[] {
  return held.map((l) => ({
    counterparty: l.account,
    currency: l.currency,
    value: l.balance,
    counterpartyName: labelOf(labels, l.account),
  }));
}

/**
 * The outstanding amount of one token an account issued, as a bare number: the lines of its code
 * in any form count (a 3-character code and its 40-hex form, a text code and its hex), other
 * codes never, whatever their case (pure).
 */
export function shapeObligation(lines: readonly TrustLine[], code: string): number {
  // One token, however its code is written: `CNY` and its 40-hex form are the same currency, a
  // text code and its zero-padded hex too; codes are case-sensitive (`cny` is another currency).
  const wanted = currencyHex(code);
  const matching = wanted === undefined ? [] : lines.filter((line) => currencyHex(line.currency) === wanted);
  return obligationsOf(matching)
    .reduce((sum, o) => sum.plus(o.value), new BigNumber(0))
    .toNumber();
}

/** The spec's wallet KYC answer: false when no import lists the account (pure). */
export function shapeWalletKyc(account: string, record: { kycApproved?: boolean } | undefined): Json {
  return { account, kycApproved: record?.kycApproved === true };
}
