import type { Json } from '@xle/documents';
import { formatCount, formatPercent } from '../model/format.js';
import { Layout, type SiteChrome } from './layout.js';
import { Empty, Facts, LedgerLink, RawJson, Section, Table, Time, TxLink, ValidatorLink, YesNo } from './parts.js';

export interface AmendmentProps {
  /** GET /amendment/{AMENDMENT_ID}. */
  amendment: Json;
  /** Registry entries of the validators voting for it. */
  voters: readonly Json[];
  /** How many validators the registry lists (undefined before the validators job ran). */
  validators?: number | undefined;
  enablingTxIndexed: boolean;
  enablingLedgerIndexed: boolean;
}

/**
 * An amendment's status in words: in full on its page, briefly (`brief`) in the list of them.
 */
export function amendmentStatus(a: Json, brief = false): string {
  if (a.enabled === true) return 'enabled';
  if (a.retired === true) return 'retired';
  if (a.obsolete === true) return 'obsolete';
  if (a.majority !== null && a.majority !== undefined)
    return brief ? 'has a majority' : 'has a majority, waiting to be enabled';
  if (a.supported === true) return 'open for voting';
  return brief ? 'not supported' : 'not supported by this server version';
}

/** `/amendment/{AMENDMENT_ID}`. */
export function AmendmentPage({ chrome, props }: { chrome: SiteChrome; props: AmendmentProps }) {
  const a = props.amendment;
  const id = String(a.amendment_id);
  const name = typeof a.name === 'string' ? a.name : id;
  return (
    <Layout chrome={chrome} title={`Amendment ${name}`}>
      <h1>
        <span class="kicker">Amendment</span>
        {name}
      </h1>
      <Facts
        items={[
          ['Status', amendmentStatus(a)],
          ['Id', <span class="mono">{id}</span>],
          typeof a.introduced === 'string' && ['Introduced in', `rippled ${a.introduced}`],
          a.enabled === true && ['Enabled on', <Time iso={a.enabled_on as string} />],
          typeof a.tx_hash === 'string' && [
            'Enabled by',
            props.enablingTxIndexed ? <TxLink hash={a.tx_hash} full /> : <span class="mono">{a.tx_hash}</span>,
          ],
          typeof a.ledger_index === 'number' && [
            'In ledger',
            props.enablingLedgerIndexed ? <LedgerLink index={a.ledger_index} /> : formatCount(a.ledger_index),
          ],
          a.majority !== null && a.majority !== undefined && ['Majority since', String(a.majority)],
          ['Supported by current servers', <YesNo value={a.supported} />],
          a.count !== undefined && [
            'Votes / threshold',
            `${String(a.count)} of ${String(a.validations)} (threshold ${String(a.threshold)})`,
          ],
        ]}
      />
      <Section id="votes" title="Votes">
        {a.enabled === true ? (
          <p>Enabled: validators no longer vote on it.</p>
        ) : props.validators === undefined ? (
          <Empty>The validators data set has not been computed yet.</Empty>
        ) : (
          <>
            <p>
              {formatCount(props.voters.length)} of the {formatCount(props.validators)} known validators vote for it in
              their newest validations
              {props.validators === 0 ? '' : ` (${formatPercent(props.voters.length / props.validators, 1)})`}.
            </p>
            {props.voters.length === 0 ? null : (
              <Table caption="Validators voting for it" head={['Validator', 'Domain', 'UNL']}>
                {props.voters.map((v) => (
                  <tr>
                    <td>
                      <ValidatorLink keyText={String(v.master_key)} />
                    </td>
                    <td>{typeof v.domain === 'string' ? v.domain : ''}</td>
                    <td>{Array.isArray(v.unl) ? v.unl.join(', ') : ''}</td>
                  </tr>
                ))}
              </Table>
            )}
          </>
        )}
      </Section>
      <RawJson value={a} label="The raw amendment record (JSON)" />
    </Layout>
  );
}
