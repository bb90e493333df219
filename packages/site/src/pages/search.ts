import type Router from '@koa/router';
import Type from 'typebox';
import { BadRequestError, compileValidator, ErrorCode, NotFoundError } from '@xle/core';
import type { Engine } from '@xle/api/engine';
import { amendmentById } from '@xle/api/resources/data-sets';
import { ledgerById } from '@xle/api/resources/ledgers';
import { nftById, nftHistory } from '@xle/api/resources/nfts';
import { transactionById } from '@xle/api/resources/transactions';
import { amendmentHref, ledgerHref, nftHref, txHref } from '../model/links.js';
import { classifySearch } from '../model/search-query.js';
import { optional } from './common.js';

const SearchQuery = Type.Object(
  { q: Type.Optional(Type.String({ maxLength: 200, description: 'What the search box was given.' })) },
  { additionalProperties: false },
);

/**
 * Which page a 64-hex id has, by looking it up in this order: a transaction (what people paste
 * most), a ledger hash, an NFT (held, burned, or named by an indexed transaction), an amendment.
 * Undefined when none has it.
 */
export async function resolveHex64(engine: Engine, id: string): Promise<string | undefined> {
  if ((await optional(transactionById(engine, id))) !== undefined) return txHref(id);
  if ((await optional(ledgerById(engine, id))) !== undefined) return ledgerHref(id);
  if (
    (await optional(nftById(engine, id))) !== undefined ||
    (await optional(nftHistory(engine, id, { limit: 1, newestFirst: true }))) !== undefined
  )
    return nftHref(id);
  if ((await optional(amendmentById(engine, id))) !== undefined) return amendmentHref(id);
  return undefined;
}

/**
 * `/search?q=`: the search box's target. An id whose form names its page is sent there (302); a
 * 64-hex id is looked up; anything else is a 400 page saying what the box takes, and an id found
 * nowhere a 404 page saying what was looked for.
 */
export function mountSearch(router: Router, engine: Engine): void {
  const validate = compileValidator('query', SearchQuery);
  router.get('/search', async (ctx) => {
    const { q = '' } = validate(ctx.query);
    const query = classifySearch(q);
    if (query.kind === 'invalid')
      throw new BadRequestError(query.reason, { parameter: 'q', in: 'query' }, ErrorCode.InvalidParameter);
    const path = query.kind === 'page' ? query.path : await resolveHex64(engine, query.id);
    if (path === undefined)
      throw new NotFoundError(
        `No transaction, ledger, NFT or amendment with the id ${query.kind === 'hex64' ? query.id : q} is in the indexed ledgers.`,
        { q },
      );
    ctx.set('Cache-Control', 'no-cache');
    ctx.redirect(path);
  });
}
