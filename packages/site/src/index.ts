export { siteMiddleware } from './mount.js';
export { startServer } from './server.js';
