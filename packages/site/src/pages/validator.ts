import { h } from 'preact';
import Type from 'typebox';
import type { Json } from '@xle/documents';
import type { Engine } from '@xle/api/engine';
import { requireDataSet } from '@xle/api/data-set-gate';
import { amendmentList, VALIDATORS_DATA_SET } from '@xle/api/resources/data-sets';
import { validatorInfo, validatorRegistry, validatorReports } from '@xle/api/resources/validators';
import { decodeNodePublic } from 'xrpl';
import { PublicKeyParam } from '@xle/api/schemas/params';
import { thingPage, type AnyPage } from '../page.js';
import type { SiteChrome } from '../views/layout.js';
import { ValidatorPage, type ValidatorProps } from '../views/validator.js';
import { optional } from './common.js';

/** A node public key whose checksum holds: a key mistyped by a letter is a 400, not a 404. */
const ValidatorKeyParam = Type.Refine(
  PublicKeyParam,
  (key) => {
    try {
      decodeNodePublic(key);
      return true;
    } catch {
      return false;
    }
  },
  () => 'its checksum is wrong (a letter mistyped or missing)',
);

/** A validator: its agreement, daily reports, registry entry (version, votes) and the amendments it votes for. */
export async function loadValidator(engine: Engine, key: string): Promise<ValidatorProps> {
  await requireDataSet(engine, VALIDATORS_DATA_SET, '/validator/{VALIDATOR_PUBLIC_KEY}');
  const [info, reports, registry, amendments] = await Promise.all([
    validatorInfo(engine, key),
    validatorReports(engine, key),
    validatorRegistry(engine),
    optional(amendmentList(engine)),
  ]);
  const entry = registry.find((e) => e.master_key === info.master_key);
  const names = new Map((amendments ?? []).map((a) => [String(a.amendment_id), String(a.name)]));
  return { info, reports: (reports.reports ?? []) as Json[], entry, amendmentNames: names };
}

/** `/validator/{VALIDATOR_PUBLIC_KEY}` (master or ephemeral key). */
export function validatorPage(engine: Engine, chrome: SiteChrome): AnyPage {
  return thingPage(
    '/validator/:KEY',
    { schema: ValidatorKeyParam, name: 'a validator public key', cache: 'data-set' },
    async (value) => h(ValidatorPage, { chrome, props: await loadValidator(engine, value) }),
  );
}
