import { h } from 'preact';
import Type from 'typebox';
import { requireDataSet } from '@xle/api/data-set-gate';
import type { Engine } from '@xle/api/engine';
import { ammPoolsWithAmounts } from '@xle/api/resources/amm';
import { amendmentList, AMENDMENTS_DATA_SET, TOKENS_DATA_SET, VALIDATORS_DATA_SET } from '@xle/api/resources/data-sets';
import { ledgerList } from '@xle/api/resources/ledgers';
import { tokenList } from '@xle/api/resources/tokens';
import { validatorRegistry } from '@xle/api/resources/validators';
import { TOKEN_SORTS } from '@xle/api/queries/tokens';
import { LEDGER_INDEX_MAX, LEDGER_INDEX_MIN } from '@xle/api/schemas/params';
import { definePage, type AnyPage } from '../page.js';
import type { SiteChrome } from '../views/layout.js';
import {
  AmendmentsListPage,
  AmmListPage,
  LedgersListPage,
  TokensListPage,
  ValidatorsListPage,
  type TokenSort,
} from '../views/lists.js';
import { linkContext } from './common.js';

/** Rows per page of the paged lists. */
export const LIST_PAGE = 50;

/** A query parameter a form or a link sent empty is left out (an empty `before` is the first page). */
const dropEmpty = (raw: Record<string, string | string[] | undefined>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== ''));

const Offset = Type.Optional(
  Type.Integer({ minimum: 0, maximum: 9_950, description: 'Rows skipped (0 to 9,950), in steps of a page.' }),
);

/** `/ledgers?before=N`: the indexed ledgers, newest first, a page at a time. */
export function ledgersPage(engine: Engine, chrome: SiteChrome): AnyPage {
  return definePage({
    path: '/ledgers',
    query: Type.Object(
      {
        before: Type.Optional(
          Type.Integer({
            minimum: LEDGER_INDEX_MIN + 1,
            maximum: LEDGER_INDEX_MAX,
            description: `The ledgers listed are below this index (${LEDGER_INDEX_MIN + 1} to ${LEDGER_INDEX_MAX}).`,
          }),
        ),
      },
      { additionalProperties: false },
    ),
    cache: 'latest',
    prepareQuery: dropEmpty,
    render: async ({ query }) => {
      const { ledgers, next } = await ledgerList(engine, { before: query.before, limit: LIST_PAGE });
      return h(LedgersListPage, { chrome, props: { ledgers, next, before: query.before } });
    },
  });
}

/** `/tokens?sort=&direction=&offset=`: the token list, sorted as the REST `/tokens` sorts. */
export function tokensPage(engine: Engine, chrome: SiteChrome): AnyPage {
  return definePage({
    path: '/tokens',
    query: Type.Object(
      {
        sort: Type.Optional(Type.Union(TOKEN_SORTS.map((s) => Type.Literal(s)))),
        direction: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
        offset: Offset,
      },
      { additionalProperties: false },
    ),
    cache: 'data-set',
    prepareQuery: dropEmpty,
    render: async ({ query }) => {
      await requireDataSet(engine, TOKENS_DATA_SET, '/tokens');
      const sort = (query.sort ?? 'score') as TokenSort;
      const direction = query.direction ?? (sort === 'code' ? 'asc' : 'desc');
      const offset = query.offset ?? 0;
      // One row past the page says whether a next page exists (a full last page has none).
      const read = await tokenList(engine, { sort, direction, offset, limit: LIST_PAGE + 1 });
      const tokens = read.slice(0, LIST_PAGE);
      const ctx = await linkContext(engine, [tokens]);
      const more = read.length > LIST_PAGE;
      return h(TokensListPage, { chrome, props: { tokens, sort, direction, offset, limit: LIST_PAGE, more, ctx } });
    },
  });
}

/** `/validators`: every validator the registry knows. */
export function validatorsPage(engine: Engine, chrome: SiteChrome): AnyPage {
  return definePage({
    path: '/validators',
    cache: 'data-set',
    render: async () => {
      await requireDataSet(engine, VALIDATORS_DATA_SET, '/validators');
      return h(ValidatorsListPage, { chrome, validators: await validatorRegistry(engine) });
    },
  });
}

/** `/amendments`: every amendment of the amendments data set. */
export function amendmentsPage(engine: Engine, chrome: SiteChrome): AnyPage {
  return definePage({
    path: '/amendments',
    cache: 'data-set',
    render: async () => {
      await requireDataSet(engine, AMENDMENTS_DATA_SET, '/amendments');
      return h(AmendmentsListPage, { chrome, amendments: await amendmentList(engine) });
    },
  });
}

/** `/amms?offset=`: the AMM pools of the newest ledger state. */
export function ammsPage(engine: Engine, chrome: SiteChrome): AnyPage {
  return definePage({
    path: '/amms',
    query: Type.Object({ offset: Offset }, { additionalProperties: false }),
    cache: 'latest',
    prepareQuery: dropEmpty,
    render: async ({ query }) => {
      const offset = query.offset ?? 0;
      const read = await ammPoolsWithAmounts(engine, LIST_PAGE + 1, offset);
      const pools = read.pools.slice(0, LIST_PAGE);
      const ctx = await linkContext(engine, [pools]);
      const more = read.pools.length > LIST_PAGE;
      const { amounts } = read;
      return h(AmmListPage, { chrome, props: { pools, amounts, offset, limit: LIST_PAGE, more, ctx } });
    },
  });
}
