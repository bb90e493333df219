export { apiRoutes, createApp, type AppOptions, type SiteMount, type SiteParts } from './app.js';
export { apiServer, startServer } from './server.js';
