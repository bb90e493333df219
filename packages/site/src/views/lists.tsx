import type { Json } from '@xle/documents';
import { amountView, formatCount, formatPercent, formatScore, shortHash } from '../model/format.js';
import { poolName } from '../model/amm.js';
import { ammHref, tokenHref } from '../model/links.js';
import type { TokenSort } from '@xle/api/queries/tokens';
import { amendmentStatus } from './amendment.js';
import { Layout, type SiteChrome } from './layout.js';
import {
  AccountLink,
  AmendmentLink,
  IssueName,
  Empty,
  LedgerLink,
  PriceFigure,
  Rounded,
  Table,
  Time,
  tokenLabel,
  ValidatorLink,
  type LinkContext,
} from './parts.js';

/** A link to the next (or previous) page of a list, only where that page has rows. */
function Pager({ links }: { links: readonly ({ href: string; label: string } | undefined)[] }) {
  const shown = links.filter((l) => l !== undefined);
  if (shown.length === 0) return null;
  return (
    <nav class="pager" aria-label="Pages">
      {shown.map((l) => (
        <a class="button secondary" href={l.href}>
          {l.label}
        </a>
      ))}
    </nav>
  );
}

export interface LedgersListProps {
  ledgers: readonly Json[];
  /** The index the next (older) page starts below; null on the oldest page. */
  next: number | null;
  /** The index this page starts below (none on the newest page). */
  before?: number | undefined;
}

/** `/ledgers`: every indexed ledger, newest first, a page at a time. */
export function LedgersListPage({ chrome, props }: { chrome: SiteChrome; props: LedgersListProps }) {
  return (
    <Layout chrome={chrome} title="Ledgers" section="/ledgers">
      <h1>Ledgers</h1>
      <p class="muted">
        {props.before === undefined
          ? 'The newest indexed ledgers first.'
          : `Indexed ledgers before ${formatCount(props.before)}, newest first.`}
      </p>
      {props.ledgers.length === 0 ? (
        <Empty>No ledger is indexed {props.before === undefined ? 'yet' : 'before that one'}.</Empty>
      ) : (
        <Table caption="Ledgers, newest first" head={['Ledger', 'Closed', 'Transactions', 'Hash']} cards>
          {props.ledgers.map((l) => (
            <tr>
              <td data-label="Ledger">
                <LedgerLink index={Number(l.ledger_index)} />
              </td>
              <td data-label="Closed">
                <Time iso={l.close_time_human as string} />
              </td>
              <td data-label="Transactions" class="num">
                {formatCount(Number(l.tx_count ?? 0))}
              </td>
              <td data-label="Hash" class="mono" title={String(l.ledger_hash)}>
                {shortHash(String(l.ledger_hash))}
              </td>
            </tr>
          ))}
        </Table>
      )}
      <Pager
        links={[
          props.before === undefined ? undefined : { href: '/ledgers', label: 'Newest ledgers' },
          props.next === null ? undefined : { href: `/ledgers?before=${props.next}`, label: 'Older ledgers' },
        ]}
      />
    </Layout>
  );
}

/** The token list's sort keys (the REST `/tokens` sort), with the column each sorts. */
export const TOKEN_SORTS = [
  { key: 'code', label: 'Token' },
  { key: 'holders', label: 'Holders' },
  { key: 'trustlines', label: 'Trust lines' },
  { key: 'price', label: 'Price (XRP)' },
  { key: 'marketcap', label: 'Market cap (XRP)' },
  { key: 'score', label: 'Score' },
] as const;

export type { TokenSort };

export interface TokensListProps {
  tokens: readonly Json[];
  sort: TokenSort;
  direction: 'asc' | 'desc';
  offset: number;
  limit: number;
  /** Whether rows follow this page. */
  more: boolean;
  ctx: LinkContext;
}

const tokensHref = (sort: string, direction: string, offset = 0): string =>
  `/tokens?sort=${sort}&direction=${direction}${offset === 0 ? '' : `&offset=${offset}`}`;

/** A column head that sorts the list by it (and flips the order when it already does). */
function SortHead({ props, sortKey, label }: { props: TokensListProps; sortKey: string; label: string }) {
  const active = props.sort === sortKey;
  const next = active ? (props.direction === 'asc' ? 'desc' : 'asc') : sortKey === 'code' ? 'asc' : 'desc';
  return (
    <th
      scope="col"
      class={sortKey === 'code' ? undefined : 'num'}
      aria-sort={active ? (props.direction === 'asc' ? 'ascending' : 'descending') : undefined}
    >
      <a href={tokensHref(sortKey, next)}>
        {label}
        {active ? (props.direction === 'asc' ? ' ↑' : ' ↓') : ''}
      </a>
    </th>
  );
}

/** `/tokens`: every issued token with its figures, sortable by each. */
export function TokensListPage({ chrome, props }: { chrome: SiteChrome; props: TokensListProps }) {
  const { tokens, ctx } = props;
  return (
    <Layout chrome={chrome} title="Tokens" section="/tokens">
      <h1>Tokens</h1>
      <p class="muted">Issued tokens of the indexed ledgers. Select a column’s title to sort by it.</p>
      {tokens.length === 0 ? (
        <Empty>No token {props.offset === 0 ? 'is indexed yet' : 'on this page'}.</Empty>
      ) : (
        <div class="table-scroll" role="region" aria-label="Tokens" tabindex={0}>
          <table class="cards">
            <caption class="visually-hidden">Tokens</caption>
            <thead>
              <tr>
                {TOKEN_SORTS.map((s) => (
                  <SortHead props={props} sortKey={s.key} label={s.label} />
                ))}
              </tr>
            </thead>
            <tbody>
              {tokens.map((t) => {
                const issuer = String(t.issuer);
                const currency = String(t.currency);
                const name = tokenLabel(currency, issuer, ctx);
                return (
                  <tr>
                    <td data-label="Token">
                      <a href={tokenHref(currency, issuer)}>{name}</a>
                      <span class="muted"> by </span>
                      <AccountLink address={issuer} ctx={ctx} short />
                    </td>
                    <td data-label="Holders" class="num">
                      {formatCount(Number(t.holders ?? 0))}
                    </td>
                    <td data-label="Trust lines" class="num">
                      {formatCount(Number(t.trustlines ?? 0))}
                    </td>
                    <td data-label="Price (XRP)" class="num">
                      <PriceFigure value={(t.metrics as Json | undefined)?.price ?? t.price} source={t.price_source} />
                    </td>
                    <td data-label="Market cap (XRP)" class="num">
                      <PriceFigure
                        value={(t.metrics as Json | undefined)?.marketcap ?? t.marketcap}
                        source={t.price_source}
                      />
                    </td>
                    <td data-label="Score" class="num" title={String(t.score ?? '')}>
                      {formatScore(t.score)}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        links={[
          props.offset === 0
            ? undefined
            : {
                href: tokensHref(props.sort, props.direction, Math.max(0, props.offset - props.limit)),
                label: 'Previous tokens',
              },
          props.more
            ? { href: tokensHref(props.sort, props.direction, props.offset + props.limit), label: 'More tokens' }
            : undefined,
        ]}
      />
    </Layout>
  );
}

/** `/validators`: the validators the registry knows, UNL members first. */
export function ValidatorsListPage({ chrome, validators }: { chrome: SiteChrome; validators: readonly Json[] }) {
  const listed = [...validators].sort(
    (a, b) =>
      Number(Array.isArray(b.unl) && b.unl.length > 0) - Number(Array.isArray(a.unl) && a.unl.length > 0) ||
      String(a.domain ?? '~').localeCompare(String(b.domain ?? '~')) ||
      String(a.master_key).localeCompare(String(b.master_key)),
  );
  return (
    <Layout chrome={chrome} title="Validators" section="/validators">
      <h1>Validators</h1>
      <p class="muted">
        {formatCount(listed.length)} validators: those on a validator list (UNL) first, then by domain.
      </p>
      {listed.length === 0 ? (
        <Empty>No validator is known yet.</Empty>
      ) : (
        <Table caption="Validators" head={['Validator', 'Domain', 'On lists', 'Version', 'Last seen']} cards>
          {listed.map((v) => (
            <tr>
              <td data-label="Validator">
                <ValidatorLink keyText={String(v.master_key)} short />
              </td>
              <td data-label="Domain">
                {typeof v.domain === 'string' ? v.domain : <span class="muted">not verified</span>}
              </td>
              <td data-label="On lists">{Array.isArray(v.unl) && v.unl.length > 0 ? v.unl.join(', ') : 'none'}</td>
              <td data-label="Version">
                {typeof v.server_version === 'string' ? v.server_version : <span class="muted">not reported</span>}
              </td>
              <td data-label="Last seen">
                {typeof v.last_seen === 'string' ? (
                  <Time iso={v.last_seen} />
                ) : (
                  <span class="muted">no validation received</span>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </Layout>
  );
}

/** `/amendments`: every amendment, those not yet enabled first. */
export function AmendmentsListPage({ chrome, amendments }: { chrome: SiteChrome; amendments: readonly Json[] }) {
  const order = (a: Json): number => (a.enabled === true ? 2 : a.retired === true || a.obsolete === true ? 3 : 1);
  const listed = [...amendments].sort(
    (a, b) =>
      order(a) - order(b) ||
      String(b.enabled_on ?? '').localeCompare(String(a.enabled_on ?? '')) ||
      String(a.name ?? '').localeCompare(String(b.name ?? '')),
  );
  return (
    <Layout chrome={chrome} title="Amendments" section="/amendments">
      <h1>Amendments</h1>
      <p class="muted">
        {formatCount(listed.length)} amendments: those still being voted on first, then the enabled ones, newest first.
      </p>
      {listed.length === 0 ? (
        <Empty>The amendments data set has no amendment yet.</Empty>
      ) : (
        <Table caption="Amendments" head={['Amendment', 'Status', 'Votes', 'Introduced in', 'Enabled on']} cards>
          {listed.map((a) => (
            <tr>
              <td data-label="Amendment">
                <AmendmentLink id={String(a.amendment_id)} name={typeof a.name === 'string' ? a.name : undefined} />
              </td>
              <td data-label="Status">{amendmentStatus(a, true)}</td>
              <td data-label="Votes" class="num">
                {a.enabled === true || typeof a.count !== 'number' || typeof a.validations !== 'number'
                  ? '—'
                  : `${a.count} of ${a.validations}${a.validations === 0 ? '' : ` (${formatPercent(a.count / a.validations, 0)})`}`}
              </td>
              <td data-label="Introduced in">{typeof a.introduced === 'string' ? `rippled ${a.introduced}` : '—'}</td>
              <td data-label="Enabled on">{a.enabled === true ? <Time iso={a.enabled_on as string} /> : '—'}</td>
            </tr>
          ))}
        </Table>
      )}
    </Layout>
  );
}

export interface AmmListProps {
  pools: readonly Json[];
  /** What each pool holds of its two assets, by pool account (null: not indexed). */
  amounts: ReadonlyMap<string, { amount: unknown; amount2: unknown }>;
  offset: number;
  limit: number;
  /** Whether rows follow this page. */
  more: boolean;
  ctx: LinkContext;
}

/** What a pool holds of one asset, rounded for a list (exact in the title); the asset alone when not indexed. */
function PoolHolding({ raw, issue, ctx }: { raw: unknown; issue: unknown; ctx: LinkContext }) {
  const view = amountView(raw);
  if (view === undefined || view.value === '') return <IssueName issue={issue} ctx={ctx} />;
  return (
    <>
      <Rounded value={view.value} /> <IssueName issue={issue} ctx={ctx} />
    </>
  );
}

/** `/amms`: the AMM pools of the newest ledger state. */
export function AmmListPage({ chrome, props }: { chrome: SiteChrome; props: AmmListProps }) {
  return (
    <Layout chrome={chrome} title="AMM pools" section="/amms">
      <h1>AMM pools</h1>
      <p class="muted">Automated market makers in the newest indexed ledger state.</p>
      {props.pools.length === 0 ? (
        <Empty>No AMM pool {props.offset === 0 ? 'is in the indexed ledger state' : 'on this page'}.</Empty>
      ) : (
        <Table caption="AMM pools" head={['Pool', 'Asset 1', 'Asset 2', 'Trading fee', 'LP tokens']} cards>
          {props.pools.map((p) => {
            const account = String(p.Account);
            const lp = amountView(p.LPTokenBalance);
            return (
              <tr>
                <td data-label="Pool">
                  <a href={ammHref(account)}>{poolName(p.Asset, p.Asset2)}</a>
                </td>
                <td data-label="Asset 1" class="num">
                  <PoolHolding raw={props.amounts.get(account)?.amount} issue={p.Asset} ctx={props.ctx} />
                </td>
                <td data-label="Asset 2" class="num">
                  <PoolHolding raw={props.amounts.get(account)?.amount2} issue={p.Asset2} ctx={props.ctx} />
                </td>
                <td data-label="Trading fee" class="num">
                  {formatPercent(Number(p.TradingFee ?? 0) / 100_000, 3)}
                </td>
                <td data-label="LP tokens" class="num">
                  {lp === undefined ? '—' : <Rounded value={lp.value} />}
                </td>
              </tr>
            );
          })}
        </Table>
      )}
      <Pager
        links={[
          props.offset === 0
            ? undefined
            : { href: `/amms?offset=${Math.max(0, props.offset - props.limit)}`, label: 'Previous pools' },
          props.more ? { href: `/amms?offset=${props.offset + props.limit}`, label: 'More pools' } : undefined,
        ]}
      />
    </Layout>
  );
}
