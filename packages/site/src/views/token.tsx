import BigNumber from 'bignumber.js';
import { decodeCurrency, isStandardCurrencyCode, type Json } from '@xle/documents';
import type { TokenHolder } from '@xle/api/shapers/token';
import { decimal, formatCount, formatPercent, formatScore, formatSignificant } from '../model/format.js';
import { HorizontalBars } from './charts.js';
import { Layout, type SiteChrome } from './layout.js';
import {
  AccountLink,
  Empty,
  Facts,
  PriceFigure,
  RawJson,
  Rounded,
  Section,
  Table,
  Time,
  TokenValue,
  YesNo,
  type LinkContext,
} from './parts.js';

export interface TokenProps {
  /** GET /token/{CODE}.{ISSUER}. */
  token: Json;
  holders: readonly TokenHolder[];
  /** Σ of every holder's balance (exact), read with `holders`: the figure their shares are of. */
  supply: string;
  /** Accounts holding a positive balance, counted with `holders`. */
  holderCount: number;
  ctx: LinkContext;
}

/** Holders drawn in the chart of shares. */
const CHARTED = 10;

interface WebLink {
  url?: string;
  title?: string;
  type?: string;
}

/** Links an issuer publishes in its xrp-ledger.toml: shown as links out, never loaded by the page. */
function WebLinks({ links }: { links: readonly WebLink[] }) {
  const safe = links.filter((l) => typeof l.url === 'string' && /^https?:\/\//i.test(l.url));
  if (safe.length === 0) return <span class="muted">none</span>;
  return (
    <ul>
      {safe.map((l) => (
        <li>
          <a href={l.url} rel="nofollow noopener noreferrer">
            {l.title ?? l.type ?? l.url}
          </a>
        </li>
      ))}
    </ul>
  );
}

function Metadata({ label, meta }: { label: string; meta: Json | undefined }) {
  if (meta === undefined) return null;
  return (
    <>
      <h3>{label}</h3>
      <Facts
        items={[
          typeof meta.name === 'string' && ['Name', meta.name],
          typeof meta.description === 'string' && ['Description', meta.description],
          typeof meta.icon === 'string' && ['Icon', <span class="mono">{meta.icon}</span>],
          ['Trust level', `${String(meta.trust_level ?? 0)} of 2`],
          meta.kyc !== undefined && ['KYC', <YesNo value={meta.kyc} />],
          ['Web links', <WebLinks links={(meta.weblinks ?? []) as WebLink[]} />],
        ]}
      />
    </>
  );
}

/**
 * What each outcome of reading an issuer's xrp-ledger.toml means, for people: the recorded reason
 * is for the operator (it may name a server's folder or address) and stays in the API's answer.
 */
const TOML_OUTCOMES: Readonly<Record<string, string>> = {
  ok: 'read',
  invalid_domain: 'the account’s Domain is not a domain name',
  forbidden_address: 'the domain points at a private address, so it was not fetched',
  not_found: 'no xrp-ledger.toml was found for this domain',
  http_error: 'the domain’s server answered with an error',
  too_large: 'the file is larger than the size allowed',
  timeout: 'the domain’s server did not answer in time',
  invalid: 'the file is not valid TOML',
  unreachable: 'the domain could not be reached',
};

/** `/token/{CODE}.{ISSUER}`. */
export function TokenPage({ chrome, props }: { chrome: SiteChrome; props: TokenProps }) {
  const { token, ctx } = props;
  const metrics = (token.metrics ?? {}) as Json;
  const meta = (token.meta ?? {}) as Json;
  const status = (token.toml_status ?? undefined) as Json | undefined;
  const code = String(token.code);
  const issuer = String(token.issuer);
  // The holders' shares and the supply shown beside them are of the same lines, read together.
  const supply = decimal(props.supply) ?? new BigNumber(0);
  const share = (balance: string): number => (supply.isZero() ? 0 : (decimal(balance)?.div(supply).toNumber() ?? 0));
  return (
    <Layout chrome={chrome} title={`Token ${code}.${issuer}`}>
      <h1>
        <span class="kicker">Token</span>
        {code} <span class="muted">issued by</span> <AccountLink address={issuer} ctx={ctx} />
      </h1>
      <Facts
        items={[
          ['Score', <span title={String(token.score ?? 0)}>{formatScore(token.score ?? 0)}</span>],
          ['Holders', formatCount(props.holderCount)],
          ['Trust lines', formatCount(Number(metrics.trustlines ?? 0))],
          ['Supply', <Rounded value={supply.toFixed()} suffix={` ${code}`} />],
          ['Price', <PriceFigure value={metrics.price ?? token.price} source={token.price_source} suffix=" XRP" />],
          [
            'Market cap',
            <PriceFigure value={metrics.marketcap ?? token.marketcap} source={token.price_source} suffix=" XRP" />,
          ],
          ['AMM pools', formatCount(Number(token.amms ?? 0))],
          [
            'Volume 24 h / 7 d',
            `${formatSignificant(String(metrics.volume_24h ?? 0))} / ${formatSignificant(String(metrics.volume_7d ?? 0))} XRP`,
          ],
          [
            'Exchanges 24 h / 7 d',
            `${formatCount(Number(metrics.exchanges_24h ?? 0))} / ${formatCount(Number(metrics.exchanges_7d ?? 0))}`,
          ],
          [
            'Takers 24 h / 7 d',
            `${formatCount(Number(metrics.takers_24h ?? 0))} / ${formatCount(Number(metrics.takers_7d ?? 0))}`,
          ],
          [
            'Currency code',
            // The ledger's 40-hex form is in the raw record below.
            `${decodeCurrency(String(token.currency))} (${
              isStandardCurrencyCode(String(token.currency))
                ? 'standard, 3 characters'
                : 'nonstandard, 160 bits on the ledger'
            })`,
          ],
          ['First seen', <Time iso={token.createdAt as string} />],
          ['Last changed', <Time iso={token.updatedAt as string} />],
          ['Issuer blackholed', <YesNo value={token.blackholed} />],
          ['Disabled', <YesNo value={token.disabled} />],
        ]}
      />
      <Section id="holders" title="Top holders">
        {props.holders.length === 0 ? (
          <Empty>No account holds this token.</Empty>
        ) : (
          <>
            <HorizontalBars
              id="chart-holders"
              title={`Share of the supply held by the ${Math.min(CHARTED, props.holders.length)} largest holders`}
              bars={props.holders
                .slice(0, CHARTED)
                .map((h) => ({ label: ctx.names.get(h.account) ?? h.account, value: share(h.balance) }))}
              format={(v) => formatPercent(v)}
              max={1}
            />
            <Table caption="Top holders" head={['#', 'Account', 'Balance', 'Share']}>
              {props.holders.map((h, i) => (
                <tr>
                  <td class="num">{i + 1}</td>
                  <td>
                    <AccountLink address={h.account} ctx={ctx} />
                  </td>
                  <td class="num">
                    <TokenValue value={h.balance} />
                  </td>
                  <td class="num">{formatPercent(share(h.balance))}</td>
                </tr>
              ))}
            </Table>
          </>
        )}
      </Section>
      <Section id="metadata" title="XLS-26 metadata">
        {status === undefined ? null : (
          <p class="muted">
            {status.domain === undefined || status.domain === null
              ? 'No domain'
              : `xrp-ledger.toml of ${String(status.domain)}`}
            : {TOML_OUTCOMES[String(status.outcome)] ?? String(status.outcome)}
            {typeof status.fetched_at === 'string' ? (
              <>
                , read <Time iso={status.fetched_at} />
              </>
            ) : null}
            .
          </p>
        )}
        <Metadata label="Token" meta={meta.token as Json | undefined} />
        <Metadata label="Issuer" meta={meta.issuer as Json | undefined} />
        {token.tomldata === null || token.tomldata === undefined ? null : (
          <RawJson value={token.tomldata} label="The issuer’s xrp-ledger.toml (as JSON)" />
        )}
      </Section>
      <RawJson value={token} label="The raw token record (JSON)" />
    </Layout>
  );
}
