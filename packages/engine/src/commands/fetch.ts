import { defineCommand, loadConfig } from '@xle/core';
import { fetchEngine } from '../fetch.js';
import { instanceFromConfig } from '../instance.js';

export const fetchCommand = defineCommand({
  usage: 'fetch',
  summary: 'download the Elasticsearch jars from Maven Central (once)',
  run: async () => {
    const instance = instanceFromConfig(loadConfig());
    fetchEngine(instance.home, (line) => console.log(line));
    console.log(`engine jars ready in ${instance.home}`);
    return 0;
  },
});
