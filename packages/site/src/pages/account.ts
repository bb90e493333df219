import { h } from 'preact';
import Type from 'typebox';
import { AppError, BadRequestError, ErrorCode, NotFoundError } from '@xle/core';
import { decodeCurrency, tokenId, type Json } from '@xle/documents';
import type { Engine } from '@xle/api/engine';
import { LIST_LIMIT } from '@xle/api/queries/accounts';
import {
  knownAccounts,
  accountActivations,
  accountAncestry,
  accountAssets,
  accountEscrows,
  accountInfo,
  accountNfts,
  accountObligations,
  accountOrders,
  accountTrustLines,
} from '@xle/api/resources/accounts';
import { accountTransactions } from '@xle/api/resources/transactions';
import { accountBalanceHistory, transactionEffects } from '@xle/api/resources/balances';
import { AccountParam } from '@xle/api/schemas/params';
import { AccountTxQuery } from '@xle/api/schemas/queries';
import { definePage, type AnyPage } from '../page.js';
import { AccountPage, type AccountProps, type BalanceChartProps } from '../views/account.js';
import type { SiteChrome } from '../views/layout.js';
import { linkContext, optional } from './common.js';
import { networkReserves } from './reserves.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The transaction filters of the page, as its form sends them: a field left empty is no filter,
 * and a day (a date input's value) is the whole UTC day. What remains is validated by the REST
 * route's own query schema.
 */
export function accountQuery(raw: Record<string, string | string[] | undefined>): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    // The balance chart's asset is the page's own parameter (read in render), not a transaction filter.
    if (value === undefined || value === '' || key === 'chart') continue;
    if (key === 'from' && typeof value === 'string' && DAY.test(value)) query.from = `${value}T00:00:00.000Z`;
    else if (key === 'to' && typeof value === 'string' && DAY.test(value)) query.to = `${value}T23:59:59.999Z`;
    else query[key] = value;
  }
  return query;
}

/** The filters as sent (empty ones dropped), to fill the form and build the paging links. */
function sentFilters(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const filters: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) if (typeof value === 'string' && value !== '') filters[key] = value;
  return filters;
}

/** Days the balance chart covers, up to the newest indexed ledger. */
const CHART_DAYS = 90;
const CHART_ASSET = /^(?:XRP|([^\s.]{3,40})\.(r[1-9A-HJ-NP-Za-km-z]{24,34}))$/;

/** The `chart` parameter: XRP (default) or `<currency>.<issuer>`; anything else is a 400. */
export function chartAsset(raw: unknown): { asset: string; currency: string; issuer?: string } {
  if (raw === undefined || raw === '') return { asset: 'XRP', currency: 'XRP' };
  const match = typeof raw === 'string' ? CHART_ASSET.exec(raw) : null;
  if (match === null)
    throw new BadRequestError(
      'Invalid query parameter "chart": XRP or <currency>.<issuer>.',
      { parameter: 'chart', in: 'query' },
      ErrorCode.InvalidParameter,
    );
  const [asset, currency, issuer] = match as unknown as [string, string | undefined, string | undefined];
  return currency === undefined || issuer === undefined ? { asset, currency: 'XRP' } : { asset, currency, issuer };
}

/** The chart's points from /balance_history, or why the index cannot draw them exactly. */
async function loadChart(
  engine: Engine,
  address: string,
  chart: ReturnType<typeof chartAsset>,
  assets: readonly Json[],
): Promise<BalanceChartProps> {
  const choices = [
    { value: 'XRP', label: 'XRP' },
    ...assets.flatMap((a) =>
      typeof a.currency === 'string' && typeof a.counterparty === 'string'
        ? [{ value: `${a.currency}.${a.counterparty}`, label: `${decodeCurrency(a.currency)} (${a.counterparty})` }]
        : [],
    ),
  ];
  if (!choices.some((c) => c.value === chart.asset)) choices.push({ value: chart.asset, label: chart.asset });
  const unique = choices.filter((c, i) => choices.findIndex((o) => o.value === c.value) === i);
  const label =
    chart.issuer === undefined ? 'XRP' : (choices.find((c) => c.value === chart.asset)?.label ?? chart.asset);
  try {
    // Up to the newest ledger, from CHART_DAYS before it or where the history starts if later.
    const history = (await accountBalanceHistory(engine, address, {
      currency: chart.currency,
      issuer: chart.issuer,
      interval: 'day',
      days: CHART_DAYS,
    })) as { points: Array<{ date: string; balance: string }> };
    return { asset: chart.asset, label, choices: unique, points: history.points };
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== ErrorCode.HistoryIncomplete) throw error;
    const from = (error.details as { complete_from_ledger?: number | null } | undefined)?.complete_from_ledger;
    return {
      asset: chart.asset,
      label,
      choices: unique,
      refused: {
        brief: `Not drawn: the ${label} history of the last ${CHART_DAYS} days has gaps here.`,
        why: `A daily balance needs every ledger of those days; this index holds the account’s history without a gap${
          typeof from === 'number' ? ` only from ledger ${from}` : ' for none of them'
        }, and a chart is never drawn from a guess.`,
      },
    };
  }
}

/** The first page of each list the account page shows (the REST routes page on from there). */
const FIRST_PAGE = { limit: LIST_LIMIT.max };

/**
 * Everything the account page shows, read in parallel with the REST resource functions. An
 * account no longer (or not yet) in the indexed state still has a page while indexed
 * transactions name it; it is a 404 when nothing does.
 */
export async function loadAccount(
  engine: Engine,
  address: string,
  query: AccountTxQuery,
  filters: Record<string, string>,
  chart: ReturnType<typeof chartAsset> = chartAsset(undefined),
): Promise<AccountProps> {
  const [info, assets, trustLines, obligations, orders, nfts, escrows, ancestry, activations, transactions, reserves] =
    await Promise.all([
      optional(accountInfo(engine, address)),
      accountAssets(engine, address),
      accountTrustLines(engine, address, FIRST_PAGE),
      accountObligations(engine, address),
      accountOrders(engine, address, FIRST_PAGE),
      accountNfts(engine, address, FIRST_PAGE),
      accountEscrows(engine, address, FIRST_PAGE),
      optional(accountAncestry(engine, address)),
      accountActivations(engine, address, FIRST_PAGE),
      accountTransactions(engine, address, query),
      networkReserves(engine),
    ]);
  const lines = (trustLines.lines ?? []) as Json[];
  if (info === undefined && !(await knownAccounts(engine, [address])).has(address))
    throw new NotFoundError(`No account ${address} is in the indexed ledgers.`, { account: address });
  // Its own issued tokens and the tokens of its trust lines, whichever side issues them.
  const own = [
    ...obligations.map((o) => tokenId(String(o.currency), address)),
    ...lines.flatMap((l) => [tokenId(String(l.currency), String(l.account)), tokenId(String(l.currency), address)]),
  ].filter((id): id is string => id !== undefined);
  // Transactions the state names: its last change, its activation and its escrows'.
  const named = [
    info?.PreviousTxnID,
    info?.tx_hash,
    ...((ancestry?.ancestry ?? []) as Json[]).map((a) => a.tx_hash),
    ...((activations.accounts ?? []) as Json[]).map((a) => a.tx_hash),
    ...escrows.map((e) => e.PreviousTxnID),
  ].filter((hash): hash is string => typeof hash === 'string');
  // Accounts the state names that need not be in the indexed ledgers.
  const settings = (info?.settings ?? {}) as Json;
  const signers = ((settings.signers as Json | undefined)?.weights ?? []) as Json[];
  const stateAccounts = [
    settings.regularKey,
    ...signers.map((s) => s.address),
    ...escrows.map((e) => e.Destination),
    ...orders.flatMap((o) => [(o.TakerGets as Json | undefined)?.issuer, (o.TakerPays as Json | undefined)?.issuer]),
    ...nfts.map((n) => n.Issuer),
  ].filter((a): a is string => typeof a === 'string');
  const listed = ((transactions.transactions ?? []) as Json[]).map((tx) => ({
    hash: String(tx.hash),
    ledger_index: Number(tx.ledger_index),
  }));
  const [links, effects, balanceChart] = await Promise.all([
    linkContext(engine, [info, assets, orders, escrows, ancestry, activations, transactions], {
      tokens: own,
      txs: named,
      accounts: [...stateAccounts, address],
    }),
    transactionEffects(engine, address, listed),
    loadChart(engine, address, chart, assets),
  ]);
  return {
    address,
    info,
    reserves,
    assets,
    lines,
    obligations,
    orders,
    nfts,
    escrows,
    ancestry,
    activations,
    transactions,
    effects,
    chart: balanceChart,
    filters,
    ctx: { ...links, self: address },
  };
}

/** `/account/{ACCOUNT}`: balances, settings, holdings, offers, NFTs, escrows, ancestry and transactions. */
export function accountPage(engine: Engine, chrome: SiteChrome): AnyPage {
  return definePage({
    path: '/account/:ACCOUNT',
    params: Type.Object({ ACCOUNT: AccountParam }),
    query: AccountTxQuery,
    names: { ACCOUNT: 'an XRP Ledger account address' },
    prepareQuery: accountQuery,
    cache: 'latest',
    render: async ({ params, query }, ctx) =>
      h(AccountPage, {
        chrome,
        props: await loadAccount(engine, params.ACCOUNT, query, sentFilters(ctx.query), chartAsset(ctx.query.chart)),
      }),
  });
}
