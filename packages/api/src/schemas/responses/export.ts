import Type from 'typebox';
import { BALANCE_CHANGE_KINDS } from '@xle/documents';
import { Address, Hash, IsoDate, Nullable, OpenObject } from './common.js';

const Cursor = Type.String({ description: 'Pass it as `cursor` to resume the export after this line (opaque).' });
const UInt = (description: string) => Type.Integer({ minimum: 0, description });

/** One line of each kind of GET /export/{KIND}: the indexed document and its cursor. */
export const EXPORT_LINES = {
  transactions: OpenObject(
    {
      hash: Hash,
      ledger_index: UInt('Ledger of the transaction.'),
      TransactionType: Type.String(),
      meta: OpenObject(
        { TransactionIndex: UInt('Its place in the ledger.'), TransactionResult: Type.String() },
        'Its metadata, AffectedNodes included.',
      ),
      _cursor: Cursor,
    },
    'A transaction document: every field of the transaction under its XRPL name, its metadata, and the derived fields (`_date`, `_Fee`, `ctid`, `_accounts`, amounts with `_currency`, `_value`, `native`, ...).',
  ),
  ledgers: OpenObject(
    {
      ledger_index: UInt('Ledger index.'),
      ledger_hash: Hash,
      close_time: UInt('Close time, seconds since 2000-01-01.'),
      _cursor: Cursor,
    },
    'A ledger header document.',
  ),
  accounts: OpenObject(
    {
      Account: Address,
      Balance: Type.Union([Type.String(), OpenObject({})], {
        description: 'XRP balance (drops as text, or the amount object).',
      }),
      _updated_ledger_index: UInt('Ledger of its last change.'),
      _cursor: Cursor,
    },
    'An account document: the AccountRoot as of its last change, with its activation fields when known.',
  ),
  objects: OpenObject(
    {
      index: Hash,
      LedgerEntryType: Type.String(),
      ledger_index: UInt('Ledger of its last change.'),
      deleted: Type.Boolean({
        description:
          'True for an entry deleted in that ledger: its tombstone carries only index, LedgerEntryType and ledger_index (the guard that keeps a replay from bringing it back).',
      }),
      _cursor: Cursor,
    },
    'A ledger object document: the entry’s own fields as of its last change.',
  ),
} as const;

/** One NDJSON line of GET /export/{KIND}. */
export const ExportLine = Type.Union(Object.values(EXPORT_LINES), {
  description:
    'One NDJSON line: the indexed document of a transaction, ledger, account or ledger object, plus `_cursor`.',
});

const Positive = (description: string) =>
  Nullable(Type.String({ pattern: '^[0-9]+(?:\\.[0-9]+)?(?:e[+-]?[0-9]+)?$', description }));
const Tag = (description: string) => Nullable(Type.Integer({ minimum: 0, maximum: 4_294_967_295, description }));

/**
 * One row of GET /export/balance_changes (an NDJSON line; CSV has the same columns, an empty cell
 * for null): what left the account, what came in, the fee apart.
 */
export const AccountingLine = Type.Object(
  {
    date: Nullable(IsoDate),
    kind: Nullable(Type.Union(BALANCE_CHANGE_KINDS.map((k) => Type.Literal(k))), 'What moved the balance.'),
    sent_amount: Positive('What left the account, exact decimal (XRP in XRP); null when nothing left.'),
    sent_currency: Nullable(Type.String(), 'XRP, or the token code as the ledger names it.'),
    sent_issuer: Nullable(Address, 'The token’s issuer; null for XRP.'),
    received_amount: Positive('What came in, exact decimal; null when nothing came in.'),
    received_currency: Nullable(Type.String(), 'XRP, or the token code.'),
    received_issuer: Nullable(Address, 'The token’s issuer; null for XRP.'),
    fee_amount: Positive('The transaction fee in XRP, on its first row; null elsewhere.'),
    fee_currency: Nullable(Type.Literal('XRP')),
    counterparty: Nullable(Address, 'The other account of the transfer, when there is one.'),
    destination_tag: Tag('The payment’s DestinationTag.'),
    source_tag: Tag('The payment’s SourceTag.'),
    ledger_index: Nullable(UInt('Ledger of the transaction.')),
    hash: Nullable(Hash),
  },
  { additionalProperties: false, description: 'One row: NDJSON as an object, CSV as the same columns.' },
);
