export * from './transform/amount.js';
export * from './transform/ctid.js';
export * from './transform/currency.js';
export * from './transform/hex.js';
export * from './transform/time.js';
export * from './transform/transaction.js';
