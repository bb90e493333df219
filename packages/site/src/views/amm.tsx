import { parseRippledTimeText, type Json } from '@xle/documents';
import { amountView, formatCount, formatPercent } from '../model/format.js';
import { lpTokenName, poolName } from '../model/amm.js';
import { Layout, type SiteChrome } from './layout.js';
import {
  AccountLink,
  Amount,
  Empty,
  Facts,
  RawJson,
  Rounded,
  Section,
  Table,
  Time,
  type LinkContext,
} from './parts.js';
import { TxTable } from './tx-table.js';

export interface AmmProps {
  /** GET /amm/{AMM_ACCOUNT} (rippled's amm_info shape). */
  amm: Json;
  /** The pool's AMM entry assets (Asset, Asset2), as the ledger writes them. */
  assets: { Asset: unknown; Asset2: unknown };
  /** The pool account's newest transactions: deposits, withdrawals, votes, bids and the swaps that crossed it. */
  transactions: readonly Json[];
  /** The close time (ISO 8601) of the newest indexed ledger, whose state the pool is. */
  asOf?: string | undefined;
  ctx: LinkContext;
}

/** When the auction slot expires, and whether it has at the pool's ledger. */
function SlotExpiry({ expiration, asOf }: { expiration: string; asOf: string | undefined }) {
  const seconds = parseRippledTimeText(expiration);
  if (seconds === undefined) return <>{expiration}</>;
  const passed = asOf !== undefined && seconds * 1000 <= Date.parse(asOf);
  return (
    <>
      <Time iso={new Date(seconds * 1000).toISOString()} />
      {passed ? ' (expired by the newest indexed ledger: the slot is free to bid for)' : null}
    </>
  );
}

/** An amount of amm_info (drops text or an issued amount), or a dash when the pool's side is not indexed. */
function PoolAmount({ raw, ctx }: { raw: unknown; ctx: LinkContext }) {
  const view = amountView(raw);
  return view === undefined ? <span class="muted">not indexed</span> : <Amount amount={view} ctx={ctx} />;
}

/** `/amm/{AMM_ACCOUNT}`: an AMM pool: its two assets, trading fee, LP tokens, auction slot, votes and activity. */
export function AmmPage({ chrome, props }: { chrome: SiteChrome; props: AmmProps }) {
  const { amm, ctx } = props;
  const name = poolName(props.assets.Asset, props.assets.Asset2);
  const slot = amm.auction_slot as Json | undefined;
  const votes = (amm.vote_slots ?? []) as Json[];
  const lp = amountView(amm.lp_token);
  const fee = Number(amm.trading_fee ?? 0);
  return (
    <Layout chrome={chrome} title={`AMM pool ${name}`} section="/amms">
      <h1>
        <span class="kicker">AMM pool</span>
        {name}
      </h1>
      <Facts
        items={[
          ['Pool account', <AccountLink address={String(amm.account)} ctx={ctx} />],
          ['Asset 1', <PoolAmount raw={amm.amount} ctx={ctx} />],
          ['Asset 2', <PoolAmount raw={amm.amount2} ctx={ctx} />],
          ['Trading fee', `${formatPercent(fee / 100_000, 3)} (${formatCount(fee)} in units of 1/100,000)`],
          [
            'LP tokens issued',
            lp === undefined ? (
              '—'
            ) : (
              <>
                <Rounded value={lp.value} /> {lpTokenName(props.assets.Asset, props.assets.Asset2)}
              </>
            ),
          ],
          amm.asset_frozen === true && ['Asset 1', 'frozen'],
          amm.asset2_frozen === true && ['Asset 2', 'frozen'],
        ]}
      />
      <Section id="auction" title="Auction slot">
        {slot === undefined || typeof slot.account !== 'string' ? (
          <Empty>Nobody holds the auction slot.</Empty>
        ) : (
          <Facts
            items={[
              ['Held by', <AccountLink address={slot.account} ctx={ctx} />],
              ['Discounted fee', formatPercent(Number(slot.discounted_fee ?? 0) / 100_000, 3)],
              [
                'Price paid',
                <>
                  <Rounded value={(slot.price as Json | undefined)?.value} />{' '}
                  {lpTokenName(props.assets.Asset, props.assets.Asset2)}
                </>,
              ],
              typeof slot.expiration === 'string' && [
                'Expires',
                <SlotExpiry expiration={slot.expiration} asOf={props.asOf} />,
              ],
            ]}
          />
        )}
      </Section>
      <Section id="votes" title={`Trading fee votes (${votes.length})`}>
        {votes.length === 0 ? (
          <Empty>No liquidity provider has voted on the fee.</Empty>
        ) : (
          <Table caption="Trading fee votes" head={['Liquidity provider', 'Fee voted', 'Vote weight']} cards>
            {votes.map((v) => (
              <tr>
                <td data-label="Liquidity provider">
                  <AccountLink address={String(v.account)} ctx={ctx} />
                </td>
                <td data-label="Fee voted" class="num">
                  {formatPercent(Number(v.trading_fee ?? 0) / 100_000, 3)}
                </td>
                <td data-label="Vote weight" class="num">
                  {formatPercent(Number(v.vote_weight ?? 0) / 100_000, 3)}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
      <Section id="activity" title="Recent deposits, withdrawals and swaps">
        <TxTable caption="The pool's newest transactions" transactions={props.transactions} ctx={ctx} />
      </Section>
      <RawJson value={amm} label="The pool as amm_info shows it (JSON)" />
    </Layout>
  );
}
