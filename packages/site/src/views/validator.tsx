import type { Json } from '@xle/documents';
import { formatCount, formatPercent } from '../model/format.js';
import { DailyLine } from './charts.js';
import { Layout, type SiteChrome } from './layout.js';
import { AmendmentLink, Empty, Facts, RawJson, Section, Table, Time, YesNo } from './parts.js';

export interface ValidatorProps {
  /** GET /validator/{KEY} and …/reports (its `reports`). */
  info: Json;
  reports: readonly Json[];
  /** Its entry of GET /validatorregistry (server version, votes), when listed. */
  entry?: Json | undefined;
  /** Amendment names by id (only known amendments have a page). */
  amendmentNames: ReadonlyMap<string, string>;
}

interface Agreement {
  missed: number;
  total: number;
  score: string;
  incomplete: boolean;
}

function AgreementRow({ label, agreement }: { label: string; agreement: Agreement | undefined }) {
  if (agreement === undefined) return null;
  return (
    <tr>
      <th scope="row">{label}</th>
      <td data-label="Agreement" class="num">
        {agreement.total === 0 ? '—' : formatPercent(Number(agreement.score), 3)}
      </td>
      <td data-label="Validated" class="num">
        {formatCount(agreement.total - agreement.missed)}
      </td>
      <td data-label="Missed" class="num">
        {formatCount(agreement.missed)}
      </td>
      <td data-label="Ledgers" class="num">
        {formatCount(agreement.total)}
      </td>
      <td data-label="Data">{agreement.incomplete ? 'incomplete' : 'complete'}</td>
    </tr>
  );
}

/** `/validator/{VALIDATOR_PUBLIC_KEY}`. */
export function ValidatorPage({ chrome, props }: { chrome: SiteChrome; props: ValidatorProps }) {
  const { info, entry } = props;
  const master = String(info.master_key ?? info.validation_public_key);
  const votes = ((entry?.votes as Json | undefined)?.amendments ?? []) as string[];
  const version = (entry?.server_version ?? undefined) as Json | undefined;
  const daily = [...props.reports]
    .filter((r) => Number(r.total) > 0)
    .sort((a, b) => String(a.date).localeCompare(String(b.date)))
    .map((r) => ({ date: String(r.date), value: Number(r.score) }));
  return (
    <Layout chrome={chrome} title={`Validator ${master}`}>
      <h1>
        <span class="kicker">Validator{typeof info.domain === 'string' ? ` · ${info.domain}` : ''}</span>
        <span class="mono">{master}</span>
      </h1>
      <Facts
        items={[
          ['Signing key', <span class="mono">{String(info.signing_key ?? '')}</span>],
          ['Domain', typeof info.domain === 'string' ? info.domain : <span class="muted">none verified</span>],
          [
            'On the UNL of',
            typeof info.unl === 'string' && info.unl !== '' ? info.unl : <span class="muted">no list</span>,
          ],
          [
            'Server version',
            typeof version?.version === 'string' ? version.version : <span class="muted">unknown</span>,
          ],
          ['Network', String(info.networks ?? info.chain ?? '')],
          ['Last seen', <Time iso={entry?.last_seen as string | undefined} />],
          ['Manifest revoked', <YesNo value={info.revoked} />],
        ]}
      />
      <Section id="agreement" title="Agreement">
        <p class="muted">Share of the indexed ledgers it validated with the hash the network agreed on.</p>
        <div class="table-scroll" role="region" aria-label="Agreement over 1 hour, 24 hours and 30 days" tabindex={0}>
          <table class="cards">
            <caption class="visually-hidden">Agreement over 1 hour, 24 hours and 30 days</caption>
            <thead>
              <tr>
                <th scope="col">Period</th>
                <th scope="col">Agreement</th>
                <th scope="col">Validated</th>
                <th scope="col">Missed</th>
                <th scope="col">Ledgers</th>
                <th scope="col">Data</th>
              </tr>
            </thead>
            <tbody>
              <AgreementRow label="1 hour" agreement={info.agreement_1h as Agreement | undefined} />
              <AgreementRow label="24 hours" agreement={info.agreement_24h as Agreement | undefined} />
              <AgreementRow label="30 days" agreement={info.agreement_30day as Agreement | undefined} />
            </tbody>
          </table>
        </div>
      </Section>
      <Section id="reports" title="Daily reports">
        <DailyLine
          id="chart-agreement"
          title="Daily agreement"
          unit="agreement"
          points={daily}
          domain={[0, 1]}
          format={(v) => formatPercent(v, 0)}
        />
        {props.reports.length === 0 ? (
          <Empty>No daily report yet: no validation of it has been collected.</Empty>
        ) : (
          <Table caption="Daily reports" head={['Day (UTC)', 'Agreement', 'Missed', 'Ledgers', 'Data']} cards>
            {props.reports.map((r) => (
              <tr>
                <td data-label="Day (UTC)">{String(r.date).slice(0, 10)}</td>
                <td data-label="Agreement" class="num">
                  {formatPercent(Number(r.score), 3)}
                </td>
                <td data-label="Missed" class="num">
                  {formatCount(String(r.missed))}
                </td>
                <td data-label="Ledgers" class="num">
                  {formatCount(String(r.total))}
                </td>
                <td data-label="Data">{r.incomplete === true ? 'incomplete' : 'complete'}</td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
      <Section id="votes" title="Amendment votes">
        {votes.length === 0 ? (
          <Empty>It votes for no amendment in its newest validations.</Empty>
        ) : (
          <ul>
            {votes.map((id) => {
              const name = props.amendmentNames.get(id);
              return (
                <li>{name === undefined ? <span class="mono">{id}</span> : <AmendmentLink id={id} name={name} />}</li>
              );
            })}
          </ul>
        )}
      </Section>
      <RawJson value={info} label="The raw validator record (JSON)" />
    </Layout>
  );
}
