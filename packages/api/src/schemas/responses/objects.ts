import Type from 'typebox';
import { Address, Amount, Hash, IsoDate, IssuedAmount, Label, LabelObject, Nullable, OpenObject } from './common.js';

/**
 * Response schemas of the NFT, AMM, ledger object, well-known names and token routes, from the
 * spec's tables ("NFT info", "AMM info", "AMM pool", "Ledger object", "Well known account",
 * "Token") and what the shapers (shapers/nft.ts, amm.ts, objects.ts, token.ts) produce.
 */

const Integer = (description: string, extra: { minimum?: number; maximum?: number } = {}) =>
  Type.Integer({ description, ...extra });

/** NFToken flag names (XLS-20), as `flags_parsed` lists them. */
const NftFlagName = Type.Union(
  ['tfBurnable', 'tfOnlyXRP', 'tfTrustLine', 'tfTransferable', 'tfMutable'].map((name) => Type.Literal(name)),
  { description: 'Name of an NFToken flag (XLS-20).' },
);

/** GET /nft/{NFTOKEN_ID}. */
export const NftInfo = OpenObject(
  {
    nft_id: Hash,
    ledger_index: Integer('Ledger of the NFToken page that holds it, or of its burn.', { minimum: 0 }),
    owner: Address,
    is_burned: Type.Boolean({ description: 'True when the NFT was burned (then `owner` is its last owner).' }),
    flags: Integer('NFToken flags (bits of tfBurnable, tfOnlyXRP, tfTrustLine, tfTransferable, tfMutable).', {
      minimum: 0,
      maximum: 65535,
    }),
    flags_parsed: Type.Array(NftFlagName, { description: 'Names of the flags set in `flags`.' }),
    transfer_fee: Integer('Transfer fee in 1/100,000 units (0 to 50,000, i.e. 0% to 50%).', {
      minimum: 0,
      maximum: 65535,
    }),
    issuer: Address,
    nft_taxon: Integer('Taxon the issuer gave the NFT.', { minimum: 0 }),
    nft_serial: Integer('Serial number (sequence) of the NFT among its issuer’s mints.', { minimum: 0 }),
    validated: Type.Boolean({ description: 'Always true: read from validated ledgers.' }),
    uri: Type.String({
      pattern: '^[0-9A-Fa-f]*$',
      description: 'The URI as hex text; the empty string when the NFT has none (and for a burned NFT).',
    }),
  },
  'One NFT, as the nft_info command shows it: owner, flags, issuer, taxon, serial, URI, burned or not.',
);

/** The asset of an AMM pool: XRP (`currency` only) or a token. */
const Issue = OpenObject(
  {
    currency: Type.String({ description: '`XRP`, a three-letter code or 40 hex characters.' }),
    issuer: Type.Optional(Address),
  },
  'An asset: `{currency: "XRP"}` or `{currency, issuer}`.',
);

/** GET /amm/pools entry: the AMM ledger entry plus the XRP its account holds. */
export const AmmPool = OpenObject(
  {
    Account: Address,
    Asset: Issue,
    Asset2: Issue,
    AuctionSlot: Type.Optional(
      OpenObject(
        {
          Account: Address,
          DiscountedFee: Type.Optional(
            Integer('Trading fee the slot holder pays, in 1/100,000 units; absent when 0 (rippled omits it).'),
          ),
          Expiration: Integer('When the slot expires, in seconds since the XRPL epoch (2000-01-01).'),
          Price: IssuedAmount,
          AuthAccounts: Type.Optional(Type.Array(OpenObject({ AuthAccount: OpenObject({ Account: Address }) }))),
        },
        'The auction slot, absent when the pool has none.',
      ),
    ),
    Flags: Integer('Ledger entry flags.'),
    LPTokenBalance: IssuedAmount,
    OwnerNode: Type.String({ description: 'Owner directory page, hex text.' }),
    TradingFee: Type.Optional(
      Integer('Trading fee in 1/100,000 units (1000 = 1%); absent when 0, as rippled writes the entry.'),
    ),
    VoteSlots: Type.Optional(
      Type.Array(
        OpenObject({
          VoteEntry: OpenObject({
            Account: Address,
            TradingFee: Type.Optional(Integer('The fee this account votes for; absent when it votes for 0.')),
            VoteWeight: Integer('Weight of the vote, in 1/100,000 of the LP tokens.'),
          }),
        }),
        { description: 'Trading fee votes; absent when there are none.' },
      ),
    ),
    LedgerEntryType: Type.Literal('AMM'),
    index: Hash,
    Balance: Nullable(
      Type.Number(),
      'XRP the AMM account holds, in XRP (not drops); null when the account is not in the indexed state (history only partly indexed).',
    ),
  },
  'An AMM pool: the AMM ledger entry with `Balance`, the XRP its account holds (in XRP).',
);

/** GET /amm/pools. */
export const AmmPools = Type.Array(AmmPool, { description: 'AMM pools, ordered by AMM account.' });

/** GET /amm/{AMM_ACCOUNT}. */
export const AmmInfo = OpenObject(
  {
    account: Address,
    amount: Nullable(
      Amount,
      'What the pool holds of its first asset (drops when XRP); null when the AMM account or its trust line is not in the indexed state (history only partly indexed): unknown, not zero.',
    ),
    amount2: Nullable(
      Amount,
      'What the pool holds of its second asset; null when not in the indexed state, as `amount`.',
    ),
    asset_frozen: Type.Optional(
      Type.Boolean({ description: 'Whether the issuer froze the first asset; absent when it is XRP.' }),
    ),
    asset2_frozen: Type.Optional(
      Type.Boolean({ description: 'Whether the issuer froze the second asset; absent when it is XRP.' }),
    ),
    auction_slot: Type.Optional(
      OpenObject(
        {
          account: Address,
          discounted_fee: Integer('Trading fee the slot holder pays, in 1/100,000 units.'),
          expiration: Type.String({
            description: 'When the slot expires, as rippled prints it (`2025-Feb-02 02:08:00.000000000 UTC`).',
          }),
          price: IssuedAmount,
          time_interval: Integer(
            'Which of the 20 intervals of the 24-hour slot is current (0-19) at the newest indexed ledger’s parent ' +
              'close time; 20 once the slot has expired, as rippled’s amm_info writes it.',
            { minimum: 0, maximum: 20 },
          ),
          auth_accounts: Type.Optional(
            Type.Array(OpenObject({ account: Address }), {
              description: 'Accounts the holder lets trade at the discounted fee.',
            }),
          ),
        },
        'The auction slot; absent when nobody holds it (amm_info shows a slot with an owner only).',
      ),
    ),
    lp_token: IssuedAmount,
    trading_fee: Integer('Trading fee in 1/100,000 units (1000 = 1%).'),
    vote_slots: Type.Array(
      OpenObject({
        account: Address,
        trading_fee: Integer('The fee this account votes for, in 1/100,000 units.'),
        vote_weight: Integer('Weight of the vote, in 1/100,000 of the LP tokens.'),
      }),
      { description: 'Trading fee votes.' },
    ),
  },
  'An AMM pool as the amm_info command shows it: balances (`amount` is drops when the asset is XRP), ' +
    'LP token, auction slot and votes.',
);

/** GET /object/{OBJECT_ID}. */
export const LedgerObject = OpenObject(
  {
    index: Hash,
    ledger_hash: Nullable(
      Type.String({ pattern: '^[0-9A-F]{64}$' }),
      'Hash of the ledger the entry was last written in; null when that ledger is not indexed (an entry read from a state snapshot).',
    ),
    ledger_index: Integer('Ledger the entry was last written in.', { minimum: 0 }),
    node: OpenObject(
      {
        LedgerEntryType: Type.String({ description: 'Type of the entry (AccountRoot, RippleState, Offer, ...).' }),
        index: Hash,
      },
      'The ledger entry as rippled writes it.',
    ),
    validated: Type.Boolean({ description: 'Always true: read from validated ledgers.' }),
  },
  'A ledger object, as the ledger_entry command shows it.',
);

/** GET /names/well-known. */
export const WellKnownAccounts = Type.Array(LabelObject, {
  description: 'Labels of well-known accounts, ordered by account.',
});

/** A link of a token's or issuer's meta. */
const Weblink = OpenObject(
  {
    url: Type.String(),
    title: Type.Optional(Type.String()),
    type: Type.Optional(Type.String({ description: 'Kind of link (`website`, `socialmedia`, ...).' })),
  },
  'A web link: `url` with a `title` or a `type`.',
);

const metaFields = {
  name: Type.Optional(Type.String({ description: 'Absent when the issuer’s xrp-ledger.toml gives none.' })),
  description: Type.Optional(Type.String({ description: 'Absent when the issuer’s xrp-ledger.toml gives none.' })),
  icon: Type.Optional(Type.String({ description: 'Icon URL; absent when the xrp-ledger.toml gives none.' })),
  trust_level: Integer(
    '0: nothing links the account and its domain both ways; 1: the account’s Domain names the domain and ' +
      'its xrp-ledger.toml lists the account; 2: the toml also lists this token.',
    { minimum: 0, maximum: 2 },
  ),
  weblinks: Type.Array(Weblink),
};

/** An XLS-26 section: what the issuer's file holds, passed through unchecked. */
const TomlSection = (description: string) =>
  Type.Optional(Type.Unknown({ description: `${description} As the issuer’s file has it (not checked).` }));

/** `tomldata`: the issuer's xrp-ledger.toml (XLS-26), parsed; TOML dates as ISO text. */
const TomlData = OpenObject(
  {
    METADATA: TomlSection('Table: modified.'),
    ORGANIZATION: TomlSection('Table: name, website, twitter.'),
    PRINCIPALS: TomlSection('Array of tables: contact entries (name, email, ...).'),
    VALIDATORS: TomlSection(
      'Array of tables: public_key, attestation (optional), owner_country, server_country, network, unl.',
    ),
    SERVERS: TomlSection('Array of tables: peer, ws, rpc, network, port.'),
    ACCOUNTS: TomlSection('Array of tables: address, desc.'),
    ISSUERS: TomlSection('Array of tables: address, name.'),
    TOKENS: TomlSection('Array of tables: issuer, currency, name, desc, icon, WEBLINKS.'),
  },
  'The issuer domain’s xrp-ledger.toml (XLS-26), parsed (TOML dates as ISO text). Third-party content: ' +
    'sections and fields are served as the file has them; others may appear.',
);

const tokenFields = {
  id: Type.String({
    pattern: '^[0-9A-F]{40}\\.r[1-9A-HJ-NP-Za-km-z]{24,34}$',
    description: '`<currency_hex>.<issuer>`.',
  }),
  token: Type.String({ description: '`<code>.<issuer>`.' }),
  code: Type.String({ description: 'The currency code as text (40 hex characters when it does not decode).' }),
  currency: Type.String({ pattern: '^[0-9A-F]{40}$', description: 'The currency code, 40 hex characters.' }),
  issuer: Address,
  amms: Integer('AMM pools holding the token.', { minimum: 0 }),
  holders: Integer('Trust lines with a non-zero balance.', { minimum: 0 }),
  trustlines: Integer('Trust lines to the issuer in this currency.', { minimum: 0 }),
  createdAt: Nullable(IsoDate, 'First indexed transaction touching the token; null when none is indexed.'),
  updatedAt: Nullable(IsoDate, 'Last indexed transaction touching the token; null when none is indexed.'),
  blackholed: Type.Boolean({ description: 'The issuer can no longer sign (master key disabled, no other key).' }),
  disabled: Type.Boolean({ description: 'The issuer is deleted or froze all its lines (global freeze).' }),
  marketcap: Type.Number({ description: 'supply × price, in XRP (0 when no price is known).' }),
  price: Type.Number({ description: 'Price in XRP (0 when no price is known: `price_source` null).' }),
  price_source: Nullable(
    Type.Union([Type.Literal('amm'), Type.Literal('last_trade')]),
    'Where the price comes from: the spot price of the token’s deepest XRP pool (`amm`), its newest exchange ' +
      'against XRP (`last_trade`), or null: no price is known (price and marketcap are then 0, not a price of 0).',
  ),
  supply: Type.Number({ description: 'What the issuer owes its holders.' }),
  score: Type.Number({ minimum: 0, description: 'Token score (see the spec’s "Token score").' }),
  meta: OpenObject(
    {
      token: OpenObject(metaFields, 'The token’s description from the issuer’s xrp-ledger.toml.'),
      issuer: OpenObject(
        { ...metaFields, kyc: Type.Boolean({ description: 'The issuer passed KYC.' }) },
        'The issuer’s description from its xrp-ledger.toml.',
      ),
    },
    'Descriptions of the token and its issuer.',
  ),
  metrics: OpenObject(
    {
      trustlines: Integer('Trust lines.', { minimum: 0 }),
      holders: Integer('Holders with a non-zero balance.', { minimum: 0 }),
      exchanges_24h: Integer('Exchanges in the last 24 hours.', { minimum: 0 }),
      exchanges_7d: Integer('Exchanges in the last 7 days.', { minimum: 0 }),
      takers_24h: Integer('Distinct takers in the last 24 hours.', { minimum: 0 }),
      takers_7d: Integer('Distinct takers in the last 7 days.', { minimum: 0 }),
      supply: Type.String({ description: 'Decimal text.' }),
      marketcap: Type.String({ description: 'Decimal text, in XRP.' }),
      price: Type.String({ description: 'Decimal text, in XRP.' }),
      volume_24h: Type.String({ description: 'Decimal text, in XRP.' }),
      volume_7d: Type.String({ description: 'Decimal text, in XRP.' }),
    },
    'Metrics; amounts as exact decimal text.',
  ),
  toml_status: Nullable(
    OpenObject(
      {
        domain: Nullable(Type.String(), 'The issuer’s domain, null when it has none or it is not a domain.'),
        outcome: Type.Union(
          [
            'ok',
            'no_domain',
            'invalid_domain',
            'not_fetched',
            'forbidden_address',
            'not_found',
            'http_error',
            'too_large',
            'timeout',
            'invalid',
            'unreachable',
          ].map((o) => Type.Literal(o)),
          { description: 'What the last fetch of the xrp-ledger.toml gave.' },
        ),
        reason: Nullable(Type.String(), 'Why the outcome is not `ok`, in words.'),
        fetched_at: Nullable(IsoDate, 'When it was last fetched, null when never.'),
        source: Nullable(
          Type.String(),
          'Where it was read from: the XLS-26 well-known URL of the domain (or the file of an operator’s toml folder); null when never fetched.',
        ),
        data_fetched_at: Nullable(
          IsoDate,
          'When the `tomldata` shown was fetched: the last fetch whose outcome was `ok` (an older one when the last fetch failed); null when none was.',
        ),
      },
      'When and with what outcome the issuer’s xrp-ledger.toml was last fetched (not in the spec).',
    ),
    'Status of the issuer’s xrp-ledger.toml; null when the token was built before it was recorded.',
  ),
  IssuingAccount: Label,
};

/** GET /tokens entry. */
export const TokenListItem = OpenObject(tokenFields, 'An issued token with its metrics and score (no `tomldata`).');

/** GET /tokens. */
export const Tokens = Type.Array(TokenListItem, {
  description: 'Issued tokens without `tomldata`, ordered by `sort` and `direction`; ties ordered by id.',
});

/** GET /token/{TOKEN}. */
export const Token = OpenObject(
  {
    ...tokenFields,
    tomldata: Nullable(TomlData, 'The issuer’s xrp-ledger.toml; null when it has none or it could not be read.'),
  },
  'An issued token with its metrics, score and XLS-26 toml data.',
);

/** GET /nfts. */
export const IssuerNftsPage = OpenObject(
  {
    issuer: Address,
    taxon: Type.Optional(Integer('The taxon asked for.', { minimum: 0 })),
    nfts: Type.Array(NftInfo, {
      description:
        'The issuer’s NFTs in mint order (serial), live and burned; `ledger_index` is the ledger of each one’s last change.',
    }),
    limit: Integer('Page size used.', { minimum: 1 }),
    marker: Type.Optional(
      Type.String({ description: 'Present when more NFTs exist: pass it back as `marker` for the next page.' }),
    ),
  },
  'One page of the NFTs an account issued.',
);
