import type { Json } from '@xle/documents';
import type { Effect } from '@xle/api/resources/balances';
import { feeText, formatChange } from '../model/format.js';
import { summarize } from '../model/summary.js';
import { Empty, LedgerLink, Result, Summary, Table, Time, TokenValue, TxLink, type LinkContext } from './parts.js';

const resultOf = (tx: Json): string => String((tx.meta as Json | undefined)?.TransactionResult ?? '');

/** A list of transactions (REST shape): when, where, what (its summary), and how it ended. */
export function TxTable({
  caption,
  transactions,
  ctx,
  ledger = true,
  effects,
}: {
  caption: string;
  transactions: readonly Json[];
  ctx: LinkContext;
  /** Show each one's ledger (not on a ledger's own page). */
  ledger?: boolean;
  /** On an account's page: what each transaction did to its balances (by hash), shown beside the summary. */
  effects?: ReadonlyMap<string, readonly Effect[]> | undefined;
}) {
  if (transactions.length === 0) return <Empty>No transactions.</Empty>;
  const head = [
    ...(ledger ? ['Time', 'Ledger'] : ['#']),
    'Type',
    'Summary',
    ...(effects === undefined ? [] : ['Balance change']),
    'Result',
    'Fee (XRP)',
    'Transaction',
  ];
  return (
    <Table caption={caption} head={head} cards>
      {transactions.map((tx) => (
        <tr>
          {ledger ? (
            <>
              <td data-label="Time">
                <Time iso={tx.date as string} />
              </td>
              <td data-label="Ledger">
                <LedgerLink index={Number(tx.ledger_index)} />
              </td>
            </>
          ) : (
            <td class="num" data-label="#">
              {String((tx.meta as Json | undefined)?.TransactionIndex ?? '')}
            </td>
          )}
          <td data-label="Type">{String(tx.TransactionType)}</td>
          <td data-label="Summary">
            <span>
              <Summary segments={summarize(tx)} ctx={ctx} />
            </span>
          </td>
          {effects === undefined ? null : (
            <td class="num effects" data-label="Balance change">
              {(effects.get(String(tx.hash)) ?? []).map((e) => (
                <span
                  class={`effect ${e.value.startsWith('-') ? 'negative' : 'positive'}`}
                  title={e.issuer === null ? undefined : `${e.currency} issued by ${e.issuer}`}
                >
                  {e.issuer === null ? formatChange(e.value) : <TokenValue value={e.value} signed />} {e.currency}
                </span>
              ))}
            </td>
          )}
          <td data-label="Result">
            <Result code={resultOf(tx)} />
          </td>
          <td class="num" data-label="Fee (XRP)">
            {feeText(tx.Fee)}
          </td>
          <td data-label="Transaction">
            <TxLink hash={String(tx.hash)} />
          </td>
        </tr>
      ))}
    </Table>
  );
}
