import { h } from 'preact';
import Type from 'typebox';
import type { Json } from '@xle/documents';
import type { Engine } from '@xle/api/engine';
import { requireDataSet } from '@xle/api/data-set-gate';
import { NotFoundError } from '@xle/core';
import { amendmentById, amendmentList, AMENDMENTS_DATA_SET } from '@xle/api/resources/data-sets';
import { ledgerById } from '@xle/api/resources/ledgers';
import { transactionById } from '@xle/api/resources/transactions';
import { validatorRegistry } from '@xle/api/resources/validators';
import { thingPage, type AnyPage } from '../page.js';
import { AmendmentPage, type AmendmentProps } from '../views/amendment.js';
import type { SiteChrome } from '../views/layout.js';
import { optional } from './common.js';

/** An amendment's id (64 hex digits) or its name as rippled knows it (`AMM`, `fixNFTokenRemint`). */
const AmendmentIdOrName = Type.String({
  pattern: '^(?:[0-9A-Fa-f]{64}|[A-Za-z][A-Za-z0-9_]{0,63})$',
  description: 'An amendment id (64 hex digits) or its name (AMM, fixNFTokenRemint).',
});

/** The id of an amendment given by id or by name (its exact name first, then in any case). */
async function amendmentIdOf(engine: Engine, idOrName: string): Promise<string> {
  if (/^[0-9A-Fa-f]{64}$/.test(idOrName)) return idOrName;
  const all = await amendmentList(engine);
  const found =
    all.find((a) => a.name === idOrName) ?? all.find((a) => String(a.name).toLowerCase() === idOrName.toLowerCase());
  if (found === undefined) throw new NotFoundError(`No amendment is named ${idOrName}.`, { amendment: idOrName });
  return String(found.amendment_id);
}

/**
 * An amendment, the validators whose newest validations vote for it, and whether the transaction
 * and ledger that enabled it are indexed (their pages are linked only then).
 */
export async function loadAmendment(engine: Engine, id: string): Promise<AmendmentProps> {
  await requireDataSet(engine, AMENDMENTS_DATA_SET, '/amendment/{AMENDMENT_ID}');
  const [amendment, registry] = await Promise.all([
    amendmentIdOf(engine, id).then((found) => amendmentById(engine, found)),
    optional(validatorRegistry(engine)),
  ]);
  const [tx, ledger] = await Promise.all([
    typeof amendment.tx_hash === 'string' ? optional(transactionById(engine, amendment.tx_hash)) : undefined,
    typeof amendment.ledger_index === 'number'
      ? optional(ledgerById(engine, String(amendment.ledger_index)))
      : undefined,
  ]);
  const voters = (registry ?? []).filter((v) =>
    (((v.votes as Json | undefined)?.amendments ?? []) as string[]).includes(String(amendment.amendment_id)),
  );
  return {
    amendment,
    voters,
    validators: registry?.length,
    enablingTxIndexed: tx !== undefined,
    enablingLedgerIndexed: ledger !== undefined,
  };
}

/** `/amendment/{AMENDMENT_ID}`. */
export function amendmentPage(engine: Engine, chrome: SiteChrome): AnyPage {
  return thingPage(
    '/amendment/:AMENDMENT_ID',
    { schema: AmendmentIdOrName, name: 'an amendment id or name', cache: 'data-set' },
    async (value) => h(AmendmentPage, { chrome, props: await loadAmendment(engine, value) }),
  );
}
