export * from './accounting.js';
export * from './channel.js';
export * from './claim-header.js';
export * from './meter.js';
export * from './middleware.js';
export * from './store.js';
export * from './cli-channels.js';
