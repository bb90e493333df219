import Type from 'typebox';
import { Address, Amount, Hash, IsoDate, Label, Nullable, OpenObject } from './common.js';

/**
 * Response schemas of the transaction and ledger routes (GET /tx/{HASH}, /ledgers,
 * /ledger/{LEDGER_INDEX}, /ledger/{LEDGER_INDEX}/transactions) and of the account transactions
 * page, written from the spec's "Transaction object", "Ledger", "Ledgers list" and "Account
 * transactions response" tables and from what shapers/transaction.ts and shapers/ledger.ts emit.
 */

const Hex = (description: string) => Type.String({ pattern: '^[0-9A-Fa-f]*$', description });
const UInt = (description: string) => Type.Integer({ minimum: 0, description });

/** An MPT amount (XLS-33): rippled writes it as `{mpt_issuance_id, value}`. */
const MptAmount = OpenObject(
  {
    mpt_issuance_id: Type.String({ pattern: '^[0-9A-Fa-f]{48}$', description: 'MPT issuance id, 48 hex.' }),
    value: Type.String({ pattern: '^-?[0-9]+$', description: 'Integer amount of the token, as text.' }),
  },
  'A multi-purpose token amount.',
);

/** Every amount a transaction or its metadata may carry: drops, an issued amount, or an MPT amount. */
const TxAmount = Type.Union([Amount, MptAmount], {
  description: 'Drops of XRP as a string, an issued amount `{currency, issuer, value}`, or an MPT amount.',
});

/** An asset without an amount (AMM `Asset`/`Asset2`): `{currency: "XRP"}`, `{currency, issuer}`, `{mpt_issuance_id}`. */
const Issue = Type.Union(
  [
    OpenObject({
      currency: Type.String({ description: 'XRP, a three-letter code or 40 hex characters.' }),
      issuer: Type.Optional(Address),
    }),
    OpenObject({ mpt_issuance_id: Type.String({ pattern: '^[0-9A-Fa-f]{48}$' }) }),
  ],
  { description: 'An asset without an amount.' },
);

/** One entry of meta.AffectedNodes: the ledger entry and how the transaction changed it. */
const NodeFields = (kind: string) =>
  OpenObject(
    {
      LedgerEntryType: Type.String({ description: 'Ledger entry type, e.g. AccountRoot, Offer, RippleState.' }),
      LedgerIndex: Hash,
      NewFields: Type.Optional(OpenObject({}, 'Fields of the created entry (CreatedNode).')),
      FinalFields: Type.Optional(OpenObject({}, 'Fields after the transaction (ModifiedNode, DeletedNode).')),
      PreviousFields: Type.Optional(OpenObject({}, 'Previous values of the fields that changed.')),
      PreviousTxnID: Type.Optional(Hash),
      PreviousTxnLgrSeq: Type.Optional(UInt('Ledger of the transaction that last modified the entry.')),
    },
    `The entry the transaction ${kind}.`,
  );
const AffectedNode = Type.Union(
  [
    OpenObject({ CreatedNode: NodeFields('created') }),
    OpenObject({ ModifiedNode: NodeFields('modified') }),
    OpenObject({ DeletedNode: NodeFields('deleted') }),
  ],
  { description: 'A ledger entry the transaction created, modified or deleted.' },
);

/** The transaction metadata. */
const TransactionMeta = OpenObject(
  {
    TransactionIndex: UInt('Position of the transaction in its ledger.'),
    TransactionResult: Type.String({ description: 'Result code, e.g. tesSUCCESS, tecPATH_DRY.' }),
    AffectedNodes: Type.Array(AffectedNode, {
      description: 'Ledger entries touched: CreatedNode, ModifiedNode and DeletedNode entries.',
    }),
    delivered_amount: Type.Optional(
      Type.Union([TxAmount, Type.Literal('unavailable')], {
        description:
          'Amount actually delivered, as rippled gives it; "unavailable" for payments of ledgers before ' +
          '2014-01-20, which did not record it. Absent when the ingested metadata did not carry it.',
      }),
    ),
    DeliveredAmount: Type.Optional(TxAmount),
  },
  'The transaction metadata (rippled `meta`).',
);

const Memo = OpenObject(
  {
    Memo: OpenObject(
      {
        MemoData: Type.Optional(Hex('Memo data, hex.')),
        MemoType: Type.Optional(Hex('Memo type, hex.')),
        MemoFormat: Type.Optional(Hex('Memo format, hex.')),
      },
      'One memo (hex fields, as on the ledger).',
    ),
  },
  'A memo of the transaction.',
);

const Signer = OpenObject(
  {
    Signer: OpenObject(
      {
        Account: Address,
        SigningPubKey: Hex('Public key of the signer, hex.'),
        TxnSignature: Hex('Signature of the signer, hex.'),
      },
      'One signature of a multi-signed transaction.',
    ),
  },
  'A signer of a multi-signed transaction.',
);

const PathStep = OpenObject(
  {
    account: Type.Optional(Address),
    currency: Type.Optional(Type.String()),
    issuer: Type.Optional(Address),
  },
  'One step of a payment path.',
);

/**
 * The spec's Transaction object: every field rippled's tx command gives, with the amounts in XRPL
 * form, `date` as ISO 8601 and the labels, amendment name and signing account added.
 */
export const Transaction = OpenObject(
  {
    hash: Hash,
    ctid: Type.Optional(
      Type.String({
        pattern: '^C[0-9A-F]{15}$',
        description:
          'Compact transaction identifier (XLS-37), also accepted by GET /tx/{HASH}. Absent when out of range (ledger index >= 2^28).',
      }),
    ),
    TransactionType: Type.String({ description: 'Payment, OfferCreate, EnableAmendment, UNLModify, ...' }),
    Account: Type.Union([Address, Type.Literal('')], {
      description:
        'Sending account. Pseudo-transactions (EnableAmendment, SetFee, UNLModify) carry the zero account, ' +
        'written "rrrrrrrrrrrrrrrrrrrrrhoLvTp", or "" where the ingested ledger gave it decoded from binary.',
    }),
    Destination: Type.Optional(Address),
    DestinationTag: Type.Optional(UInt('Destination tag.')),
    SourceTag: Type.Optional(UInt('Source tag.')),
    Amount: Type.Optional(TxAmount),
    DeliverMax: Type.Optional(TxAmount),
    SendMax: Type.Optional(TxAmount),
    DeliverMin: Type.Optional(TxAmount),
    TakerPays: Type.Optional(TxAmount),
    TakerGets: Type.Optional(TxAmount),
    Asset: Type.Optional(Issue),
    Asset2: Type.Optional(Issue),
    OfferSequence: Type.Optional(UInt('Sequence of the offer (or escrow) the transaction refers to.')),
    Fee: Type.Union([Type.String({ pattern: '^[0-9]+$' }), UInt('Drops.')], {
      description: 'Transaction cost in drops (served as a string, as rippled writes it).',
    }),
    Flags: Type.Optional(UInt('Transaction flags (absent when the transaction set none, e.g. pseudo-transactions).')),
    Sequence: UInt('Account sequence (0 when a ticket or a pseudo-transaction).'),
    TicketSequence: Type.Optional(UInt('Ticket used instead of a sequence.')),
    LastLedgerSequence: Type.Optional(UInt('Last ledger the transaction could be included in.')),
    SigningPubKey: Hex('Signing public key; "" for multi-signed and pseudo-transactions.'),
    TxnSignature: Type.Optional(Hex('Signature (absent for multi-signed and pseudo-transactions).')),
    Signers: Type.Optional(Type.Array(Signer, { description: 'Signatures of a multi-signed transaction.' })),
    Memos: Type.Optional(Type.Array(Memo, { description: 'Memos.' })),
    Paths: Type.Optional(Type.Array(Type.Array(PathStep), { description: 'Payment paths: arrays of steps.' })),
    NFTokenOffers: Type.Optional(Type.Array(Hash, { description: 'Ids of NFT offers (NFTokenCancelOffer).' })),
    ledger_index: UInt('Ledger that holds the transaction.'),
    ledger_hash: Type.Optional(Hash),
    date: IsoDate,
    validated: Type.Boolean({ description: 'Always true: only validated ledgers are indexed.' }),
    meta: TransactionMeta,
    AccountName: Label,
    DestinationName: Label,
    AmendmentName: Type.Optional(
      Nullable(Type.String(), 'EnableAmendment only: name of the amendment, null when unknown.'),
    ),
    // Derived from SigningPubKey (the regular key's account when not signed by the master key);
    // null when SigningPubKey is empty (multi-signed and pseudo-transactions) or not a valid key.
    SigningPubKeyAccount: Nullable(Address),
  },
  "A validated transaction: the fields of rippled's tx command, plus labels and derived fields. " +
    '`SigningPubKeyAccount` is the account of SigningPubKey, null when that key is empty (multi-signed ' +
    'and pseudo-transactions).',
);

/** GET /account/{ACCOUNT}/transactions: one page, marker paging. */
export const AccountTransactionsPage = OpenObject(
  {
    account: Address,
    ledger_index_min: UInt(
      "The oldest ledger the search covers, the oldest indexed one, as rippled's account_tx says the earliest ledger it searched (not the oldest on the page).",
    ),
    ledger_index_max: UInt('Newest ledger of the walk, pinned by the first page (the marker carries it).'),
    transactions: Type.Array(Transaction, {
      description: "The page's transactions, newest first (oldest first with forward=true).",
    }),
    validated: Type.Boolean({ description: 'Always true.' }),
    marker: Type.Optional(
      Type.String({ description: 'Present when more transactions exist: pass it back as `marker` for the next page.' }),
    ),
    limit: UInt('Page size used.'),
  },
  'One page of the transactions that affected the account.',
);

/** The fields of a ledger header, as GET /ledger/{LEDGER_INDEX} and GET /ledgers serve them. */
const ledgerFields = {
  ledger_index: UInt('Ledger index.'),
  ledger_hash: Hash,
  parent_hash: Hash,
  account_hash: Type.Optional(Hash),
  transaction_hash: Type.Optional(Hash),
  close_flags: UInt('Close flags (0 when the source header had none).'),
  close_time: UInt('Close time, seconds since the XRPL epoch (2000-01-01).'),
  close_time_human: IsoDate,
  close_time_resolution: Type.Optional(UInt('Close time resolution, seconds.')),
  parent_close_time: Type.Optional(
    UInt('Close time of the parent ledger, XRPL-epoch seconds (absent on old ledgers whose header lacks it).'),
  ),
  tx_count: UInt('Number of transactions in the ledger.'),
  total_coins: Type.Integer({
    minimum: 0,
    description:
      'Drops of XRP in existence. Above 2^53: written as an exact integer literal, which a plain JSON ' +
      'parser rounds (read it with a big-number-aware parser to keep it exact).',
  }),
  validated: Type.Boolean({ description: 'Always true: only validated ledgers are indexed.' }),
};

/** GET /ledger/{LEDGER_INDEX}: the spec's Ledger object. */
export const Ledger = OpenObject(ledgerFields, 'A validated ledger header.');

/** GET /ledgers: the last 10 ledgers, newest first. */
export const LedgersList = OpenObject(
  {
    current_ledger: Nullable(
      UInt('Index of the newest ledger.'),
      'Index of the newest indexed ledger; null when none is.',
    ),
    ledgers: Type.Array(
      OpenObject(
        { ...ledgerFields, destroyed_coins: UInt("Drops destroyed by the fees of the ledger's transactions.") },
        'A validated ledger header, with the drops its fees destroyed.',
      ),
      { description: 'The last 10 ledgers, newest first.' },
    ),
  },
  'The last 10 ledgers closed.',
);

/** GET /ledger/{LEDGER_INDEX}/transactions: the ledger's transactions in ledger order. */
export const LedgerTransactions = Type.Array(Transaction, {
  description: 'The transactions of the ledger, in ledger order (meta.TransactionIndex).',
});

/** GET /nft/{NFTOKEN_ID}/history. */
export const NftHistoryPage = OpenObject(
  {
    nft_id: Hash,
    transactions: Type.Array(Transaction, {
      description:
        'Transactions that named or changed the NFT (mint, offers, accepts, transfers, burn, failed attempts too), oldest first (newest first with forward=false).',
    }),
    limit: UInt('Page size used.'),
    marker: Type.Optional(
      Type.String({ description: 'Present when more transactions exist: pass it back as `marker` for the next page.' }),
    ),
  },
  'One page of the history of an NFT, from the indexed transactions.',
);
