export * from './errors.js';
export * from './fetch.js';
export * from './instance.js';
export * from './lifecycle.js';
