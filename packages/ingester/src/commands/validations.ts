import { abortOnSignals, defineCommand } from '@xle/core';
import { consumeValidations, ValidationStore } from '../validators/consumer.js';
import { withIngestEngine } from './context.js';

export const validationsCommand = defineCommand({
  usage: 'validations [--url WS_URL]',
  summary:
    "follow rippled's validations and manifests streams (default RIPPLED_URL) into the validations and\nmanifests indices, until interrupted",
  options: { url: { type: 'string' } },
  run: ({ values }) =>
    withIngestEngine(async ({ engine, config, logger }) => {
      const totals = await consumeValidations(
        { url: values.url ?? config.xrpl.url, store: new ValidationStore(engine), logger },
        abortOnSignals(),
      );
      console.log(
        `validations: ${totals.validations} (${totals.unverified} unverified, ${totals.malformed} malformed), ` +
          `manifests: ${totals.manifests} (${totals.rejectedManifests} refused, ${totals.supersededManifests} superseded), ` +
          `${totals.failed} refused by the engine`,
      );
      return totals.failed > 0 ? 1 : 0;
    }),
});
