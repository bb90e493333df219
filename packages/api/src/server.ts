#!/usr/bin/env node
import { serverEntry } from '@xle/core';
import { createApp } from './app.js';

/** The REST API (with the search API mounted beside it unless `search.mount` is off) on `api.port`. */
export const startServer = serverEntry(import.meta.url, 'api', (config) => config.api.port, createApp);
