/**
 * The amount-like fields: exactly the top-level properties of the shared amount component
 * (index-templates/components/amount.json, generated from ripple-binary-codec's definitions by
 * `pnpm templates:generate`). A unit test compares the two, so the mapping and the transform
 * cannot disagree; the list is written here so that the transforms read no file.
 */
export const AMOUNT_FIELDS: readonly string[] = [
  'Amount',
  'Amount2',
  'Asset',
  'Asset2',
  'Balance',
  'BaseFeeDrops',
  'BidMax',
  'BidMin',
  'DeliverMax',
  'DeliverMin',
  'DeliveredAmount',
  'EPrice',
  'FeeAmount',
  'FeeAmountDelta',
  'HighLimit',
  'IssuingChainIssue',
  'LPTokenBalance',
  'LPTokenIn',
  'LPTokenOut',
  'LimitAmount',
  'LockingChainIssue',
  'LowLimit',
  'MaxFee',
  'MinAccountCreateAmount',
  'MinimumOffer',
  'NFTokenBrokerFee',
  'Price',
  'ReserveBaseDrops',
  'ReserveIncrementDrops',
  'RippleEscrow',
  'SendMax',
  'SignatureReward',
  'TakerGets',
  'TakerPays',
];

const AMOUNT_FIELD_SET: ReadonlySet<string> = new Set(AMOUNT_FIELDS);

/**
 * Whether a property name is an amount-like field. A set lookup per property of an object costs
 * less than looking each of the ~40 names up in every entry and transaction (most are absent).
 */
export function isAmountField(name: string): boolean {
  return AMOUNT_FIELD_SET.has(name);
}
