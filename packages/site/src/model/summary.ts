import { nftPageChanges } from '@xle/documents';
import { amountText, amountView, formatValue, type AmountView } from './format.js';

/**
 * A transaction's one-line human summary, as segments a view links ("rA paid rB 12.5
 * USD.rIssuer"): accounts, amounts, NFTs and amendments are segments of their own, the rest is
 * text. `summaryText` gives the plain form. Pure.
 */
export type Segment =
  | { kind: 'text'; text: string }
  | { kind: 'account'; address: string }
  | { kind: 'amount'; amount: AmountView }
  | { kind: 'nft'; id: string }
  | { kind: 'amendment'; id: string; name?: string };

type Tx = Record<string, unknown>;

const text = (value: string): Segment => ({ kind: 'text', text: value });
const account = (address: unknown): Segment =>
  typeof address === 'string' && address !== '' ? { kind: 'account', address } : text('an account');
const amount = (raw: unknown): Segment[] => {
  const view = amountView(raw);
  return view === undefined ? [] : [{ kind: 'amount', amount: view }];
};
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

/** An AMM pool's two assets, "XRP/USD.rIssuer". */
function pool(tx: Tx): Segment[] {
  return [...amount(tx.Asset), text('/'), ...amount(tx.Asset2)];
}

interface Phrase {
  /** What the sender did, when it succeeded. */
  done: Segment[];
  /** What it tried, when it failed (defaults to "submitted a <Type>"). */
  tried?: Segment[];
}

/** The phrase after the sender, per transaction type. */
function phraseOf(tx: Tx): Phrase | undefined {
  const type = String(tx.TransactionType);
  switch (type) {
    case 'Payment': {
      const partial = flagSet(tx, 0x00020000);
      if (tx.Account === tx.Destination) {
        return {
          done: [text('exchanged '), ...amount(tx.SendMax ?? tx.Amount), text(' for '), ...amount(delivered(tx))],
          tried: [text('tried to exchange '), ...amount(tx.SendMax ?? tx.Amount), text(' for '), ...amount(tx.Amount)],
        };
      }
      return {
        done: [
          text('paid '),
          account(tx.Destination),
          text(' '),
          ...amount(delivered(tx)),
          ...(partial ? [text(' (a partial payment)')] : []),
        ],
        tried: [text('tried to pay '), account(tx.Destination), text(' '), ...amount(tx.Amount)],
      };
    }
    case 'OfferCreate': {
      const sell = flagSet(tx, 0x00080000);
      const what = sell
        ? [text('an offer to sell '), ...amount(tx.TakerGets), text(' for '), ...amount(tx.TakerPays)]
        : [text('an offer to buy '), ...amount(tx.TakerPays), text(' for '), ...amount(tx.TakerGets)];
      const replacing =
        tx.OfferSequence === undefined ? [] : [text(`, replacing its offer #${String(tx.OfferSequence)}`)];
      return { done: [text('created '), ...what, ...replacing], tried: [text('tried to create '), ...what] };
    }
    case 'OfferCancel':
      return { done: [text(`cancelled its offer #${String(tx.OfferSequence)}`)] };
    case 'TrustSet':
      return {
        done: [text('set a trust line of '), ...amount(tx.LimitAmount)],
        tried: [text('tried to set a trust line of '), ...amount(tx.LimitAmount)],
      };
    case 'AccountSet': {
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
    }
    case 'AccountDelete':
      return {
        done: [
          text('deleted its account and sent its remaining '),
          ...amount(delivered(tx)),
          text(' to '),
          account(tx.Destination),
        ],
        tried: [text('tried to delete its account in favour of '), account(tx.Destination)],
      };
    case 'SetRegularKey':
      return typeof tx.RegularKey === 'string'
        ? { done: [text('set its regular key to '), account(tx.RegularKey)] }
        : { done: [text('removed its regular key')] };
    case 'SignerListSet': {
      const signers = Array.isArray(tx.SignerEntries) ? tx.SignerEntries.length : 0;
      return Number(tx.SignerQuorum) === 0
        ? { done: [text('removed its signer list')] }
        : { done: [text(`set a signer list of ${signers} signers with quorum ${String(tx.SignerQuorum)}`)] };
    }
    case 'DepositPreauth':
      return typeof tx.Authorize === 'string'
        ? { done: [text('preauthorized '), account(tx.Authorize), text(' to pay it')] }
        : { done: [text('withdrew the preauthorization of '), account(tx.Unauthorize)] };
    case 'TicketCreate':
      return { done: [text(`created ${String(tx.TicketCount)} ticket${Number(tx.TicketCount) === 1 ? '' : 's'}`)] };
    case 'EscrowCreate':
      return {
        done: [text('escrowed '), ...amount(tx.Amount), text(' for '), account(tx.Destination)],
        tried: [text('tried to escrow '), ...amount(tx.Amount), text(' for '), account(tx.Destination)],
      };
    case 'EscrowFinish':
      return { done: [text(`released escrow #${String(tx.OfferSequence)} of `), account(tx.Owner)] };
    case 'EscrowCancel':
      return { done: [text(`cancelled escrow #${String(tx.OfferSequence)} of `), account(tx.Owner)] };
    case 'PaymentChannelCreate':
      return {
        done: [text('opened a payment channel to '), account(tx.Destination), text(' with '), ...amount(tx.Amount)],
        tried: [
          text('tried to open a payment channel to '),
          account(tx.Destination),
          text(' with '),
          ...amount(tx.Amount),
        ],
      };
    case 'PaymentChannelFund':
      return {
        done: [text('added '), ...amount(tx.Amount), text(' to a payment channel')],
        tried: [text('tried to add '), ...amount(tx.Amount), text(' to a payment channel')],
      };
    case 'PaymentChannelClaim':
      return {
        done: [
          text('claimed from a payment channel'),
          ...(tx.Balance === undefined ? [] : [text(', up to '), ...amount(tx.Balance), text(' in all')]),
          ...(flagSet(tx, 0x00020000) ? [text(', and asked to close it')] : []),
        ],
      };
    case 'CheckCreate':
      return { done: [text('wrote a check to '), account(tx.Destination), text(' for up to '), ...amount(tx.SendMax)] };
    case 'CheckCash':
      return { done: [text('cashed a check for '), ...amount(tx.Amount ?? tx.DeliverMin)] };
    case 'CheckCancel':
      return { done: [text('cancelled a check')] };
    case 'NFTokenMint':
      return { done: [text('minted NFT '), ...nft(nftOf(tx))], tried: [text('tried to mint an NFT')] };
    case 'NFTokenBurn':
      return { done: [text('burned NFT '), ...nft(tx.NFTokenID)] };
    case 'NFTokenCreateOffer': {
      const offer = flagSet(tx, 0x00000001)
        ? [text('sell NFT '), ...nft(tx.NFTokenID), text(' for '), ...amount(tx.Amount)]
        : [
            text('buy NFT '),
            ...nft(tx.NFTokenID),
            ...(typeof tx.Owner === 'string' ? [text(' from '), account(tx.Owner)] : []),
            text(' for '),
            ...amount(tx.Amount),
          ];
      return { done: [text('offered to '), ...offer], tried: [text('tried to offer to '), ...offer] };
    }
    case 'NFTokenAcceptOffer': {
      const id = nftOf(tx);
      return {
        done: id === undefined ? [text('accepted an NFT offer')] : [text('accepted an offer for NFT '), ...nft(id)],
      };
    }
    case 'NFTokenCancelOffer': {
      const count = Array.isArray(tx.NFTokenOffers) ? tx.NFTokenOffers.length : 0;
      return { done: [text(`cancelled ${count} NFT offer${count === 1 ? '' : 's'}`)] };
    }
    case 'AMMCreate':
      return { done: [text('created an AMM pool of '), ...amount(tx.Amount), text(' and '), ...amount(tx.Amount2)] };
    case 'AMMDeposit': {
      const amounts = [
        ...amount(tx.Amount),
        ...(tx.Amount2 === undefined ? [] : [text(' and '), ...amount(tx.Amount2)]),
      ];
      return {
        done: [
          text('deposited '),
          ...(amounts.length > 0 ? amounts : [text('LP tokens’ worth')]),
          text(' into the AMM pool '),
          ...pool(tx),
        ],
        tried: [text('tried to deposit into the AMM pool '), ...pool(tx)],
      };
    }
    case 'AMMWithdraw':
      return { done: [text('withdrew from the AMM pool '), ...pool(tx)] };
    case 'AMMVote':
      return {
        done: [
          text(`voted for a trading fee of ${formatValue(Number(tx.TradingFee) / 1000)} % on the AMM pool `),
          ...pool(tx),
        ],
      };
    case 'AMMBid':
      return { done: [text('bid for the auction slot of the AMM pool '), ...pool(tx)] };
    case 'AMMDelete':
      return { done: [text('deleted the empty AMM pool '), ...pool(tx)] };
    case 'Clawback': {
      const view = amountView(tx.Amount);
      if (view?.issuer === undefined || typeof tx.Account !== 'string') return undefined;
      // A Clawback's Amount names the holder in its issuer field; the token is the sender's own.
      const clawed = amount({ currency: view.currency, issuer: tx.Account, value: view.value });
      return { done: [text('clawed back '), ...clawed, text(' from '), account(view.issuer)] };
    }
    default:
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
    case 'UNLModify':
      return [
        text(
          Number(tx.UNLModifyDisabling) === 1
            ? 'The network put a validator on the negative UNL'
            : 'The network took a validator off the negative UNL',
        ),
      ];
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
  const body = succeeded ? (phrase?.done ?? generic) : (phrase?.tried ?? generic);
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
      }
    })
    .join('');
}
