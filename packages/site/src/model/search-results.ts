import { decodeCurrency } from '@xle/documents';
import { accountHref, amendmentHref, tokenHref } from './links.js';

/**
 * What a search by name found, as the results page lists it (pure): each match with its page,
 * what it is, and whether it is exactly what was typed (those come first).
 */
export interface SearchHit {
  kind: 'account' | 'token' | 'amendment';
  href: string;
  title: string;
  /** What the match is, in a few words ("issued by Ripple Fox · 23 holders"). */
  detail: string;
  /** The name, domain, code or amendment name is what was typed (any case). */
  exact: boolean;
}

interface LabelLike {
  account: string;
  name?: string | undefined;
  domain?: string | undefined;
  username?: string | undefined;
}

const same = (a: unknown, b: string): boolean => typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

/** Labelled accounts (the names index). */
export function labelHits(labels: readonly LabelLike[], text: string): SearchHit[] {
  return labels.map((l) => ({
    kind: 'account',
    href: accountHref(l.account),
    title: l.name ?? l.username ?? l.account,
    detail: [`account ${l.account}`, l.domain].filter((x) => x !== undefined && x !== '').join(' · '),
    exact: same(l.name, text) || same(l.domain, text) || same(l.username, text),
  }));
}

/** Accounts whose own Domain is the domain typed. */
export function domainHits(
  accounts: readonly { account: string; domain: string; name: { name?: string } | null }[],
  text: string,
): SearchHit[] {
  return accounts.map((a) => ({
    kind: 'account',
    href: accountHref(a.account),
    title: a.name?.name ?? a.account,
    detail: `account ${a.account} · Domain ${a.domain}`,
    exact: same(a.domain, text),
  }));
}

/** Tokens by code or XLS-26 name: several issuers of one code are told apart by their issuer's name. */
export function tokenHits(tokens: readonly Record<string, unknown>[], text: string): SearchHit[] {
  return tokens.flatMap((t) => {
    if (typeof t.currency !== 'string' || typeof t.issuer !== 'string') return [];
    const issuer = (t.IssuingAccount as { name?: string } | null | undefined)?.name ?? t.issuer;
    const holders = typeof t.holders === 'number' ? ` · ${t.holders.toLocaleString('en-US')} holders` : '';
    const code = typeof t.code === 'string' ? t.code : decodeCurrency(t.currency);
    return [
      {
        kind: 'token' as const,
        href: tokenHref(t.currency, t.issuer),
        title: code,
        detail: `token issued by ${issuer}${holders}`,
        exact: same(code, text),
      },
    ];
  });
}

/** Amendments whose name is, or holds, what was typed. */
export function amendmentHits(amendments: readonly Record<string, unknown>[], text: string): SearchHit[] {
  const lower = text.toLowerCase();
  return amendments.flatMap((a) => {
    if (typeof a.name !== 'string' || typeof a.amendment_id !== 'string') return [];
    if (!a.name.toLowerCase().includes(lower)) return [];
    return [
      {
        kind: 'amendment' as const,
        href: amendmentHref(a.amendment_id),
        title: a.name,
        detail: `amendment · ${a.enabled === true ? 'enabled' : 'not enabled'}`,
        exact: same(a.name, text),
      },
    ];
  });
}

/** Every match once (by page), exact matches first, each kind in the order it was found. */
export function rankHits(hits: readonly SearchHit[]): SearchHit[] {
  const seen = new Set<string>();
  const unique = hits.filter((h) => !seen.has(h.href) && seen.add(h.href) !== undefined);
  return [...unique.filter((h) => h.exact), ...unique.filter((h) => !h.exact)];
}
