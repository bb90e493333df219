import { h } from 'preact';
import Type from 'typebox';
import type { Json } from '@xle/documents';
import type { Engine } from '@xle/api/engine';
import { requireDataSet } from '@xle/api/data-set-gate';
import { amendmentById, AMENDMENTS_DATA_SET } from '@xle/api/resources/data-sets';
import { ledgerById } from '@xle/api/resources/ledgers';
import { transactionById } from '@xle/api/resources/transactions';
import { validatorRegistry } from '@xle/api/resources/validators';
import { HashParam } from '@xle/api/schemas/params';
import { definePage, type AnyPage } from '../page.js';
import { AmendmentPage, type AmendmentProps } from '../views/amendment.js';
import type { SiteChrome } from '../views/layout.js';
import { optional } from './common.js';

/**
 * An amendment, the validators whose newest validations vote for it, and whether the transaction
 * and ledger that enabled it are indexed (their pages are linked only then).
 */
export async function loadAmendment(engine: Engine, id: string): Promise<AmendmentProps> {
  await requireDataSet(engine, AMENDMENTS_DATA_SET, '/amendment/{AMENDMENT_ID}');
  const [amendment, registry] = await Promise.all([amendmentById(engine, id), optional(validatorRegistry(engine))]);
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
  return definePage({
    path: '/amendment/:AMENDMENT_ID',
    params: Type.Object({ AMENDMENT_ID: HashParam }),
    names: { AMENDMENT_ID: 'an amendment id' },
    cache: 'data-set',
    render: async ({ params }) => h(AmendmentPage, { chrome, props: await loadAmendment(engine, params.AMENDMENT_ID) }),
  });
}
