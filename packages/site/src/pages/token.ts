import { h } from 'preact';
import { requireDataSet } from '@xle/api/data-set-gate';
import type { Engine } from '@xle/api/engine';
import { TOKENS_DATA_SET } from '@xle/api/resources/data-sets';
import { tokenByCode, tokenHolders } from '@xle/api/resources/tokens';
import { TokenParam } from '@xle/api/schemas/params';
import { thingPage, type AnyPage } from '../page.js';
import type { SiteChrome } from '../views/layout.js';
import { TokenPage, type TokenProps } from '../views/token.js';
import { linkContext } from './common.js';

/** Holders listed on a token's page. */
export const TOP_HOLDERS = 25;

/** One token with its metrics, score, XLS-26 data and its largest holders. */
export async function loadToken(engine: Engine, token: string): Promise<TokenProps> {
  await requireDataSet(engine, TOKENS_DATA_SET, '/token/{TOKEN}');
  const info = await tokenByCode(engine, token);
  const { holders, supply, count } = await tokenHolders(engine, String(info.id), TOP_HOLDERS);
  return { token: info, holders, supply, holderCount: count, ctx: await linkContext(engine, [info, holders]) };
}

/** `/token/{TOKEN_CODE}.{TOKEN_ISSUER}`. */
export function tokenPage(engine: Engine, chrome: SiteChrome): AnyPage {
  return thingPage(
    '/token/:TOKEN',
    { schema: TokenParam, name: 'a token as CODE.ISSUER', cache: 'data-set' },
    async (value) => h(TokenPage, { chrome, props: await loadToken(engine, value) }),
  );
}
