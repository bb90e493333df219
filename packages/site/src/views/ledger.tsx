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
  /** The nearest indexed ledgers before and after it (the neighbours when history is contiguous). */
  previous?: number | undefined;
  next?: number | undefined;
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
        {props.previous === undefined ? null : (
          <a class="button secondary" href={ledgerHref(props.previous)}>
            {props.previous === index - 1
              ? 'Previous ledger'
              : `Previous indexed ledger (${formatValue(props.previous)}; ${formatCount(index - 1 - props.previous)} not indexed between)`}
          </a>
        )}
        {props.next === undefined ? null : (
          <a class="button secondary" href={ledgerHref(props.next)}>
            {props.next === index + 1
              ? 'Next ledger'
              : `Next indexed ledger (${formatValue(props.next)}; ${formatCount(props.next - index - 1)} not indexed between)`}
          </a>
        )}
      </nav>
      <Facts
        items={[
          ['Closed', <Time iso={ledger.close_time_human as string} />],
          ['Transactions', formatCount(Number(ledger.tx_count ?? props.transactions.length))],
          ['Ledger hash', <span class="mono">{String(ledger.ledger_hash)}</span>],
          [
            'Parent hash',
            props.previous === index - 1 ? (
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
