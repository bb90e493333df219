import type { Json } from '@xle/documents';
import type { Engine } from '../engine.js';
import { lookupLabels } from '../enrich/labels.js';
import {
  buildDomainAccountsQuery,
  buildLabelSearchQuery,
  buildLabelSuggestQuery,
  buildTokenSearchQuery,
} from '../queries/find.js';
import { toLabel, type Label } from '../shapers/labels.js';
import { labelledTokens } from './tokens.js';

/**
 * Search by what people type (the website's search box): labels by name or domain, accounts by
 * their own Domain, tokens by code or name. Each answers at most `limit` matches, best first.
 */

/** Labels of the names index whose name, domain or username is what was typed. */
export async function labelMatches(engine: Engine, text: string, limit: number): Promise<Label[]> {
  const found = await engine.search<Json>('names', buildLabelSearchQuery(text, limit));
  return found.hits.hits.map((h) => toLabel(String(h._source?.account ?? h._id), h._source ?? {}));
}

/** Labels whose name is a letter or two from what was typed (for a search that found nothing). */
export async function labelSuggestions(engine: Engine, text: string, limit: number): Promise<Label[]> {
  const found = await engine.search<Json>('names', buildLabelSuggestQuery(text, limit));
  return found.hits.hits.map((h) => toLabel(String(h._source?.account ?? h._id), h._source ?? {}));
}

/** Accounts whose Domain field is the domain typed, with their labels. */
export async function domainAccounts(
  engine: Engine,
  domain: string,
  limit: number,
): Promise<Array<{ account: string; domain: string; name: Label | null }>> {
  const found = await engine.search<{ Account: string; _Domain?: string }>(
    'accounts',
    buildDomainAccountsQuery(domain, limit),
  );
  const rows = found.hits.hits.flatMap((h) => (h._source === undefined ? [] : [h._source]));
  const labels = await lookupLabels(
    engine,
    rows.map((r) => r.Account),
  );
  return rows.map((r) => ({ account: r.Account, domain: r._Domain ?? domain, name: labels.get(r.Account) ?? null }));
}

/** Tokens whose code is the text (any case) or whose XLS-26 name holds its words, as the token list shows them. */
export async function tokenMatches(engine: Engine, text: string, limit: number): Promise<Json[]> {
  const found = await engine.search<Json>('tokens', buildTokenSearchQuery(text, limit));
  return labelledTokens(
    engine,
    found.hits.hits.map((h) => h._source ?? {}),
  );
}
