export * from './engine.js';
export * from './fixtures.js';
