// The access package: plans with API keys and daily quotas, and pay-as-you-go claims.
export * from './plans/api-keys.js';
export * from './plans/burst-limiter.js';
export * from './plans/client-address.js';
export * from './plans/key-store.js';
export * from './plans/middleware.js';
export * from './plans/plans.js';
export * from './plans/usage-counter.js';
export * from './payg/index.js';
