import BigNumber from 'bignumber.js';
import { encodeNodePublic } from 'xrpl';
import { isLpTokenCode, nftPageChanges, rawBalanceChanges } from '@xle/documents';
import { amountText, amountView, formatSignificant, formatValue, sameAmount, type AmountView } from './format.js';

/**
 * A transaction's one-line human summary, as segments a view links ("rA paid rB 12.5
 * USD.rIssuer"): accounts, amounts, NFTs and amendments are segments of their own, the rest is
 * text. `summaryText` gives the plain form. Pure.
 */
export type Segment =
  | { kind: 'text'; text: string }
  | { kind: 'account'; address: string }
  /** `terms`: an amount the transaction names (a limit, an offer, what it asked for), not one that moved. */
  | { kind: 'amount'; amount: AmountView; terms?: true }
  | { kind: 'nft'; id: string }
  | { kind: 'amendment'; id: string; name?: string }
  | { kind: 'validator'; key: string };

type Tx = Record<string, unknown>;

const text = (value: string): Segment => ({ kind: 'text', text: value });
const account = (address: unknown): Segment =>
  typeof address === 'string' && address !== '' ? { kind: 'account', address } : text('an account');
const amount = (raw: unknown): Segment[] => {
  const view = amountView(raw);
  return view === undefined ? [] : [{ kind: 'amount', amount: view }];
};
/** An amount the transaction states as terms (a limit, an offer, an ask): not a balance change. */
const term = (raw: unknown): Segment[] => asTerms(amount(raw));
const asTerms = (segments: readonly Segment[]): Segment[] =>
  segments.map((s) => (s.kind === 'amount' ? { ...s, terms: true } : s));
const nft = (id: unknown): Segment[] => (typeof id === 'string' && id !== '' ? [{ kind: 'nft', id }] : []);

const flagSet = (tx: Tx, bit: number): boolean => ((Number(tx.Flags ?? 0) >>> 0) & bit) !== 0;

/** AccountSet flags (asf…), by number: what setting or clearing one turns on or off. */
const ACCOUNT_SET_FLAGS: Readonly<Record<number, string>> = {
  1: 'require destination tags',
  2: 'require authorization of trust lines',
  3: 'disallow XRP',
  4: 'master key disabled',
  5: 'track its last transaction id',
  6: 'no freeze',
  7: 'global freeze',
  8: 'default ripple',
  9: 'deposit authorization',
  10: 'an authorized NFT minter',
  12: 'block incoming NFT offers',
  13: 'block incoming checks',
  14: 'block incoming payment channels',
  15: 'block incoming trust lines',
  16: 'allow trust line clawback',
  17: 'allow trust line locking',
};

/** The NFT a transaction is about: named in its fields or metadata, or added to or taken off its pages. */
export function nftOf(tx: Tx): string | undefined {
  if (typeof tx.NFTokenID === 'string') return tx.NFTokenID;
  const meta = (tx.meta ?? {}) as Tx;
  if (typeof meta.nftoken_id === 'string') return meta.nftoken_id;
  const pages = nftPageChanges(meta);
  const changed = pages.added[0] ?? pages.removed[0];
  if (changed !== undefined) return changed;
  // An accepted offer names its NFT in the offer entry it deleted.
  for (const wrapper of Array.isArray(meta.AffectedNodes) ? (meta.AffectedNodes as Tx[]) : []) {
    const deleted = wrapper.DeletedNode as { LedgerEntryType?: string; FinalFields?: Tx } | undefined;
    if (deleted?.LedgerEntryType === 'NFTokenOffer' && typeof deleted.FinalFields?.NFTokenID === 'string')
      return deleted.FinalFields.NFTokenID;
  }
  return undefined;
}

/**
 * What a successful Payment (or AccountDelete) delivered, by rippled's own rule for
 * `delivered_amount`: the metadata's DeliveredAmount when it has one, else the Amount, unless a
 * partial payment left no DeliveredAmount (ledgers before 4594095): then it is not known (pure).
 */
export function deliveredAmount(tx: Tx): unknown {
  const meta = (tx.meta ?? {}) as Tx;
  if (meta.TransactionResult !== 'tesSUCCESS') return undefined;
  const recorded = meta.delivered_amount ?? meta.DeliveredAmount;
  if (recorded !== undefined) return recorded === 'unavailable' ? undefined : recorded;
  if (tx.TransactionType !== 'Payment' || flagSet(tx, 0x00020000)) return undefined;
  return tx.Amount;
}

/** The delivered amount when known, else the Amount the sender asked for. */
function delivered(tx: Tx): unknown {
  return deliveredAmount(tx) ?? tx.Amount;
}

/**
 * What `account` (not the sender: its fee is not split out here) received of the asset of `asset`
 * by the metadata's balance changes (its net over
 * its lines of that currency with the asset's issuer, or over all of them when it is the issuer,
 * whose obligations fell), as an amount; undefined when its balance of that asset did not rise.
 * rippled's delivered_amount is computed apart and may differ from the balances in the last digit
 * (ledger 11,000,000's EUR payment C4E56450…: 3.999999999999998 delivered, 3.999999999999999 on the line).
 */
function receivedBy(tx: Tx, account: unknown, asset: unknown): unknown {
  const view = amountView(asset);
  if (typeof account !== 'string' || view === undefined) return undefined;
  const drops = view.native;
  let total = new BigNumber(0);
  for (const change of rawBalanceChanges(tx.meta, typeof tx.Account === 'string' ? tx.Account : undefined)) {
    if (change.account !== account || change.currency !== (drops ? 'XRP' : view.currency)) continue;
    if (!drops && account !== view.issuer && change.issuer !== view.issuer) continue;
    total = total.plus(change.value);
  }
  if (!total.gt(0)) return undefined;
  return drops
    ? total.times(1e6).integerValue().toFixed()
    : { currency: view.currency, issuer: view.issuer, value: total.toFixed() };
}

/**
 * What the sender's balances did in this transaction, by the metadata (the fee left out of its
 * XRP): each asset's signed change, as amounts (pure).
 */
function senderChanges(tx: Tx): { paid: unknown[]; received: unknown[] } {
  const sender = tx.Account;
  const paid: unknown[] = [];
  const received: unknown[] = [];
  if (typeof sender !== 'string') return { paid, received };
  const fee = typeof tx.Fee === 'string' || typeof tx.Fee === 'number' ? new BigNumber(String(tx.Fee)).div(1e6) : null;
  for (const change of rawBalanceChanges(tx.meta, sender)) {
    if (change.account !== sender) continue;
    let value = new BigNumber(change.value);
    if (change.issuer === undefined && fee !== null) value = value.plus(fee);
    if (value.isZero()) continue;
    const raw =
      change.issuer === undefined
        ? value.abs().times(1e6).integerValue().toFixed()
        : { currency: change.currency, issuer: change.issuer, value: value.abs().toFixed() };
    (value.isNegative() ? paid : received).push(raw);
  }
  return { paid, received };
}

const isLp = (raw: unknown): boolean =>
  typeof raw === 'object' && raw !== null && isLpTokenCode(String((raw as Tx).currency ?? ''));

/** "10 XRP and 5 USD": amounts joined in words. */
function amountsInWords(raws: readonly unknown[]): Segment[] {
  return raws.flatMap((raw, i) => [...(i === 0 ? [] : [text(i === raws.length - 1 ? ' and ' : ', ')]), ...amount(raw)]);
}

/** Whether amounts of the asset of `target` add up to at least its value (to a billionth of it). */
function covers(amounts: readonly unknown[], target: unknown): boolean {
  const wanted = amountView(target);
  if (wanted === undefined || wanted.value === '') return false;
  const total = amounts
    .map((raw) => amountView(raw))
    .filter((a) => a !== undefined && a.currency === wanted.currency && a.issuer === wanted.issuer)
    .reduce((sum, a) => sum.plus(a?.value ?? 0), new BigNumber(0));
  return total.gte(new BigNumber(wanted.value).times(1 - 1e-9));
}

const decimalZero = (value: string): boolean => value !== '' && new BigNumber(value).isZero();

/** Whether the metadata deleted a trust line (a RippleState entry). */
function trustLineDeleted(tx: Tx): boolean {
  const meta = (tx.meta ?? {}) as Tx;
  return (Array.isArray(meta.AffectedNodes) ? (meta.AffectedNodes as Tx[]) : []).some(
    (wrapper) => (wrapper.DeletedNode as { LedgerEntryType?: string } | undefined)?.LedgerEntryType === 'RippleState',
  );
}

/** Whether the sender's offer was placed on the books (a new Offer entry of its own in the metadata). */
function offerPlaced(tx: Tx): boolean {
  const meta = (tx.meta ?? {}) as Tx;
  return (Array.isArray(meta.AffectedNodes) ? (meta.AffectedNodes as Tx[]) : []).some((wrapper) => {
    const created = wrapper.CreatedNode as { LedgerEntryType?: string; NewFields?: Tx } | undefined;
    return created?.LedgerEntryType === 'Offer' && created.NewFields?.Account === tx.Account;
  });
}

/** An offer's rate: what the taker pays per unit it gets, "at 0.5 USD per XRP" (pure). */
function offerRate(pays: unknown, gets: unknown): Segment[] {
  const p = amountView(pays);
  const g = amountView(gets);
  if (p === undefined || g === undefined || p.value === '' || g.value === '') return [];
  const per = new BigNumber(g.value);
  if (per.isZero()) return [];
  return [text(` at ${formatSignificant(new BigNumber(p.value).div(per).toFixed())} ${p.code} per ${g.code}`)];
}

/** An AMM pool's two assets, "XRP/USD.rIssuer". */
function pool(tx: Tx): Segment[] {
  return [...term(tx.Asset), text('/'), ...term(tx.Asset2)];
}

interface Phrase {
  /** What the sender did, when it succeeded. */
  done: Segment[];
  /** What it tried, when it failed (defaults to "submitted a <Type>"). */
  tried?: Segment[];
}

/** The phrase after the sender, per transaction type. */
/**
 * The phrase of each transaction type (pure), from the transaction and its metadata: a small
 * function per type, none for a type it has no words for (the summary then names the type).
 */
const PHRASES: Readonly<Record<string, (tx: Tx) => Phrase | undefined>> = {
  Payment: (tx) => {
    const partial = flagSet(tx, 0x00020000);
    if (tx.Account === tx.Destination) {
      // What moved is the sender's own balance changes (the fee apart); SendMax is only its limit.
      const { paid, received } = senderChanges(tx);
      const spent = paid.length > 0 ? amountsInWords(paid) : term(tx.SendMax ?? tx.Amount);
      // Nothing came back (ledger 90150378 has a self-payment whose DeliveredAmount is -1 drop).
      const got =
        received.length > 0 ? amountsInWords(received) : paid.length > 0 ? [text('nothing')] : term(delivered(tx));
      const max = amountView(tx.SendMax);
      const spentAll = paid.length === 1 && max !== undefined && sameAmount(amountView(paid[0]) ?? max, max);
      const limit = max === undefined || spentAll ? [] : [text(' (spending at most '), ...term(tx.SendMax), text(')')];
      return {
        done: [text('exchanged '), ...spent, text(' for '), ...got, ...limit],
        tried: [
          text('tried to exchange at most '),
          ...amount(tx.SendMax ?? tx.Amount),
          text(' for '),
          ...amount(tx.Amount),
        ],
      };
    }
    return {
      done: [
        text('paid '),
        account(tx.Destination),
        text(' '),
        // What the destination's balance gained; rippled's delivered amount when none did.
        ...(() => {
          const got = receivedBy(tx, tx.Destination, delivered(tx));
          return got === undefined ? term(delivered(tx)) : amount(got);
        })(),
        ...(partial ? [text(' (a partial payment)')] : []),
      ],
      tried: [text('tried to pay '), account(tx.Destination), text(' '), ...amount(tx.Amount)],
    };
  },
  OfferCreate: (tx) => {
    const sell = flagSet(tx, 0x00080000);
    const what = sell
      ? [text('an offer to sell '), ...term(tx.TakerGets), text(' for '), ...term(tx.TakerPays)]
      : [text('an offer to buy '), ...term(tx.TakerPays), text(' for '), ...term(tx.TakerGets)];
    const replacing =
      tx.OfferSequence === undefined ? [] : [text(`, replacing its offer #${String(tx.OfferSequence)}`)];
    // The rate the offer names; then what happened, by the metadata: traded against the books,
    // placed on them, both, or neither (an immediate-or-cancel offer that found nothing).
    const rate = sell ? offerRate(tx.TakerPays, tx.TakerGets) : offerRate(tx.TakerGets, tx.TakerPays);
    const changes = senderChanges(tx);
    const traded = changes.received.length > 0;
    const placed = offerPlaced(tx);
    // Filled in full: a sell gave all of TakerGets, a buy got all of TakerPays.
    const whole = sell ? covers(changes.paid, tx.TakerGets) : covers(changes.received, tx.TakerPays);
    // What traded is the sender's own balance changes (the fee apart), not the offer's amounts.
    const trade = traded
      ? [text(': traded '), ...amountsInWords(changes.paid), text(' for '), ...amountsInWords(changes.received)]
      : [];
    const state = traded
      ? placed
        ? ' (partly filled, the rest placed on the books)'
        : whole
          ? ' (filled)'
          : ' (partly filled, the rest cancelled)'
      : placed
        ? ' (placed on the books)'
        : ' (nothing filled, nothing placed)';
    return {
      done: [text('created '), ...what, ...rate, ...replacing, ...trade, text(state)],
      tried: [text('tried to create '), ...what],
    };
  },
  OfferCancel: (tx) => {
    return { done: [text(`cancelled its offer #${String(tx.OfferSequence)}`)] };
  },
  TrustSet: (tx) => {
    // A limit of 0 on a line left at its defaults deletes it (rippled's TrustSet.cpp): said so.
    const limit = amountView(tx.LimitAmount);
    if (limit !== undefined && decimalZero(limit.value) && trustLineDeleted(tx))
      return {
        done: [text('removed its trust line for '), ...term({ ...(tx.LimitAmount as Tx), value: undefined })],
      };
    return {
      done: [text('set a trust line of '), ...term(tx.LimitAmount)],
      tried: [text('tried to set a trust line of '), ...amount(tx.LimitAmount)],
    };
  },
  AccountSet: (tx) => {
    const set = ACCOUNT_SET_FLAGS[Number(tx.SetFlag)];
    const clear = ACCOUNT_SET_FLAGS[Number(tx.ClearFlag)];
    const parts: string[] = [];
    if (set !== undefined) parts.push(`turned on “${set}”`);
    if (clear !== undefined) parts.push(`turned off “${clear}”`);
    if (typeof tx.Domain === 'string') parts.push(tx.Domain === '' ? 'removed its domain' : 'set its domain');
    if (typeof tx.EmailHash === 'string') parts.push('set its email hash');
    if (typeof tx.MessageKey === 'string') parts.push('set its message key');
    if (tx.TransferRate !== undefined) parts.push('set its transfer rate');
    if (tx.TickSize !== undefined) parts.push('set its tick size');
    if (parts.length === 0) return undefined;
    return { done: [text(parts.join(' and '))] };
  },
  AccountDelete: (tx) => {
    return {
      done: [
        text('deleted its account and sent its remaining '),
        ...amount(delivered(tx)),
        text(' to '),
        account(tx.Destination),
      ],
      tried: [text('tried to delete its account in favour of '), account(tx.Destination)],
    };
  },
  SetRegularKey: (tx) => {
    return typeof tx.RegularKey === 'string'
      ? { done: [text('set its regular key to '), account(tx.RegularKey)] }
      : { done: [text('removed its regular key')] };
  },
  SignerListSet: (tx) => {
    const signers = Array.isArray(tx.SignerEntries) ? tx.SignerEntries.length : 0;
    return Number(tx.SignerQuorum) === 0
      ? { done: [text('removed its signer list')] }
      : { done: [text(`set a signer list of ${signers} signers with quorum ${String(tx.SignerQuorum)}`)] };
  },
  DepositPreauth: (tx) => {
    return typeof tx.Authorize === 'string'
      ? { done: [text('preauthorized '), account(tx.Authorize), text(' to pay it')] }
      : { done: [text('withdrew the preauthorization of '), account(tx.Unauthorize)] };
  },
  TicketCreate: (tx) => {
    return { done: [text(`created ${String(tx.TicketCount)} ticket${Number(tx.TicketCount) === 1 ? '' : 's'}`)] };
  },
  EscrowCreate: (tx) => {
    return {
      done: [text('escrowed '), ...amount(tx.Amount), text(' for '), account(tx.Destination)],
      tried: [text('tried to escrow '), ...amount(tx.Amount), text(' for '), account(tx.Destination)],
    };
  },
  EscrowFinish: (tx) => {
    return { done: [text(`released escrow #${String(tx.OfferSequence)} of `), account(tx.Owner)] };
  },
  EscrowCancel: (tx) => {
    return { done: [text(`cancelled escrow #${String(tx.OfferSequence)} of `), account(tx.Owner)] };
  },
  PaymentChannelCreate: (tx) => {
    return {
      done: [text('opened a payment channel to '), account(tx.Destination), text(' with '), ...amount(tx.Amount)],
      tried: [
        text('tried to open a payment channel to '),
        account(tx.Destination),
        text(' with '),
        ...amount(tx.Amount),
      ],
    };
  },
  PaymentChannelFund: (tx) => {
    return {
      done: [text('added '), ...amount(tx.Amount), text(' to a payment channel')],
      tried: [text('tried to add '), ...amount(tx.Amount), text(' to a payment channel')],
    };
  },
  PaymentChannelClaim: (tx) => {
    return {
      done: [
        text('claimed from a payment channel'),
        ...(tx.Balance === undefined ? [] : [text(', up to '), ...term(tx.Balance), text(' in all')]),
        ...(flagSet(tx, 0x00020000) ? [text(', and asked to close it')] : []),
      ],
    };
  },
  CheckCreate: (tx) => {
    return { done: [text('wrote a check to '), account(tx.Destination), text(' for up to '), ...term(tx.SendMax)] };
  },
  CheckCash: (tx) => {
    // What it received (the fee apart), not the Amount or DeliverMin it asked for.
    const { received } = senderChanges(tx);
    return {
      done: [
        text('cashed a check for '),
        ...(received.length > 0 ? amountsInWords(received) : term(tx.Amount ?? tx.DeliverMin)),
      ],
    };
  },
  CheckCancel: () => {
    return { done: [text('cancelled a check')] };
  },
  NFTokenMint: (tx) => {
    return { done: [text('minted NFT '), ...nft(nftOf(tx))], tried: [text('tried to mint an NFT')] };
  },
  NFTokenBurn: (tx) => {
    return { done: [text('burned NFT '), ...nft(tx.NFTokenID)] };
  },
  NFTokenCreateOffer: (tx) => {
    const offer = flagSet(tx, 0x00000001)
      ? [text('sell NFT '), ...nft(tx.NFTokenID), text(' for '), ...term(tx.Amount)]
      : [
          text('buy NFT '),
          ...nft(tx.NFTokenID),
          ...(typeof tx.Owner === 'string' ? [text(' from '), account(tx.Owner)] : []),
          text(' for '),
          ...term(tx.Amount),
        ];
    return { done: [text('offered to '), ...offer], tried: [text('tried to offer to '), ...offer] };
  },
  NFTokenAcceptOffer: (tx) => {
    const id = nftOf(tx);
    return {
      done: id === undefined ? [text('accepted an NFT offer')] : [text('accepted an offer for NFT '), ...nft(id)],
    };
  },
  NFTokenCancelOffer: (tx) => {
    const count = Array.isArray(tx.NFTokenOffers) ? tx.NFTokenOffers.length : 0;
    return { done: [text(`cancelled ${count} NFT offer${count === 1 ? '' : 's'}`)] };
  },
  AMMCreate: (tx) => {
    return { done: [text('created an AMM pool of '), ...amount(tx.Amount), text(' and '), ...amount(tx.Amount2)] };
  },
  AMMDeposit: (tx) => {
    // What the metadata changed, not what was asked: the assets paid in and the LP tokens received.
    const { paid, received } = senderChanges(tx);
    const lp = received.filter(isLp);
    return {
      done: [
        text('deposited '),
        ...(paid.length > 0 ? amountsInWords(paid) : [text('into')]),
        text(paid.length > 0 ? ' into the AMM pool ' : ' the AMM pool '),
        ...pool(tx),
        ...(lp.length > 0 ? [text(' and received '), ...amountsInWords(lp)] : []),
      ],
      tried: [text('tried to deposit into the AMM pool '), ...pool(tx)],
    };
  },
  AMMWithdraw: (tx) => {
    const { paid, received } = senderChanges(tx);
    const lp = paid.filter(isLp);
    const assets = received.filter((r) => !isLp(r));
    return {
      done: [
        text('withdrew '),
        ...(assets.length > 0 ? [...amountsInWords(assets), text(' from')] : [text('from')]),
        text(' the AMM pool '),
        ...pool(tx),
        ...(lp.length > 0 ? [text(', returning '), ...amountsInWords(lp)] : []),
      ],
      tried: [text('tried to withdraw from the AMM pool '), ...pool(tx)],
    };
  },
  AMMVote: (tx) => {
    return {
      done: [
        text(`voted for a trading fee of ${formatValue(Number(tx.TradingFee) / 1000)} % on the AMM pool `),
        ...pool(tx),
      ],
    };
  },
  AMMBid: (tx) => {
    return { done: [text('bid for the auction slot of the AMM pool '), ...pool(tx)] };
  },
  AMMDelete: (tx) => {
    return { done: [text('deleted the empty AMM pool '), ...pool(tx)] };
  },
  Clawback: (tx) => {
    const view = amountView(tx.Amount);
    if (view?.issuer === undefined || typeof tx.Account !== 'string') return undefined;
    // A Clawback's Amount names the holder in its issuer field; the token is the sender's own.
    const clawed = amount({ currency: view.currency, issuer: tx.Account, value: view.value });
    return { done: [text('clawed back '), ...clawed, text(' from '), account(view.issuer)] };
  },
};

function phraseOf(tx: Tx): Phrase | undefined {
  return PHRASES[String(tx.TransactionType)]?.(tx);
}

/** A validator's public key from its hex form (33 bytes) as a node public key ("n9…"), if it is one. */
function validatorKey(hex: unknown): string | undefined {
  if (typeof hex !== 'string' || !/^[0-9A-Fa-f]{66}$/.test(hex)) return undefined;
  try {
    return encodeNodePublic(Buffer.from(hex, 'hex'));
  } catch {
    return undefined;
  }
}

/** Pseudo-transactions: the network itself, not an account, is their subject. */
function pseudoSummary(tx: Tx): Segment[] | undefined {
  switch (tx.TransactionType) {
    case 'EnableAmendment': {
      const id = String(tx.Amendment);
      const name = typeof tx.AmendmentName === 'string' ? tx.AmendmentName : undefined;
      const segment: Segment = name === undefined ? { kind: 'amendment', id } : { kind: 'amendment', id, name };
      if (flagSet(tx, 0x00010000)) return [text('Amendment '), segment, text(' gained a majority of validators')];
      if (flagSet(tx, 0x00020000)) return [text('Amendment '), segment, text(' lost its majority of validators')];
      return [text('The network enabled amendment '), segment];
    }
    case 'SetFee':
      return [text('The network changed its fee and reserve settings')];
    case 'UNLModify': {
      const key = validatorKey(tx.UNLModifyValidator);
      const who: Segment[] =
        key === undefined ? [text('a validator')] : [text('validator '), { kind: 'validator', key }];
      return Number(tx.UNLModifyDisabling) === 1
        ? [text('The network put '), ...who, text(' on the negative UNL')]
        : [text('The network took '), ...who, text(' off the negative UNL')];
    }
    default:
      return undefined;
  }
}

const resultOf = (tx: Tx): string => String(((tx.meta ?? {}) as Tx).TransactionResult ?? '');

/**
 * The summary of one transaction: "<sender> <what it did>", "<sender> tried to <…> (failed:
 * tecPATH_DRY)" when it did not succeed, a sentence about the network for pseudo-transactions,
 * and "<sender> submitted a <Type>" for types without a phrase of their own (pure).
 */
export function summarize(tx: Tx): Segment[] {
  const pseudo = pseudoSummary(tx);
  if (pseudo !== undefined) return pseudo;
  const result = resultOf(tx);
  const succeeded = result === 'tesSUCCESS';
  const phrase = phraseOf(tx);
  const type = String(tx.TransactionType);
  // "an" before a vowel sound: AccountSet, NFTokenMint (en-), MPToken… (em-), XChain… (ex-).
  const generic = [text(`submitted ${/^(?:[AEIOU]|NF|MPT|X)/.test(type) ? 'an' : 'a'} ${type}`)];
  // What a failed transaction names only its terms: nothing but the fee moved.
  const body = succeeded ? (phrase?.done ?? generic) : asTerms(phrase?.tried ?? generic);
  const outcome = succeeded || result === '' ? [] : [text(` (failed: ${result})`)];
  return [account(tx.Account), text(' '), ...body, ...outcome];
}

/** The summary as plain text: accounts as their addresses, amounts as "12.5 USD.rIssuer" (pure). */
export function summaryText(segments: readonly Segment[]): string {
  return segments
    .map((s) => {
      switch (s.kind) {
        case 'text':
          return s.text;
        case 'account':
          return s.address;
        case 'amount':
          return amountText(s.amount);
        case 'nft':
          return s.id;
        case 'amendment':
          return s.name ?? s.id;
        case 'validator':
          return s.key;
      }
    })
    .join('');
}
