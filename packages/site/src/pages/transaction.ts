import { h } from 'preact';
import type { Engine } from '@xle/api/engine';
import { offerCreation, transactionById } from '@xle/api/resources/transactions';
import { TxIdParam } from '@xle/api/schemas/params';
import { balanceChanges } from '../model/balance-changes.js';
import { thingPage, type AnyPage } from '../page.js';
import type { SiteChrome } from '../views/layout.js';
import { TransactionPage, type TransactionProps } from '../views/transaction.js';
import { linkContext } from './common.js';

/** One transaction (by hash or ctid) and what its page links. */
export async function loadTransaction(engine: Engine, id: string): Promise<TransactionProps> {
  const tx = await transactionById(engine, id);
  const changes = balanceChanges(tx.meta);
  const tokens = changes.flatMap((a) => a.changes.flatMap((c) => (c.token === undefined ? [] : [c.token])));
  // The offer an OfferCreate replaces or an OfferCancel cancels: the transaction that created it.
  const names =
    (tx.TransactionType === 'OfferCreate' || tx.TransactionType === 'OfferCancel') &&
    typeof tx.OfferSequence === 'number' &&
    typeof tx.Account === 'string';
  const [ctx, offerTx] = await Promise.all([
    linkContext(engine, [tx], { tokens }),
    names ? offerCreation(engine, String(tx.Account), Number(tx.OfferSequence), Number(tx.ledger_index)) : undefined,
  ]);
  return { tx, changes, ctx, ...(offerTx === undefined ? {} : { offerTx }) };
}

/** `/tx/{TRANSACTION_HASH}` (a ctid may replace the hash). */
export function transactionPage(engine: Engine, chrome: SiteChrome): AnyPage {
  // Validated transactions never change; what links from them can (a token's page appears).
  return thingPage(
    '/tx/:HASH',
    { schema: TxIdParam, name: 'a transaction hash or ctid', cache: 'data-set' },
    async (value) => h(TransactionPage, { chrome, props: await loadTransaction(engine, value) }),
  );
}
