#!/usr/bin/env node
import { serverEntry } from '@xle/core';
import { createApp } from '@xle/api';
import { siteMiddleware } from './mount.js';

/**
 * The API process users run (`pnpm serve`): the REST API, the search API mounted beside it unless
 * `search.mount` is off, and the website in front of both unless `site.enabled` is off, on `api.port`.
 */
export const startServer = serverEntry(
  import.meta.url,
  'api',
  (config) => config.api.port,
  (deps) => createApp(deps, { site: siteMiddleware }),
);
