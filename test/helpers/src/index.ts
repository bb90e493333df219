export * from './engine.js';
export * from './fixtures.js';
export * from './transactions.js';
export * from './content.js';
export * from './replay-rippled.js';
export * from './validators.js';
export * from './toml.js';
export * from './cli.js';
