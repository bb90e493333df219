import { AMOUNT_FIELDS, decodeHexText, rippleTimeToIso, isAccountIdField, type Json } from '@xle/documents';
import type { AccountBalanceChanges } from '../model/balance-changes.js';
import { amountView, feeText, formatChange, sameAmount, xrpDecimals } from '../model/format.js';
import { isPartialPayment, transactionFlagNames } from '../model/flags.js';
import { memosOf, type MemoField } from '../model/memos.js';
import { deliveredAmount, summarize } from '../model/summary.js';
import { Layout, type SiteChrome } from './layout.js';
import {
  AccountLink,
  Amount,
  AmendmentLink,
  Empty,
  Facts,
  LedgerLink,
  NftLink,
  RawJson,
  TxLink,
  Result,
  Section,
  Summary,
  Table,
  Time,
  TokenName,
  TokenValue,
  type LinkContext,
} from './parts.js';

export interface TransactionProps {
  /** GET /tx/{HASH}. */
  tx: Json;
  /** Balance changes per account, from its metadata. */
  changes: readonly AccountBalanceChanges[];
  ctx: LinkContext;
  /** The OfferCreate that made the offer this one replaces or cancels, when indexed. */
  offerTx?: string | undefined;
}

/** Fields the page shows in its own places (or not at all: signatures), left out of "Other fields". */
const SHOWN = new Set([
  'TransactionType',
  'Account',
  'Destination',
  'DestinationTag',
  'SourceTag',
  'Fee',
  'Sequence',
  'TicketSequence',
  'hash',
  'ctid',
  'ledger_index',
  'ledger_hash',
  'date',
  'validated',
  'meta',
  'Memos',
  'TxnSignature',
  'SigningPubKey',
  'Signers',
  'AccountName',
  'DestinationName',
  'AmendmentName',
  'SigningPubKeyAccount',
  'DeliverMax',
  'Flags',
]);

/** Address fields (type AccountID) of a transaction, besides the sender and destination, which the page shows on their own. */
const isOtherAccountField = (name: string): boolean =>
  name !== 'Account' && name !== 'Destination' && isAccountIdField(name);
const TIME_FIELDS = new Set(['Expiration', 'CancelAfter', 'FinishAfter']);
const TEXT_FIELDS = new Set(['Domain', 'URI', 'EmailHash']);

function FieldValue({ name, value, tx, ctx }: { name: string; value: unknown; tx: Json; ctx: LinkContext }) {
  if (AMOUNT_FIELDS.includes(name)) {
    const amount = amountView(value);
    if (amount !== undefined) return <Amount amount={amount} ctx={ctx} />;
  }
  if (isOtherAccountField(name) && typeof value === 'string') return <AccountLink address={value} ctx={ctx} />;
  if (name === 'NFTokenID' && typeof value === 'string') return <NftLink id={value} full />;
  if (name === 'Amendment' && typeof value === 'string')
    return typeof tx.AmendmentName === 'string' ? (
      <AmendmentLink id={value} name={tx.AmendmentName} />
    ) : (
      <span class="mono">{value}</span>
    );
  if (TIME_FIELDS.has(name) && typeof value === 'number') return <Time iso={rippleTimeToIso(value)} />;
  if (TEXT_FIELDS.has(name) && typeof value === 'string') {
    const text = name === 'EmailHash' ? undefined : decodeHexText(value);
    return text === undefined ? (
      <span class="mono">{value}</span>
    ) : (
      <>
        “{text}” <span class="mono muted">({value})</span>
      </>
    );
  }
  if (typeof value === 'object' && value !== null) return <code>{JSON.stringify(value)}</code>;
  return <>{String(value)}</>;
}

function ChangeRows({
  changes,
  ctx,
  head,
}: {
  changes: readonly { account: string; change: AccountBalanceChanges['changes'][number] }[];
  ctx: LinkContext;
  head: readonly [string, string, string];
}) {
  return (
    <>
      {changes.map(({ account, change }) => (
        <tr>
          <td data-label={head[0]}>
            <AccountLink address={account} ctx={ctx} />
          </td>
          <td data-label={head[1]} class={`num ${change.value.startsWith('-') ? 'negative' : 'positive'}`}>
            {change.counterparty === undefined ? (
              formatChange(xrpDecimals(change.value))
            ) : (
              <TokenValue value={change.value} signed />
            )}
          </td>
          <td data-label={head[2]}>
            {change.counterparty === undefined ? (
              'XRP'
            ) : change.issuing === true ? (
              <>
                {change.code} <span class="muted">to</span> <AccountLink address={change.counterparty} ctx={ctx} />
              </>
            ) : (
              <TokenName currency={change.currency} issuer={change.counterparty} token={change.token} ctx={ctx} />
            )}
          </td>
        </tr>
      ))}
    </>
  );
}

const OWN_HEAD = ['Account', 'Change', 'Currency'] as const;
const MIRROR_HEAD = ['Issuer', 'Owed', 'Currency and holder'] as const;

/**
 * Each account's balance changes; an issuer's side of its holders' trust lines (the mirror of
 * their change, the issuer owing more or less) is folded under its own heading.
 */
function Changes({ changes, ctx }: { changes: readonly AccountBalanceChanges[]; ctx: LinkContext }) {
  if (changes.length === 0) return <Empty>No balance changed.</Empty>;
  const rows = changes.flatMap((account) => account.changes.map((change) => ({ account: account.account, change })));
  const own = rows.filter((r) => r.change.issuing !== true);
  const mirrors = rows.filter((r) => r.change.issuing === true);
  return (
    <>
      <Table caption="Balance changes per account" head={OWN_HEAD} cards>
        <ChangeRows changes={own} ctx={ctx} head={OWN_HEAD} />
      </Table>
      {mirrors.length === 0 ? null : (
        <details class="raw">
          <summary>The issuers’ side of these trust lines ({mirrors.length})</summary>
          <Table caption="The issuers’ side of the trust lines" head={MIRROR_HEAD} cards>
            <ChangeRows changes={mirrors} ctx={ctx} head={MIRROR_HEAD} />
          </Table>
        </details>
      )}
    </>
  );
}

function Memo({ label, field }: { label: string; field: MemoField | undefined }) {
  if (field === undefined) return null;
  return (
    <div class="fact">
      <dt>{label}</dt>
      <dd>{field.text === undefined ? <span class="mono">{field.hex} (not text)</span> : field.text}</dd>
    </div>
  );
}

/** `/tx/{HASH}`. */
export function TransactionPage({ chrome, props }: { chrome: SiteChrome; props: TransactionProps }) {
  const { tx, ctx } = props;
  const meta = (tx.meta ?? {}) as Json;
  const result = String(meta.TransactionResult ?? '');
  const delivered = amountView(deliveredAmount(tx));
  const memos = memosOf(tx);
  const offer = tx.TransactionType === 'OfferCreate' || tx.TransactionType === 'OfferCancel';
  const others = Object.entries(tx).filter(
    ([key, value]) => !SHOWN.has(key) && !(offer && key === 'OfferSequence') && value !== undefined && value !== null,
  );
  const hash = String(tx.hash);
  const flags = transactionFlagNames(tx);
  const requested = amountView(tx.DeliverMax ?? tx.Amount);
  const partial = isPartialPayment(tx) && delivered !== undefined && requested !== undefined;
  return (
    <Layout chrome={chrome} title={`Transaction ${hash}`}>
      <h1>
        <span class="kicker">Transaction · {String(tx.TransactionType)}</span>
        <span class="mono">{hash}</span>
      </h1>
      <p class="summary">
        <Summary segments={summarize(tx)} ctx={ctx} />.
      </p>
      {partial && !sameAmount(delivered, requested) ? (
        <p class="notice warn" role="note">
          <strong>Partial payment.</strong> It asked for <Amount amount={requested} ctx={ctx} /> and delivered{' '}
          <Amount amount={delivered} ctx={ctx} />. Only the delivered amount reached the destination.
        </p>
      ) : partial ? (
        <p class="notice" role="note">
          The partial-payment flag is set; all of the <Amount amount={requested} ctx={ctx} /> asked for was delivered.
        </p>
      ) : null}
      <Facts
        items={[
          ['Result', <Result code={result} />],
          ['Type', String(tx.TransactionType)],
          ['Ledger', <LedgerLink index={Number(tx.ledger_index)} />],
          ['Time', <Time iso={tx.date as string} />],
          tx.Fee !== undefined && ['Fee', `${feeText(tx.Fee)} XRP`],
          typeof tx.Account === 'string' &&
            tx.Account !== '' && ['Sender', <AccountLink address={tx.Account} ctx={ctx} />],
          typeof tx.Destination === 'string' && ['Destination', <AccountLink address={tx.Destination} ctx={ctx} />],
          tx.DestinationTag !== undefined && ['Destination tag', String(tx.DestinationTag)],
          tx.SourceTag !== undefined && ['Source tag', String(tx.SourceTag)],
          delivered !== undefined && ['Delivered', <Amount amount={delivered} ctx={ctx} />],
          delivered === undefined &&
            meta.delivered_amount === 'unavailable' && ['Delivered', 'not recorded by this ledger’s metadata'],
          tx.Sequence !== undefined && ['Sequence', String(tx.Sequence)],
          offer &&
            tx.OfferSequence !== undefined && [
              tx.TransactionType === 'OfferCancel' ? 'Offer cancelled' : 'Offer replaced',
              props.offerTx === undefined ? (
                <span title="The transaction that created it is not in the indexed ledgers">
                  #{String(tx.OfferSequence)}
                </span>
              ) : (
                <>
                  #{String(tx.OfferSequence)}, created by <TxLink hash={props.offerTx} />
                </>
              ),
            ],
          tx.TicketSequence !== undefined && ['Ticket', String(tx.TicketSequence)],
          flags.length > 0 && [
            'Flags',
            <span title={`Flags: ${String(tx.Flags)}`}>
              {flags.map((name, i) => (
                <>
                  {i === 0 ? '' : ', '}
                  <code>{name}</code>
                </>
              ))}
            </span>,
          ],
          typeof tx.ctid === 'string' && ['Compact id (ctid)', <span class="mono">{tx.ctid}</span>],
          ['Position in ledger', String(meta.TransactionIndex ?? '')],
        ]}
      />
      <Section id="changes" title="Balance changes">
        <p class="muted">From the metadata; the sender’s XRP change includes the fee.</p>
        <Changes changes={props.changes} ctx={ctx} />
      </Section>
      {memos.length === 0 ? null : (
        <Section id="memos" title="Memos">
          {memos.map((memo, i) => (
            <>
              {memos.length === 1 ? null : <h3>Memo {i + 1}</h3>}
              <dl class="facts memo">
                <Memo label="Type" field={memo.type} />
                <Memo label="Data" field={memo.data} />
                <Memo label="Format" field={memo.format} />
              </dl>
            </>
          ))}
        </Section>
      )}
      {others.length === 0 ? null : (
        <Section id="fields" title="Other fields">
          <Facts
            items={others.map(
              ([key, value]) => [key, <FieldValue name={key} value={value} tx={tx} ctx={ctx} />] as const,
            )}
          />
        </Section>
      )}
      <RawJson value={tx} label="The raw transaction with its metadata (JSON)" />
    </Layout>
  );
}
