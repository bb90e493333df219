import type { Json } from '@xle/documents';
import { formatCount, formatValue, xrpOfDrops } from '../model/format.js';
import { ledgerHref } from '../model/links.js';
import { Layout, type SiteChrome } from './layout.js';
import { Facts, RawJson, Section, Time, type LinkContext } from './parts.js';
import { TxTable } from './tx-table.js';

export interface LedgerProps {
  /** GET /ledger/{LEDGER_INDEX} and …/transactions. */
  ledger: Json;
  transactions: readonly Json[];
  /** Whether the ledgers before and after it are indexed (their pages answer). */
  previous: boolean;
  next: boolean;
  ctx: LinkContext;
}

/** `/ledger/{LEDGER_INDEX}`. */
export function LedgerPage({ chrome, props }: { chrome: SiteChrome; props: LedgerProps }) {
  const { ledger } = props;
  const index = Number(ledger.ledger_index);
  const coins = ledger.total_coins;
  return (
    <Layout chrome={chrome} title={`Ledger ${index}`}>
      <h1>
        <span class="kicker">Ledger</span>
        {formatValue(index)}
      </h1>
      <nav class="pager" aria-label="Neighbouring ledgers">
        {props.previous ? (
          <a class="button secondary" href={ledgerHref(index - 1)}>
            Previous ledger
          </a>
        ) : null}
        {props.next ? (
          <a class="button secondary" href={ledgerHref(index + 1)}>
            Next ledger
          </a>
        ) : null}
      </nav>
      <Facts
        items={[
          ['Closed', <Time iso={ledger.close_time_human as string} />],
          ['Transactions', formatCount(Number(ledger.tx_count ?? props.transactions.length))],
          ['Ledger hash', <span class="mono">{String(ledger.ledger_hash)}</span>],
          [
            'Parent hash',
            props.previous ? (
              <a class="mono" href={ledgerHref(index - 1)}>
                {String(ledger.parent_hash)}
              </a>
            ) : (
              <span class="mono">{String(ledger.parent_hash)}</span>
            ),
          ],
          typeof coins === 'number' || typeof coins === 'string' || typeof coins === 'bigint'
            ? ['XRP in existence', `${formatValue(xrpOfDrops(String(coins)))} XRP`]
            : null,
          ['Transaction tree hash', <span class="mono">{String(ledger.transaction_hash ?? '')}</span>],
          ledger.account_hash !== undefined && [
            'State tree hash',
            <span class="mono">{String(ledger.account_hash)}</span>,
          ],
          ['Close time resolution', `${String(ledger.close_time_resolution ?? '')} s`],
          ['Close flags', String(ledger.close_flags ?? '')],
        ]}
      />
      <Section id="transactions" title={`Transactions (${formatCount(props.transactions.length)})`}>
        <TxTable
          caption={`Transactions of ledger ${index}`}
          transactions={props.transactions}
          ctx={props.ctx}
          ledger={false}
        />
      </Section>
      <RawJson value={ledger} label="The raw ledger header (JSON)" />
    </Layout>
  );
}
