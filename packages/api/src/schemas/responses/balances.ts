import Type from 'typebox';
import { BALANCE_CHANGE_KINDS } from '@xle/documents';
import { Address, Hash, IsoDate, Nullable } from './common.js';

/**
 * 200-response schemas of the balance routes (resources/balances.ts, shapers/balances.ts). Closed
 * objects: every field is listed and always present (null where it does not apply).
 */

const LedgerIndex = Type.Integer({ minimum: 0, description: 'Ledger index.' });
const Decimal = (description: string) => Type.String({ pattern: '^-?[0-9]+(?:\\.[0-9]+)?$', description });
const CurrencyCode = Type.String({
  minLength: 1,
  description: 'Currency code, decoded to text where the hex code is text; XRP for XRP.',
});
const CurrencyHex = Type.String({
  pattern: '^(?:XRP|[0-9A-F]{40})$',
  description: 'The code in its 40-hex form; XRP for XRP.',
});
const CompleteFrom = Nullable(
  LedgerIndex,
  'The ledger from which the account’s balances are all known in this index: where its history starts here (its creation, or a whole state snapshot), with no ledger missing since. Null when the index does not hold such a history.',
);

export const BalanceChange = Type.Object(
  {
    ledger_index: LedgerIndex,
    transaction_index: Type.Integer({
      minimum: 0,
      maximum: 65535,
      description: 'Position of the transaction in its ledger (65535 for a snapshot’s opening balance).',
    }),
    position: Type.Integer({
      minimum: 0,
      description:
        'Order of the change among its transaction’s (the sender’s fee before its other XRP change); for an opening balance, a number made from its ledger entry’s id.',
    }),
    hash: Nullable(Hash, 'Transaction hash; null for an opening balance.'),
    date: Nullable(IsoDate, 'Close time of the ledger; null for an opening balance.'),
    transaction_type: Nullable(Type.String(), 'Transaction type; null for an opening balance.'),
    result: Nullable(Type.String(), 'Transaction result; null for an opening balance.'),
    kind: Type.Union(
      BALANCE_CHANGE_KINDS.map((k) => Type.Literal(k)),
      { description: 'Why the balance changed (fee: the sender’s fee; opening: a state snapshot’s balance).' },
    ),
    currency: CurrencyCode,
    currency_hex: CurrencyHex,
    issuer: Nullable(Address, 'The other side of the trust line, seen from the account; null for XRP.'),
    value: Decimal('The change, exact (XRP in XRP): positive when the account gained.'),
    balance: Decimal('The balance of this asset after the change, exact.'),
    counterparty: Nullable(
      Address,
      'The transaction’s other party: its destination for the sender, its sender for anyone else.',
    ),
    destination_tag: Nullable(Type.Integer({ minimum: 0 }), 'The transaction’s DestinationTag.'),
    source_tag: Nullable(Type.Integer({ minimum: 0 }), 'The transaction’s SourceTag.'),
  },
  { additionalProperties: false, description: 'One change of one balance of the account.' },
);

/** GET /account/{ACCOUNT}/balance_changes. */
export const AccountBalanceChanges = Type.Object(
  {
    account: Address,
    complete_from_ledger: CompleteFrom,
    changes: Type.Array(BalanceChange, { description: 'Oldest first.' }),
    marker: Nullable(Type.String(), 'Resumes the list after this page; null on the last page.'),
  },
  { additionalProperties: false },
);

export const Balance = Type.Object(
  {
    currency: CurrencyCode,
    currency_hex: CurrencyHex,
    issuer: Nullable(Address, 'The other side of the trust line; null for XRP.'),
    value: Decimal('The balance, exact (XRP in XRP; negative: the account owes it, as an issuer).'),
    ledger_index: Type.Integer({ minimum: 0, description: 'The ledger of the change that set it.' }),
  },
  { additionalProperties: false },
);

/** GET /account/{ACCOUNT}/balances. */
export const AccountBalances = Type.Object(
  {
    account: Address,
    ledger_index: Type.Integer({ minimum: 0, description: 'The balances at the end of this ledger.' }),
    date: Type.With(IsoDate, { description: 'Its close time.' }),
    complete_from_ledger: CompleteFrom,
    balances: Type.Array(Balance, {
      description: 'XRP first, then every token balance that is not zero, by currency and issuer.',
    }),
  },
  { additionalProperties: false },
);

/** GET /account/{ACCOUNT}/balance_history. */
export const AccountBalanceHistory = Type.Object(
  {
    account: Address,
    currency: CurrencyCode,
    currency_hex: Type.String({ description: 'The code in its 40-hex form; XRP for XRP.' }),
    issuer: Nullable(Address, 'The issuer; null for XRP.'),
    interval: Type.Union([Type.Literal('day'), Type.Literal('week'), Type.Literal('month')]),
    from: IsoDate,
    to: IsoDate,
    complete_from_ledger: CompleteFrom,
    points: Type.Array(
      Type.Object(
        {
          date: Type.With(IsoDate, { description: 'Start of the interval.' }),
          balance: Decimal('The balance at its end (at `to` for the last one).'),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
