#!/usr/bin/env node
import { serverEntry } from '@xle/core';
import { createSearchApp } from './app.js';

/** The search API alone, on `search.port`. */
export const startSearchServer = serverEntry(
  import.meta.url,
  'search api',
  (config) => config.search.port,
  createSearchApp,
);
