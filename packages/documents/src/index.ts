export {
  activityDocuments,
  activityId,
  openingActivityDocument,
  type ActivityChange,
  type ActivityDoc,
  type ActivitySource,
} from './activity.js';
// The XRPL document model: what a transaction, ledger, account and ledger-object document is,
// built from rippled JSON by pure transforms, and the helpers both the writer (ingester) and the
// readers (api, search, access) need. Nothing here does I/O or knows the engine.
export { type Json, isRecord } from './json.js';
export {
  type AmountDoc,
  type RawAmount,
  dropsToXrpString,
  normalizeAmount,
  rawAmount,
  xrpStringToDrops,
} from './amount.js';
export { AMOUNT_FIELDS, isAmountField } from './amount-fields.js';
export { boundedMemo } from './memo.js';
export { AUCTION_INTERVALS, auctionTimeInterval } from './amm.js';
export {
  BALANCE_CHANGE_KINDS,
  type BalanceChangeDoc,
  type BalanceChangeKind,
  type BalanceChangeSource,
  type RawBalanceChange,
  balanceChangeDocuments,
  balanceChangeKind,
  type LedgerMarkerDoc,
  ledgerMarkerDocument,
  openingBalanceDocuments,
  openingPosition,
  rawBalanceChanges,
} from './balance-changes.js';
export { type CtidParts, decodeCtid, encodeCtid, isCtid } from './ctid.js';
export { decodeCurrency, isLpTokenCode, isStandardCurrencyCode, LP_TOKEN_CURRENCY } from './currency.js';
export {
  type AsOf,
  type DataSetCoverage,
  type DataSetDocument,
  type FactNamespace,
  type JobStatus,
  type MetricId,
  AMM_TRANSACTION_TYPES,
  bracketName,
  dataSetCoverage,
  FACT_DESCRIPTIONS,
  FACT_NAMESPACES,
  LISTED_OBJECT_TYPES,
  METRIC_IDS,
  VALIDATORS_JOB,
  XRP_BRACKETS,
} from './data-sets.js';
export { type FixedObjectName, FIXED_OBJECT_IDS, FIXED_SPACES } from './fixed-objects.js';
export { decodeHexText } from './hex.js';
export { type LedgerInput, LedgerShapeError, normalizeLedger } from './ledger-input.js';
export { addToRanges, gapsOf, subtractRanges, type LedgerRange } from './ledger-ranges.js';
export {
  type LedgerVerification,
  checkLedgerChain,
  encodeAsStored,
  encodeLedgerHeader,
  hashLedgerHeader,
  verifyLedger,
} from './ledger-verify.js';
export { type LedgerDoc, transformLedger } from './ledger.js';
export { asRippledJson } from './rippled-json.js';
export {
  type NftChange,
  type NftDoc,
  type NftIdentity,
  nftChanges,
  nftIdentity,
  nftPageChanges,
  nftsTouched,
  pageOwner,
  parseNftFlags,
  snapshotNfts,
} from './nft.js';
export { type StatePage, parseStatePage, stateEntry } from './state-page.js';
export {
  type AccountActivation,
  type AccountChange,
  type ObjectDoc,
  type StateChange,
  accountDocument,
  changeVersion,
  entryFields,
  objectDocument,
  rawEntry,
  stateChanges,
  withNewestThreading,
  type ThreadChange,
} from './state.js';
export {
  isoToRippleTime,
  parseRippledTimeText,
  RIPPLE_EPOCH_OFFSET,
  rippledTimeText,
  rippleTimeToIso,
} from './time.js';
export {
  type ExchangeSide,
  type TrustLineSide,
  currencyHex,
  exchangesOf,
  tokenId,
  tokensTouched,
  trustLineFields,
  trustLineSides,
} from './tokens.js';
export {
  type TransactionContext,
  type TransactionDoc,
  affectedAccounts,
  isAccountIdField,
  TRANSACTION_TYPE_NAMES,
  touchedObjects,
  transformTransaction,
} from './transaction.js';
export { type TrustLine, obligationsOf, trustLineOf } from './trust-lines.js';
export {
  type AmountParts,
  HOLDING_SUM_AGGS,
  type PartSums,
  amountParts,
  holdingSumOf,
  sumOfParts,
} from './exact-sum.js';
export { addDecodedTwins } from './twins.js';
export { DELIVERED_AMOUNT_LEDGER, deliveredAmount } from './delivered-amount.js';
export { mptIssuanceId, syntheticMetaFields } from './synthetic-meta.js';
