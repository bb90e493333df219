import { resolve } from 'node:path';
import { createProgress, defineCommand } from '@xle/core';
import { runValidatorsJob, type UnlSource } from '../validators/registry.js';
import { loadValidatorList, verifyValidatorList } from '../validators/validator-list.js';
import { withIngestEngine } from './context.js';

export const validatorsCommand = defineCommand({
  usage: 'validators [--list FILE_OR_URL] [--unl-name NAME] [--publisher KEY]... [--allow-expired]',
  summary:
    'compute the validators data set (registry, agreement, daily reports) from the collected\n' +
    'validations; --list: a signed validator list whose verified members are the UNL (--publisher:\n' +
    'refuse lists of other publishers)',
  options: {
    list: { type: 'string' },
    'unl-name': { type: 'string' },
    publisher: { type: 'string', multiple: true },
    'allow-expired': { type: 'boolean' },
  },
  run: async ({ values }) => {
    const source = values.list;
    let unl: UnlSource | undefined;
    if (source !== undefined) {
      const publishers = values.publisher ?? [];
      const list = verifyValidatorList(await loadValidatorList(source.startsWith('http') ? source : resolve(source)), {
        allowExpired: values['allow-expired'] === true,
        ...(publishers.length === 0 ? {} : { publishers }),
      });
      const name =
        values['unl-name'] ??
        (/^https?:\/\//.test(source) ? new URL(source).host : (list.publisher_domain ?? list.publisher_key));
      unl = { name, list };
    }
    return withIngestEngine(async ({ engine, logger }) => {
      if (unl !== undefined)
        logger.info(
          {
            publisher: unl.list.publisher_key,
            sequence: unl.list.sequence,
            expiration: unl.list.expiration,
            validators: unl.list.validators.length,
          },
          'validator list verified',
        );
      const progress = createProgress({ logger, label: 'validators', total: 4, unit: 'steps', format: '{step}' });
      const status = await runValidatorsJob({ engine, onStep: (step, done) => progress.update(done, { step }) }, unl);
      progress.stop();
      console.log(
        `validators: ${status.documents} documents as of ledger ${status.ledger_index} (${status.removed} stale removed)`,
      );
      return 0;
    });
  },
});
