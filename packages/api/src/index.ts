export { apiRoutes, createApp, type AppOptions, type SiteMount, type SiteParts } from './app.js';
export { startServer } from './start-api.js';
