export { apiRoutes, createApp } from './app.js';
export { startServer } from './server.js';
