import BigNumber from 'bignumber.js';
import { decodeHexText, rippleTimeToIso, tokenId, TRANSACTION_TYPE_NAMES, type Json } from '@xle/documents';
import {
  amountView,
  decimal,
  formatCount,
  formatTokenValue,
  formatValue,
  TOKEN_DIGITS,
  xrpOfDrops,
} from '../model/format.js';
import { accountHref, ammHref, ledgerHref, tokenHref } from '../model/links.js';
import { Layout, type SiteChrome } from './layout.js';
import {
  AccountLink,
  Amount,
  Empty,
  Facts,
  LedgerLink,
  NftLink,
  RawJson,
  Section,
  Table,
  StateTxLink,
  Time,
  Rounded,
  tokenLabel,
  TokenName,
  TokenValue,
  YesNo,
  type LinkContext,
} from './parts.js';
import type { Effect } from '@xle/api/resources/balances';
import { DailyLine } from './charts.js';
import { TxTable } from './tx-table.js';

export interface AccountProps {
  address: string;
  /** GET /account/{ACCOUNT}; undefined when the account is not in the indexed state. */
  info?: Json | undefined;
  reserves?: { base: string; increment: string; source: string } | undefined;
  /** GET …/assets, …/trustlines2 (its lines), …/obligations, …/orders, …/nfts, …/escrows. */
  assets: readonly Json[];
  lines: readonly Json[];
  obligations: readonly Json[];
  orders: readonly Json[];
  nfts: readonly Json[];
  escrows: readonly Json[];
  /** GET …/ancestry (undefined when not indexed) and …/activations. */
  ancestry?: Json | undefined;
  activations: Json;
  /** GET …/transactions with the page's filters. */
  transactions: Json;
  /** The balance chart: the asset shown, the assets to choose from, and its points or why none. */
  chart?: BalanceChartProps | undefined;
  /** What each listed transaction did to the account's balances (the balance-changes data set). */
  effects?: ReadonlyMap<string, readonly Effect[]> | undefined;
  /** The filters as the form sent them. */
  filters: Readonly<Record<string, string>>;
  ctx: LinkContext;
}

/** How many accounts it activated are listed (the count is always shown). */
const ACTIVATIONS_LISTED = 50;

const SETTINGS: readonly [string, string][] = [
  ['requireDestinationTag', 'Requires a destination tag'],
  ['requireAuthorization', 'Requires authorization of trust lines'],
  ['depositAuth', 'Deposit authorization'],
  ['disallowIncomingXRP', 'Disallows incoming XRP'],
  ['disableMasterKey', 'Master key disabled'],
  ['defaultRipple', 'Default ripple'],
  ['noFreeze', 'No freeze'],
  ['globalFreeze', 'Global freeze'],
];

function Overview({ props }: { props: AccountProps }) {
  const info = props.info;
  if (info === undefined) return null;
  const settings = (info.settings ?? {}) as Json;
  const owners = Number(info.OwnerCount ?? 0);
  const reserve =
    props.reserves === undefined
      ? undefined
      : decimal(props.reserves.base)?.plus(decimal(props.reserves.increment)?.times(owners) ?? Number.NaN);
  const balance = String(info.nativeBalance ?? '0');
  const domain = typeof settings.domain === 'string' ? settings.domain : undefined;
  return (
    <Facts
      items={[
        ['Balance', `${formatValue(balance)} XRP`],
        [
          'Reserve',
          reserve === undefined ? (
            <span class="muted">
              {owners} owned objects; the network’s reserve amounts are not in the indexed data (no FeeSettings entry
              and no server_info snapshot with them).
            </span>
          ) : (
            <>
              {formatValue(reserve.toFixed())} XRP ({props.reserves?.base} XRP base + {owners} ×{' '}
              {props.reserves?.increment} XRP per owned object, from {props.reserves?.source})
            </>
          ),
        ],
        reserve !== undefined && [
          'Available',
          `${formatValue(BigNumber.max(0, (decimal(balance) ?? new BigNumber(0)).minus(reserve)).toFixed())} XRP`,
        ],
        ['Owned objects', formatCount(owners)],
        ['Sequence', String(info.Sequence ?? '')],
        domain !== undefined && ['Domain', decodeHexText(domain) ?? domain],
        typeof settings.regularKey === 'string' && [
          'Regular key',
          <AccountLink address={settings.regularKey} ctx={props.ctx} />,
        ],
        [
          'Activated by',
          typeof info.parent === 'string' ? (
            <>
              <AccountLink address={info.parent} ctx={props.ctx} /> on <Time iso={info.inception as string} />
              {info.initial_balance === null || info.initial_balance === undefined
                ? null
                : ` with ${formatValue(String(info.initial_balance))} XRP`}
              {typeof info.tx_hash === 'string' ? (
                <>
                  {' '}
                  (<StateTxLink hash={info.tx_hash} ctx={props.ctx} />)
                </>
              ) : null}
            </>
          ) : (
            <span class="muted">not in the indexed ledgers</span>
          ),
        ],
        typeof info.PreviousTxnID === 'string' && [
          'Last changed by',
          <StateTxLink hash={info.PreviousTxnID} ctx={props.ctx} />,
        ],
      ]}
    />
  );
}

function Settings({ info, ctx }: { info: Json; ctx: LinkContext }) {
  const settings = (info.settings ?? {}) as Json;
  const signers = settings.signers as
    { threshold?: number; weights?: { address: string; weight: number }[] } | undefined;
  return (
    <>
      <Facts items={SETTINGS.map(([key, label]) => [label, <YesNo value={settings[key]} />] as const)} />
      {signers === undefined ? null : (
        <>
          <p>Signer list (quorum {signers.threshold}):</p>
          <ul>
            {(signers.weights ?? []).map((s) => (
              <li>
                <AccountLink address={s.address} ctx={ctx} /> weight {s.weight}
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

function Holdings({ props }: { props: AccountProps }) {
  const { ctx, address } = props;
  return (
    <>
      <h3>Assets held</h3>
      {props.assets.length === 0 ? (
        <Empty>No tokens held.</Empty>
      ) : (
        <Table caption="Tokens held" head={['Balance', 'Token']}>
          {props.assets.map((a) => (
            <tr>
              <td class="num">
                <TokenValue value={String(a.value)} />
              </td>
              <td>
                <TokenName
                  currency={String(a.currency)}
                  issuer={String(a.counterparty)}
                  token={tokenId(String(a.currency), String(a.counterparty))}
                  ctx={ctx}
                />
              </td>
            </tr>
          ))}
        </Table>
      )}
      {props.obligations.length === 0 ? null : (
        <>
          <h3>Tokens it issued</h3>
          <Table caption="Tokens issued" head={['Token', 'Outstanding']} cards>
            {props.obligations.map((o) => {
              const id = tokenId(String(o.currency), address);
              const name = tokenLabel(String(o.currency), address, ctx);
              return (
                <tr>
                  <td data-label="Token">
                    {id !== undefined && ctx.tokens.has(id) ? (
                      <a href={tokenHref(String(o.currency), address)}>{name}</a>
                    ) : (
                      name
                    )}
                  </td>
                  <td data-label="Outstanding" class="num">
                    <TokenValue value={String(o.value)} />
                  </td>
                </tr>
              );
            })}
          </Table>
        </>
      )}
      <h3>Trust lines</h3>
      {props.lines.length === 0 ? (
        <Empty>No trust lines.</Empty>
      ) : (
        <Table
          caption="Trust lines"
          head={['Counterparty', 'Currency', 'Balance', 'Its limit', 'Peer’s limit', 'Flags']}
          cards
        >
          {props.lines.map((l) => {
            const flags = [
              l.no_ripple === true && 'no ripple',
              l.no_ripple_peer === true && 'peer no ripple',
              l.freeze === true && 'frozen',
              l.freeze_peer === true && 'peer frozen',
              l.authorized === true && 'authorized',
              l.peer_authorized === true && 'peer authorized',
            ].filter(Boolean);
            return (
              <tr>
                <td data-label="Counterparty">
                  <AccountLink address={String(l.account)} ctx={ctx} />
                </td>
                <td data-label="Currency">
                  <LineCurrency currency={String(l.currency)} peer={String(l.account)} self={props.address} ctx={ctx} />
                </td>
                <td data-label="Balance" class="num">
                  <LineBalance balance={String(l.balance)} />
                </td>
                <td data-label="Its limit" class="num">
                  <TokenValue value={String(l.limit)} />
                </td>
                <td data-label="Peer’s limit" class="num">
                  <TokenValue value={String(l.limit_peer)} />
                </td>
                <td data-label="Flags">{flags.join(', ')}</td>
              </tr>
            );
          })}
        </Table>
      )}
    </>
  );
}

/**
 * A trust line's balance as a holder reads it: what this account holds of the peer's token, or
 * (the account issuing) what the peer holds of its own, both positive and said which.
 */
function LineBalance({ balance }: { balance: string }) {
  if (balance.startsWith('-'))
    return (
      <span title={`${formatValue(balance)} from this account’s side: it owes this to the peer`}>
        {formatTokenValue(balance.slice(1))} <span class="muted">held by the peer</span>
      </span>
    );
  return <TokenValue value={balance} />;
}

/** A trust line's currency, linked to the token's page of whichever side issues it. */
function LineCurrency({
  currency,
  peer,
  self,
  ctx,
}: {
  currency: string;
  peer: string;
  self: string;
  ctx: LinkContext;
}) {
  const code = tokenLabel(currency, ctx.pools?.has(self) === true ? self : peer, ctx);
  const issuer = [peer, self].find((side) => {
    const id = tokenId(currency, side);
    return id !== undefined && ctx.tokens.has(id);
  });
  return issuer === undefined ? <>{code}</> : <a href={tokenHref(currency, issuer)}>{code}</a>;
}

function Orders({ props }: { props: AccountProps }) {
  if (props.orders.length === 0) return <Empty>No open offers.</Empty>;
  return (
    <Table caption="Open offers" head={['Sequence', 'Gives', 'Wants', 'Rate']}>
      {props.orders.map((o) => {
        const gets = amountView(o.TakerGets);
        const pays = amountView(o.TakerPays);
        return (
          <tr>
            <td class="num">{String(o.Sequence ?? '')}</td>
            <td>{gets === undefined ? null : <Amount amount={gets} ctx={props.ctx} />}</td>
            <td>{pays === undefined ? null : <Amount amount={pays} ctx={props.ctx} />}</td>
            <td class="num">
              <Rounded value={((o.properties ?? {}) as Json).makerExchangeRate} digits={TOKEN_DIGITS} />
            </td>
          </tr>
        );
      })}
    </Table>
  );
}

function Nfts({ props }: { props: AccountProps }) {
  if (props.nfts.length === 0) return <Empty>No NFTs.</Empty>;
  return (
    <Table caption="NFTs owned" head={['NFT', 'Issuer', 'Taxon', 'Serial', 'Transfer fee']}>
      {props.nfts.map((n) => (
        <tr>
          <td>
            <NftLink id={String(n.NFTokenID)} />
          </td>
          <td>
            <AccountLink address={String(n.Issuer)} ctx={props.ctx} />
          </td>
          <td class="num">{String(n.NFTokenTaxon)}</td>
          <td class="num">{String(n.nft_serial)}</td>
          <td class="num">{`${formatValue(Number(n.TransferFee ?? 0) / 1000)} %`}</td>
        </tr>
      ))}
    </Table>
  );
}

const ledgerTime = (value: unknown): string | undefined =>
  typeof value === 'number' ? rippleTimeToIso(value) : undefined;

function Escrows({ props }: { props: AccountProps }) {
  if (props.escrows.length === 0) return <Empty>No escrows.</Empty>;
  return (
    <Table caption="Escrows" head={['Amount (XRP)', 'Destination', 'Can finish after', 'Expires after', 'Created by']}>
      {props.escrows.map((e) => (
        <tr>
          <td class="num">{typeof e.Amount === 'string' ? formatValue(xrpOfDrops(e.Amount)) : ''}</td>
          <td>
            <AccountLink address={String(e.Destination)} ctx={props.ctx} />
          </td>
          <td>{ledgerTime(e.FinishAfter) === undefined ? '—' : <Time iso={ledgerTime(e.FinishAfter)} />}</td>
          <td>{ledgerTime(e.CancelAfter) === undefined ? '—' : <Time iso={ledgerTime(e.CancelAfter)} />}</td>
          <td>{typeof e.PreviousTxnID === 'string' ? <StateTxLink hash={e.PreviousTxnID} ctx={props.ctx} /> : null}</td>
        </tr>
      ))}
    </Table>
  );
}

function Ancestry({ props }: { props: AccountProps }) {
  const chain = ((props.ancestry?.ancestry ?? []) as Json[]).filter((a) => a.account !== props.address);
  const activated = (props.activations.accounts ?? []) as Json[];
  return (
    <>
      {chain.length === 0 ? (
        <Empty>No activating account is indexed.</Empty>
      ) : (
        <>
          <p>Activated through, oldest first:</p>
          <ol class="chain">
            {chain.map((a) => (
              <li>
                <AccountLink address={String(a.account)} ctx={props.ctx} />
                {typeof a.inception === 'string' ? (
                  <>
                    , activated <Time iso={a.inception} />
                  </>
                ) : null}
                {typeof a.tx_hash === 'string' ? (
                  <>
                    {' '}
                    (<StateTxLink hash={a.tx_hash} ctx={props.ctx} />)
                  </>
                ) : null}
              </li>
            ))}
          </ol>
        </>
      )}
      <h3>Accounts it activated ({formatCount(Number(props.activations.count ?? activated.length))})</h3>
      {activated.length === 0 ? (
        <Empty>None in the indexed ledgers.</Empty>
      ) : (
        <Table caption="Accounts it activated" head={['Account', 'Activated', 'With (XRP)', 'Ledger', 'Transaction']}>
          {activated.slice(0, ACTIVATIONS_LISTED).map((a) => (
            <tr>
              <td>
                <AccountLink address={String(a.account)} ctx={props.ctx} />
              </td>
              <td>
                <Time iso={a.inception as string} />
              </td>
              <td class="num">{a.initial_balance === null ? '' : formatValue(String(a.initial_balance))}</td>
              <td>
                {typeof a.ledger_index !== 'number' ? null : typeof a.tx_hash === 'string' &&
                  props.ctx.txs.has(a.tx_hash.toUpperCase()) ? (
                  <LedgerLink index={a.ledger_index} />
                ) : (
                  formatCount(a.ledger_index)
                )}
              </td>
              <td>{typeof a.tx_hash === 'string' ? <StateTxLink hash={a.tx_hash} ctx={props.ctx} /> : null}</td>
            </tr>
          ))}
        </Table>
      )}
    </>
  );
}

/** The account's page link with other filters, for the paging and the reset links. */
function pageHref(address: string, filters: Readonly<Record<string, string>>): string {
  const search = new URLSearchParams(Object.entries(filters)).toString();
  return search === '' ? accountHref(address) : `${accountHref(address)}?${search}`;
}

function Filters({ address, filters }: { address: string; filters: Readonly<Record<string, string>> }) {
  const text = (name: string, label: string, placeholder: string) => (
    <label>
      {label}
      <input name={name} value={filters[name] ?? ''} placeholder={placeholder} />
    </label>
  );
  return (
    <form class="filters" action={accountHref(address)} method="get" aria-label="Filter transactions">
      <label>
        Type
        <select name="type">
          <option value="" selected={filters.type === undefined}>
            every type
          </option>
          {TRANSACTION_TYPE_NAMES.map((name) => (
            <option value={name} selected={filters.type?.toLowerCase() === name.toLowerCase()}>
              {name}
            </option>
          ))}
        </select>
      </label>
      {text('result', 'Result', 'tesSUCCESS')}
      {text('currency', 'Currency', 'USD')}
      <label>
        From (UTC day)
        <input type="date" name="from" value={(filters.from ?? '').slice(0, 10)} />
      </label>
      <label>
        To (UTC day)
        <input type="date" name="to" value={(filters.to ?? '').slice(0, 10)} />
      </label>
      <label>
        Direction
        <select name="direction">
          <option value="" selected={filters.direction === undefined}>
            sent and received
          </option>
          <option value="sent" selected={filters.direction === 'sent'}>
            sent
          </option>
          <option value="received" selected={filters.direction === 'received'}>
            received
          </option>
        </select>
      </label>
      {text('destination_tag', 'Destination tag', '')}
      {text('source_tag', 'Source tag', '')}
      <label>
        Order
        <select name="forward">
          <option value="" selected={filters.forward !== 'true'}>
            newest first
          </option>
          <option value="true" selected={filters.forward === 'true'}>
            oldest first
          </option>
        </select>
      </label>
      <label>
        Per page
        <select name="limit">
          {['20', '50', '100', '200'].map((n) => (
            <option value={n} selected={(filters.limit ?? '20') === n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Filter</button>
    </form>
  );
}

function Transactions({ props }: { props: AccountProps }) {
  const { marker: _marker, ...filters } = props.filters;
  const list = (props.transactions.transactions ?? []) as Json[];
  const next = typeof props.transactions.marker === 'string' ? props.transactions.marker : undefined;
  return (
    <>
      <Filters address={props.address} filters={filters} />
      <TxTable caption="Transactions of the account" transactions={list} ctx={props.ctx} effects={props.effects} />
      <nav class="pager" aria-label="Pages of transactions">
        {props.filters.marker === undefined ? null : (
          <a class="button secondary" href={pageHref(props.address, filters)}>
            First page
          </a>
        )}
        {next === undefined ? null : (
          <a class="button" href={pageHref(props.address, { ...filters, marker: next })}>
            Next page
          </a>
        )}
      </nav>
      {list.length === 0 || typeof props.transactions.ledger_index_max !== 'number' ? null : (
        <p class="muted">
          Up to ledger{' '}
          <a href={ledgerHref(props.transactions.ledger_index_max)}>
            {formatCount(props.transactions.ledger_index_max)}
          </a>
          .
        </p>
      )}
    </>
  );
}

/** `/account/{ACCOUNT}`. */
export interface BalanceChartProps {
  /** `XRP` or `<currency>.<issuer>`, as the page's `chart` parameter names it. */
  asset: string;
  /** The label of the asset shown. */
  label: string;
  /** Assets to choose from: value (as `asset`) and label. */
  choices: ReadonlyArray<{ value: string; label: string }>;
  /** Daily end-of-day balances, or why the index cannot draw them exactly. */
  points?: ReadonlyArray<{ date: string; balance: string }>;
  /** Why it is not drawn: a line, and the reason for whoever opens it. */
  refused?: { brief: string; why: string };
}

/** The account's balance of one asset over the last days, from /balance_history; never drawn from a guess. */
function BalanceChart({ address, chart }: { address: string; chart: BalanceChartProps }) {
  return (
    <>
      <form class="filters" method="get" action={`/account/${address}`}>
        <label>
          Asset
          <select name="chart">
            {chart.choices.map((c) => (
              <option value={c.value} selected={c.value === chart.asset}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Show</button>
      </form>
      {chart.points === undefined ? (
        <details class="muted">
          <summary>{chart.refused?.brief}</summary>
          <p>{chart.refused?.why}</p>
        </details>
      ) : (
        <DailyLine
          id="balance-chart"
          title={`${chart.label} balance, end of each day`}
          unit={chart.label}
          points={chart.points.map((p) => ({ date: p.date, value: Number(p.balance) }))}
          domain={[
            Math.min(0, ...chart.points.map((p) => Number(p.balance))),
            Math.max(1e-9, ...chart.points.map((p) => Number(p.balance))),
          ]}
        />
      )}
    </>
  );
}

export function AccountPage({ chrome, props }: { chrome: SiteChrome; props: AccountProps }) {
  const name = props.ctx.names.get(props.address);
  const pool = props.ctx.pools?.get(props.address);
  return (
    <Layout chrome={chrome} title={`Account ${props.address}`}>
      <h1>
        <span class="kicker">
          {pool === undefined ? 'Account' : 'AMM pool account'}
          {name === undefined ? '' : ` · ${name}`}
        </span>
        <span class="mono">{props.address}</span>
      </h1>
      {pool === undefined ? null : (
        <p class="notice">
          This account is the automated market maker of the pool {pool}: see{' '}
          <a href={ammHref(props.address)}>the pool’s page</a> for its assets, fee, auction slot and votes.
        </p>
      )}
      {props.info === undefined ? (
        <p class="notice">
          This account is not in the indexed state: it was deleted, or it was never created in the indexed ledgers. Its
          indexed transactions and trust lines are below.
        </p>
      ) : null}
      <Overview props={props} />
      {props.chart === undefined ? null : (
        <Section id="balance" title="Balance over time">
          <BalanceChart address={props.address} chart={props.chart} />
        </Section>
      )}
      <Section id="transactions" title="Transactions">
        <Transactions props={props} />
      </Section>
      <Section id="holdings" title="Assets and trust lines">
        <Holdings props={props} />
      </Section>
      <Section id="orders" title="Open DEX offers">
        <Orders props={props} />
      </Section>
      <div class="columns">
        <Section id="nfts" title="NFTs">
          <Nfts props={props} />
        </Section>
        <Section id="escrows" title="Escrows">
          <Escrows props={props} />
        </Section>
      </div>
      <div class="columns">
        {props.info === undefined ? null : (
          <Section id="settings" title="Settings">
            <Settings info={props.info} ctx={props.ctx} />
          </Section>
        )}
        <Section id="ancestry" title="Activation and ancestry">
          <Ancestry props={props} />
        </Section>
      </div>
      {props.info === undefined ? null : <RawJson value={props.info} label="The account’s raw data (JSON)" />}
    </Layout>
  );
}
