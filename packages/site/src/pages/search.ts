import type Router from '@koa/router';
import Type from 'typebox';
import { h } from 'preact';
import { BadRequestError, compileValidator, ErrorCode, NotFoundError } from '@xle/core';
import type { Engine } from '@xle/api/engine';
import { requireDataSet } from '@xle/api/data-set-gate';
import { amendmentById, amendmentList, AMENDMENTS_DATA_SET, TOKENS_DATA_SET } from '@xle/api/resources/data-sets';
import { knownAccounts } from '@xle/api/resources/accounts';
import { domainAccounts, labelMatches, labelSuggestions, tokenMatches } from '@xle/api/resources/find';
import { ledgerById } from '@xle/api/resources/ledgers';
import { nftById, nftHistory } from '@xle/api/resources/nfts';
import { transactionById } from '@xle/api/resources/transactions';
import { amendmentHref, ledgerHref, nftHref, txHref } from '../model/links.js';
import { classifySearch, SEARCH_FORMS } from '../model/search-query.js';
import { amendmentHits, domainHits, labelHits, rankHits, tokenHits, type SearchHit } from '../model/search-results.js';
import { sendHtml } from '../page.js';
import type { SiteChrome } from '../views/layout.js';
import { renderPage } from '../views/layout.js';
import { SearchPage } from '../views/search.js';
import { optional } from './common.js';

const SearchQuery = Type.Object(
  { q: Type.Optional(Type.String({ maxLength: 200, description: 'What the search box was given.' })) },
  { additionalProperties: false },
);

/** Matches listed per kind of match. */
const MATCHES = 20;

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
 * A search by name: labels (name, domain, username), accounts whose Domain is the domain typed,
 * tokens by code or XLS-26 name, amendments by name, in parallel; a data set not computed yet
 * adds nothing. Exact matches first.
 */
export async function searchByText(engine: Engine, text: string, domain: boolean): Promise<SearchHit[]> {
  const gated = <T>(gate: { job: string }, read: () => Promise<T>): Promise<T | undefined> =>
    optional(requireDataSet(engine, gate, '/search').then(read));
  const [labels, domains, tokens, amendments] = await Promise.all([
    labelMatches(engine, text, MATCHES),
    domain ? domainAccounts(engine, text, MATCHES) : [],
    gated(TOKENS_DATA_SET, () => tokenMatches(engine, text, MATCHES)),
    gated(AMENDMENTS_DATA_SET, () => amendmentList(engine)),
  ]);
  // A label may name an account the indexed ledgers never saw (a gateway's old hot wallet): only
  // accounts with a page are listed.
  const known = await knownAccounts(engine, [...labels.map((l) => l.account), ...domains.map((d) => d.account)]);
  return rankHits([
    ...labelHits(
      labels.filter((l) => known.has(l.account)),
      text,
    ),
    ...domainHits(
      domains.filter((d) => known.has(d.account)),
      text,
    ),
    ...tokenHits(tokens ?? [], text),
    ...amendmentHits(amendments ?? [], text).slice(0, MATCHES),
  ]);
}

/** Close names, for a search that found nothing: labels a letter or two off, of accounts with a page. */
async function suggest(engine: Engine, text: string): Promise<SearchHit[]> {
  const close = await labelSuggestions(engine, text, 10);
  const known = await knownAccounts(
    engine,
    close.map((l) => l.account),
  );
  return labelHits(close.filter((l) => known.has(l.account)).slice(0, 5), text);
}

/**
 * `/search?q=`: the search box's target. An id whose form names its page is sent there (302); a
 * 64-hex id is looked up; anything else is looked up by name: one match is sent to its page,
 * several are listed, none is a 404 page with close names and what the box takes. A malformed id
 * (an address's checksum, a ledger out of bounds) is a 400 page saying why.
 */
export function mountSearch(router: Router, engine: Engine, chrome: SiteChrome): void {
  const validate = compileValidator('query', SearchQuery);
  router.get('/search', async (ctx) => {
    const { q = '' } = validate(ctx.query);
    const query = classifySearch(q);
    if (query.kind === 'invalid')
      throw new BadRequestError(query.reason, { parameter: 'q', in: 'query' }, ErrorCode.InvalidParameter);
    ctx.set('Cache-Control', 'no-cache');
    if (query.kind === 'text') {
      const hits = await searchByText(engine, query.text, query.domain);
      if (hits.length === 1) return ctx.redirect((hits[0] as SearchHit).href);
      const suggestions = hits.length === 0 ? await suggest(engine, query.text) : [];
      sendHtml(
        ctx,
        renderPage(h(SearchPage, { chrome, props: { query: q.trim(), hits, suggestions, forms: SEARCH_FORMS } })),
        'none',
      );
      if (hits.length === 0) ctx.status = 404;
      return;
    }
    if (query.kind === 'page') return ctx.redirect(query.path);
    const path = await resolveHex64(engine, query.id);
    if (path === undefined)
      throw new NotFoundError(
        `No transaction, ledger, NFT or amendment with the id ${query.id} is in the indexed ledgers.`,
        {
          q,
        },
      );
    ctx.redirect(path);
  });
}
