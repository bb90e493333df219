// The access package: plans with API keys and daily quotas, and pay-as-you-go claims.
export { type ChannelReport, channelsCommand, listChannelReports, renderChannelReports } from './commands/channels.js';
export { type ApiKeyRecord, ApiKeyStore } from './engine/api-key-store.js';
export { PaygStore, type VersionedAccount } from './engine/payg-store.js';
export { type UsageDoc, UsageStore, type VersionedUsage } from './engine/usage-store.js';
export {
  admitRequest,
  type ChannelAccount,
  type LatestClaim,
  refundRequest,
  requestsCovered,
} from './payg/accounting.js';
export {
  channelFromDoc,
  type ChannelRules,
  checkChannel,
  type PayChannelState,
  toRippleTime,
  verifyClaimSignature,
} from './payg/channel.js';
export {
  formatPaymentClaim,
  hasPaymentClaim,
  MAX_DROPS,
  PAYMENT_CLAIM_FORMAT,
  PAYMENT_CLAIM_HEADER,
  parsePaymentClaim,
  type PaymentClaim,
} from './payg/claim-header.js';
export { ChannelMeter, KeyedQueue, type MeterOptions } from './payg/meter.js';
export {
  claimOrElse,
  paygDestinationOf,
  paymentClaims,
  type PaymentClaimsDeps,
  type PaymentState,
  REMAINING_HEADER,
  searchPayments,
  SERVED_HEADER,
} from './payg/middleware.js';
export {
  API_KEY_PATTERN,
  carriesApiKey,
  type Credential,
  generateApiKey,
  hashApiKey,
  keyIdOf,
  readCredential,
} from './plans/api-keys.js';
export { BurstLimiter } from './plans/burst-limiter.js';
export { clientAddress, normalizeAddress } from './plans/client-address.js';
export {
  type AccessState,
  KEY_MAX_AGE_MS,
  planLimits,
  type PlanLimitsDeps,
  type PlanLimitsOptions,
  RATE_LIMIT_HEADERS,
  SEARCH_PATHS,
  searchAccess,
  isUnmetered,
  UNMETERED_PATHS,
} from './plans/middleware.js';
export {
  isKeyPlan,
  type KeyPlan,
  KEY_PLANS,
  type Plan,
  type PlanLimit,
  planLimitsOf,
  PLANS,
  secondsUntilUtcMidnight,
  utcDay,
} from './plans/plans.js';
export { leaseBlock, QuotaLeases, type QuotaLeaseOptions } from './plans/quota-leases.js';
export {
  type ConsumeResult,
  counterId,
  type CounterKey,
  firstKeptDay,
  type Reservation,
  UsageCounter,
} from './plans/usage-counter.js';
