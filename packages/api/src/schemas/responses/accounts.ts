import Type from 'typebox';
import { Address, Amount, Hash, IsoDate, Label, LabelObject, Nullable, OpenObject } from './common.js';

/**
 * 200-response schemas of the account routes (spec: "Resources and their fields", Account ...
 * Wallet KYC status), checked against what shapers/account.ts and shapers/nft.ts produce.
 * Fields the spec lists but the code does not always send are optional; the description says when
 * they are missing.
 */

const LedgerIndex = Type.Integer({ minimum: 0, description: 'Ledger index.' });
const Drops = Type.String({ pattern: '^[0-9]+$', description: 'Drops of XRP, as a string.' });
/**
 * A directory page number (UInt64) as rippled wrote it: hex, 16 upper-case digits in older
 * answers, lower-case without leading zeros in newer ones ('0', '13e3'); served unchanged.
 */
const NodeHint = Type.String({ pattern: '^[0-9A-Fa-f]{1,16}$', description: 'Directory page hint, hex (UInt64).' });

/** GET /account/{ACCOUNT}/settings, and `settings` of the account object. */
export const AccountSettings = OpenObject(
  {
    requireDestinationTag: Type.Boolean({ description: 'lsfRequireDestTag is set.' }),
    requireAuthorization: Type.Boolean({ description: 'lsfRequireAuth is set.' }),
    depositAuth: Type.Boolean({ description: 'lsfDepositAuth is set.' }),
    disallowIncomingXRP: Type.Boolean({ description: 'lsfDisallowXRP is set.' }),
    disableMasterKey: Type.Boolean({ description: 'lsfDisableMaster is set.' }),
    noFreeze: Type.Boolean({ description: 'lsfNoFreeze is set.' }),
    globalFreeze: Type.Boolean({ description: 'lsfGlobalFreeze is set.' }),
    defaultRipple: Type.Boolean({ description: 'lsfDefaultRipple is set.' }),
    emailHash: Type.Optional(Type.String({ description: 'EmailHash of the account root; absent when unset.' })),
    messageKey: Type.Optional(Type.String({ description: 'MessageKey of the account root; absent when unset.' })),
    domain: Type.Optional(
      Type.String({ description: 'Domain of the account root, decoded to text; absent when unset.' }),
    ),
    transferRate: Type.Optional(
      Type.Number({ description: 'TransferRate as a factor (1.002 = 0.2 % fee); absent when unset.' }),
    ),
    regularKey: Type.Optional(Type.With(Address, { description: 'RegularKey; absent when unset.' })),
    tickSize: Type.Optional(Type.Integer({ description: 'TickSize; absent when unset.' })),
    signers: Type.Optional(
      OpenObject(
        {
          threshold: Type.Integer({ description: 'SignerQuorum.' }),
          weights: Type.Array(
            OpenObject({ address: Address, weight: Type.Integer({ description: 'SignerWeight.' }) }),
            { description: 'The signer entries.' },
          ),
        },
        'The signer list. Not served yet: the code does not read SignerList entries.',
      ),
    ),
  },
  'Account settings, from the flags and fields of its AccountRoot. Additional properties follow account_info.',
);

/** GET /account/{ACCOUNT}. */
export const AccountInfo = OpenObject(
  {
    Account: Address,
    account: Address,
    Sequence: Type.Integer({ description: 'Account sequence.' }),
    sequence: Type.Integer({ description: 'Account sequence (same as Sequence).' }),
    Balance: Drops,
    nativeBalance: Type.String({ description: 'Balance in XRP, decimal text.' }),
    OwnerCount: Type.Integer({
      description: 'Objects the account owns (0 restored where rippled left it out of a created entry’s metadata).',
    }),
    ownerCount: Type.Integer({ description: 'Same as OwnerCount.' }),
    PreviousTxnID: Hash,
    previousAffectingTransactionID: Hash,
    PreviousTxnLgrSeq: LedgerIndex,
    previousAffectingTransactionLedgerVersion: LedgerIndex,
    Flags: Type.Integer({ description: 'AccountRoot flags (0 restored where metadata left it out).' }),
    LedgerEntryType: Type.Literal('AccountRoot'),
    index: Hash,
    settings: AccountSettings,
    parent: Nullable(Address, 'Activating account; null when the activation is not indexed.'),
    initial_balance: Nullable(Type.Number(), 'XRP received at activation; null when the activation is not indexed.'),
    inception: Nullable(IsoDate, 'Activation time; null when the activation is not indexed.'),
    ledger_index: Nullable(
      Type.Integer({ minimum: 0 }),
      'Ledger of activation; null when the activation is not indexed.',
    ),
    tx_hash: Nullable(Hash, 'Activation transaction; null when the activation is not indexed.'),
    accountName: Label,
    parentName: Nullable(LabelObject, 'Label of the activating account; null when it has none or is unknown.'),
  },
  'An account: its AccountRoot entry with account_info style aliases, settings, activation and labels.',
);

/** One entry of GET /account/{ACCOUNT}/activations. */
const Activation = OpenObject(
  {
    account: Address,
    parent: Address,
    initial_balance: Type.String({ description: 'XRP received at activation, decimal text.' }),
    inception: IsoDate,
    ledger_index: LedgerIndex,
    tx_hash: Hash,
    parentName: Label,
  },
  'An account this account activated.',
);

/** GET /account/{ACCOUNT}/activations. */
export const AccountActivations = OpenObject(
  {
    result: Type.Literal('success'),
    count: Type.Integer({ minimum: 0, description: 'Number of entries in `accounts` (this page).' }),
    limit: Type.Integer({ minimum: 1, description: 'The page size asked for.' }),
    marker: Type.Optional(
      Type.String({ description: 'Present when more accounts exist: pass it back as `marker` for the next page.' }),
    ),
    accounts: Type.Array(Activation, { description: 'The accounts activated, oldest first.' }),
  },
  'Accounts this account activated (indexed activations only).',
);

/** One link of the activation chain. */
const AncestryEntry = OpenObject(
  {
    account: Address,
    parent: Type.Optional(Type.With(Address, { description: 'Activating account; absent for the oldest ancestor.' })),
    inception: Nullable(IsoDate, 'Activation time; null when the activation is not indexed (the oldest ancestor).'),
    ledger_index: Nullable(
      Type.Integer({ minimum: 0 }),
      'Ledger of activation; null when the activation is not indexed (the oldest ancestor).',
    ),
    tx_hash: Type.Optional(Type.With(Hash, { description: 'Activation transaction; absent for the oldest ancestor.' })),
    depth: Type.Integer({ minimum: 0, description: '0 for the queried account, growing toward older ancestors.' }),
    accountName: Label,
  },
  'One account of the chain.',
);

/** GET /account/{ACCOUNT}/ancestry. */
export const AccountAncestry = OpenObject(
  {
    account: Address,
    parent: Nullable(Address, 'Activating account; null when the activation is not indexed.'),
    inception: Nullable(IsoDate, 'Activation time; null when the activation is not indexed.'),
    ledger_index: Nullable(
      Type.Integer({ minimum: 0 }),
      'Ledger of activation; null when the activation is not indexed.',
    ),
    ancestry: Type.Array(AncestryEntry, { description: 'Oldest ancestor first, the queried account last.' }),
  },
  'The chain of activating accounts.',
);

/** One entry of GET /account/{ACCOUNT}/escrows. */
const Escrow = OpenObject(
  {
    Account: Address,
    Amount: Type.With(Amount, {
      description: 'Drops as a string (spec); an issued amount would pass through for a token escrow (XLS-85).',
    }),
    Destination: Address,
    DestinationNode: Type.Optional(
      Type.With(NodeHint, {
        description: 'Page of the destination directory; absent when Destination is the owner.',
      }),
    ),
    DestinationTag: Type.Optional(Type.Integer({ description: 'Absent when unset.' })),
    FinishAfter: Type.Optional(
      Type.Integer({ description: 'Ripple epoch seconds; absent on a purely conditional escrow.' }),
    ),
    CancelAfter: Type.Optional(Type.Integer({ description: 'Ripple epoch seconds; absent when unset.' })),
    Condition: Type.Optional(Type.String({ description: 'Crypto-condition, hex; absent when unset.' })),
    Flags: Type.Integer({ description: 'Escrow flags (0 restored where metadata left it out).' }),
    LedgerEntryType: Type.Literal('Escrow'),
    OwnerNode: Type.With(NodeHint, { description: 'Page of the owner directory.' }),
    PreviousTxnID: Hash,
    PreviousTxnLgrSeq: LedgerIndex,
    SourceTag: Type.Optional(Type.Integer({ description: 'Absent when unset.' })),
    index: Hash,
    AccountName: Label,
  },
  'An Escrow ledger entry as rippled writes it, with the label of its creator.',
);

/** GET /account/{ACCOUNT}/escrows. */
export const AccountEscrows = Type.Array(Escrow, { description: 'Escrows the account created.' });

/** GET /account/{ACCOUNT}/deposit_preauths. */
export const AccountDepositPreauths = Type.Array(
  OpenObject(
    {
      Account: Address,
      Authorize: Type.Optional(
        Type.With(Address, {
          description:
            'The preauthorised account. Absent on a credentials preauthorisation (AuthorizeCredentials, XLS-70), which the answer does not carry yet.',
        }),
      ),
    },
    'A DepositPreauth entry.',
  ),
  { description: 'Accounts this account preauthorised.' },
);

/** An amount of an order's specification. */
const OrderAmount = OpenObject(
  {
    currency: Type.String({ description: 'Currency code (XRP for the native currency).' }),
    value: Type.String({ description: 'Decimal text (XRP, not drops, for the native currency).' }),
    counterparty: Type.Optional(Type.With(Address, { description: 'Issuer; absent for XRP.' })),
  },
  'An amount of the order.',
);

/** One entry of GET /account/{ACCOUNT}/orders. */
const DexOrder = OpenObject(
  {
    specification: OpenObject(
      {
        direction: Type.Union([Type.Literal('buy'), Type.Literal('sell')], {
          description: '`sell` when the offer has lsfSell, else `buy`.',
        }),
        quantity: OrderAmount,
        totalPrice: OrderAmount,
      },
      'What the order buys (or sells) and for what.',
    ),
    properties: OpenObject(
      {
        maker: Address,
        sequence: Type.Integer({ description: 'Sequence of the offer.' }),
        makerExchangeRate: Type.String({
          description:
            "The offer's quality from its BookDirectory (TakerPays / TakerGets when placed, XRP in XRP, not drops), for buy and sell orders alike; without a BookDirectory, TakerPays / TakerGets to 16 significant digits, rounded half up: ripple-lib's account orders rule (parseAccountOrder).",
          pattern: '^[0-9]+(\\.[0-9]+)?(e[+-][0-9]+)?$',
        }),
      },
      'Who placed the order.',
    ),
    Account: Address,
    Sequence: Type.Integer(),
    TakerGets: Amount,
    TakerPays: Amount,
    BookDirectory: Hash,
    BookNode: Type.With(NodeHint, { description: 'Page of the book directory.' }),
    OwnerNode: Type.With(NodeHint, { description: 'Page of the owner directory.' }),
    Flags: Type.Integer({ description: 'Offer flags (0 restored where metadata left it out).' }),
    LedgerEntryType: Type.Literal('Offer'),
    index: Hash,
    PreviousTxnID: Hash,
    PreviousTxnLgrSeq: LedgerIndex,
  },
  'An outstanding DEX offer: its specification and properties, then the Offer ledger entry as rippled writes it.',
);

/** GET /account/{ACCOUNT}/orders. */
export const AccountOrders = Type.Array(DexOrder, { description: 'Outstanding DEX offers of the account.' });

/** One line of GET /account/{ACCOUNT}/trustlines2, as account_lines shows it. */
const TrustLine = OpenObject(
  {
    account: Address,
    balance: Type.String({ description: "Decimal text from this account's side; negative when it owes." }),
    currency: Type.String({ description: 'Three-letter code or 40 hex characters.' }),
    limit: Type.String({ description: 'Limit this account set, decimal text.' }),
    limit_peer: Type.String({ description: 'Limit the peer set, decimal text.' }),
    quality_in: Type.Integer(),
    quality_out: Type.Integer(),
    no_ripple: Type.Optional(Type.Boolean({ description: 'Present (true) when this side has NoRipple.' })),
    no_ripple_peer: Type.Optional(Type.Boolean({ description: 'Present (true) when the peer has NoRipple.' })),
    freeze: Type.Optional(Type.Boolean({ description: 'Present (true) when this side froze the line.' })),
    freeze_peer: Type.Optional(Type.Boolean({ description: 'Present (true) when the peer froze the line.' })),
    authorized: Type.Optional(Type.Boolean({ description: 'Present (true) when this side authorised the line.' })),
    peer_authorized: Type.Optional(Type.Boolean({ description: 'Present (true) when the peer authorised the line.' })),
  },
  'A trust line seen from the account.',
);

/** GET /account/{ACCOUNT}/trustlines2. */
export const AccountTrustLines = OpenObject(
  {
    account: Address,
    ledger_current_index: Type.Integer({ minimum: 0, description: 'The newest indexed ledger.' }),
    lines: Type.Array(TrustLine),
    validated: Type.Boolean(),
    limit: Type.Integer({ minimum: 1, description: 'The page size asked for, as account_lines echoes it.' }),
    marker: Type.Optional(
      Type.String({ description: 'Present when more lines exist: pass it back as `marker` for the next page.' }),
    ),
  },
  'A page of the trust lines of the account, in ledger entry id order, as account_lines shows them.',
);

/** GET /account/{ACCOUNT}/assets. */
export const AccountAssets = Type.Array(
  OpenObject(
    {
      counterparty: Address,
      currency: Type.String({ description: 'Three-letter code or 40 hex characters.' }),
      value: Type.String({ description: 'Amount held, decimal text (positive).' }),
      counterpartyName: Label,
    },
    'A token the account holds.',
  ),
  { description: 'Tokens the account holds (lines with a positive balance).' },
);

/** GET /account/{ACCOUNT}/obligations. */
export const AccountObligations = Type.Array(
  OpenObject(
    {
      currency: Type.String({ description: 'Three-letter code or 40 hex characters.' }),
      value: Type.String({ description: 'Outstanding amount, decimal text.' }),
    },
    'A token the account issued.',
  ),
  { description: 'Tokens the account issued, summed per currency.' },
);

/** GET /account/{ACCOUNT}/obligation/{TOKEN_ID}. */
export const AccountObligation = Type.Number({
  description: 'Outstanding amount of the token issued by the account, a bare JSON number (0 when none).',
});

/** One entry of GET /account/{ACCOUNT}/nfts. */
const OwnedNft = OpenObject(
  {
    Flags: Type.Integer({ description: 'NFToken flags.' }),
    Issuer: Address,
    NFTokenID: Hash,
    NFTokenTaxon: Type.Integer(),
    TransferFee: Type.Integer({ description: 'In 1/100,000 units (10000 = 10 %).' }),
    URI: Type.Optional(Type.String({ description: 'Hex; absent when the token has none (as account_nfts).' })),
    nft_serial: Type.Integer(),
  },
  'An NFT the account owns.',
);

/** GET /account/{ACCOUNT}/nfts. */
export const AccountNfts = Type.Array(OwnedNft, { description: "NFTs on the account's NFToken pages." });

/** GET /account/{ACCOUNT}/walletkyc (route declared in routes/data-sets.ts). */
export const WalletKyc = OpenObject(
  {
    account: Address,
    kycApproved: Type.Boolean({ description: 'False when no import lists the account.' }),
  },
  'Wallet KYC status of an account.',
);
