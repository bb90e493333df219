import type { Json } from '@xle/documents';
import { answerSource, formatCount, formatValue, xrpOfDrops } from '../model/format.js';
import { DailyBars, DailyLine, StackedDailyBars, type DayValue, type DayValues } from './charts.js';
import { Layout, type SiteChrome } from './layout.js';
import { Empty, Facts, LedgerLink, Section, Table, Time } from './parts.js';

export interface HomeProps {
  /** GET /ledgers. */
  ledgers: Json;
  /** GET /metrics/metric, /metrics/type (absent until the metrics job has run). */
  metric?: Json[] | undefined;
  types?: Json[] | undefined;
  /** GET /fact/XRP, /fact/ObjectCount, /fact/AMM. */
  xrp?: Record<string, unknown> | undefined;
  objects?: Record<string, unknown> | undefined;
  amm?: Record<string, unknown> | undefined;
  /** GET /network/fee and /network/server_info. */
  fee?: Json | undefined;
  server?: Json | undefined;
  /** How many validators the registry lists. */
  validators?: number | undefined;
}

const series = (records: readonly Json[] | undefined, key: string, field: string): DayValue[] =>
  (records ?? []).flatMap((r) => {
    const value = (r[key] as Record<string, unknown> | undefined)?.[field];
    return typeof value === 'number' ? [{ date: String(r.date), value }] : [];
  });

const stacked = (records: readonly Json[] | undefined, key: string): DayValues[] =>
  (records ?? []).map((r) => ({ date: String(r.date), values: (r[key] ?? {}) as Record<string, number> }));

const xrpText = (value: unknown): string | undefined =>
  typeof value === 'string' ? `${formatValue(value)} XRP` : undefined;

/** The front page. */
export function HomePage({ chrome, props }: { chrome: SiteChrome; props: HomeProps }) {
  const ledgers = (props.ledgers.ledgers ?? []) as Json[];
  const info = (props.server?.info ?? undefined) as Json | undefined;
  const drops = (props.fee?.drops ?? undefined) as Record<string, string> | undefined;
  const figure = (label: string, value: string | number | undefined): readonly [string, string] | null =>
    value === undefined ? null : [label, typeof value === 'number' ? formatCount(value) : value];
  return (
    <Layout chrome={chrome} title="Newest ledgers and network figures">
      <h1>{chrome.network === 'mainnet' ? 'The XRP Ledger' : `The XRP Ledger (${chrome.network})`}</h1>
      <p>
        Search above for an account, a transaction (hash or ctid), a ledger (index or hash), a token (CODE.ISSUER), an
        NFT, a validator or an amendment.
      </p>
      <div class="columns">
        <Section id="ledgers" title="Newest ledgers">
          {ledgers.length === 0 ? (
            <Empty>No ledger is indexed yet.</Empty>
          ) : (
            <Table caption="Newest ledgers" head={['Ledger', 'Closed', 'Transactions']}>
              {ledgers.map((l) => (
                <tr>
                  <td>
                    <LedgerLink index={Number(l.ledger_index)} />
                  </td>
                  <td>
                    <Time iso={l.close_time_human as string} />
                  </td>
                  <td class="num">{formatCount(Number(l.tx_count ?? 0))}</td>
                </tr>
              ))}
            </Table>
          )}
        </Section>
        <Section id="network" title="Network figures">
          <Facts
            items={[
              figure('Newest indexed ledger', ledgers[0] === undefined ? undefined : Number(ledgers[0].ledger_index)),
              figure('XRP in existence', xrpText(props.xrp?.total_supply)),
              figure('XRP destroyed by fees', xrpText(props.xrp?.destroyed)),
              figure('XRP in escrow', xrpText(props.xrp?.in_escrow)),
              figure(
                'Accounts',
                props.objects?.AccountRoot === undefined ? undefined : Number(props.objects.AccountRoot),
              ),
              figure(
                'Trust lines',
                props.objects?.RippleState === undefined ? undefined : Number(props.objects.RippleState),
              ),
              figure('Open DEX offers', props.objects?.Offer === undefined ? undefined : Number(props.objects.Offer)),
              figure('AMM pools', props.amm?.pools === undefined ? undefined : Number(props.amm.pools)),
              figure('Validators known', props.validators),
              figure(
                'Base fee',
                drops?.base_fee === undefined
                  ? undefined
                  : `${xrpOfDrops(drops.base_fee)} XRP (${drops.base_fee} drops)`,
              ),
              figure(
                'Open ledger fee',
                drops?.open_ledger_fee === undefined ? undefined : `${drops.open_ledger_fee} drops`,
              ),
              figure('Server version', typeof info?.build_version === 'string' ? info.build_version : undefined),
              figure(
                'Validation quorum',
                typeof info?.validation_quorum === 'number' ? info.validation_quorum : undefined,
              ),
              figure('Peers', typeof info?.peers === 'number' ? info.peers : undefined),
              // Recorded answers say which ledger and time their figures are of.
              figure('Fee figures from', answerSource('fee', props.fee?.snapshot)),
              figure('Server figures from', answerSource('server_info', props.server?.snapshot)),
            ]}
          />
        </Section>
      </div>
      <Section id="activity" title="Daily activity">
        {props.metric === undefined ? (
          <Empty>The daily metrics have not been computed yet.</Empty>
        ) : (
          <div class="charts">
            <StackedDailyBars
              id="chart-types"
              title="Transactions per day, by type"
              unit="transactions"
              points={stacked(props.types, 'type')}
            />
            <DailyBars
              id="chart-accounts"
              title="Accounts created per day"
              unit="accounts"
              points={series(props.metric, 'metric', 'accounts_created')}
            />
            <DailyLine
              id="chart-per-ledger"
              title="Transactions per ledger (daily average)"
              unit="transactions per ledger"
              points={series(props.metric, 'metric', 'tx_per_ledger')}
            />
            <DailyBars
              id="chart-payments"
              title="Payments per day"
              unit="payments"
              points={series(props.metric, 'metric', 'payments_count')}
            />
          </div>
        )}
      </Section>
    </Layout>
  );
}
