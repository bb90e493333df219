export * from './app.js';
export * from './server.js';
