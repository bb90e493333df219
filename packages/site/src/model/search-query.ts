import { isValidClassicAddress } from 'xrpl';
import { LEDGER_INDEX_MAX, LEDGER_INDEX_MIN } from '@xle/api/schemas/params';
import { accountHref, ledgerHref, tokenHref, txHref, validatorHref } from './links.js';

/**
 * What the search box was given, read from its form alone (pure):
 * - `page`: the id's form says which page it is (an address, a ctid, a ledger index, a
 *   CODE.ISSUER token, a validator key): go there, the page answers 404 if it is not indexed;
 * - `hex64`: 64 hex digits are a transaction hash, a ledger hash, an NFT id or an amendment id
 *   alike, and only looking them up tells which;
 * - `text`: no id has that form: a name, a domain, a token code or an amendment name, looked up;
 * - `invalid`: an id's form, but not a valid one (a checksum, a ledger out of bounds); `reason`
 *   says why, for the 400 page.
 */
export type SearchQuery =
  | { kind: 'page'; path: string; what: string }
  | { kind: 'hex64'; id: string }
  | { kind: 'text'; text: string; domain: boolean }
  | { kind: 'invalid'; reason: string };

const BASE58 = '[1-9A-HJ-NP-Za-km-z]';
const ADDRESS = new RegExp(`^r${BASE58}{24,34}$`);
const PUBLIC_KEY = new RegExp(`^n${BASE58}{1,52}$`);
const CTID = /^[Cc][0-9A-Fa-f]{15}$/;
const HEX64 = /^[0-9A-Fa-f]{64}$/;
const DIGITS = /^\d{1,10}$/;
/** A ledger number written with thousands separators: "94,084,608", "94 084 608", "94.084.608", "94'084'608". */
const GROUPED = /^\d{1,3}(?:([,.' \u00A0\u202F_])\d{3})(?:\1\d{3}){0,2}$/;
/** What a domain looks like: labels of letters, digits and hyphens, with a dot. */
const DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
/** The longest text looked up by name. */
export const TEXT_MAX = 80;
const TOKEN = new RegExp(`^([^\\u0000-\\u001F\\u007F]{3,40})\\.(r${BASE58}{24,34})$`);

/** The forms the search box takes, for the page that explains a refusal. */
export const SEARCH_FORMS = [
  'an account address (r…)',
  'a transaction hash (64 hex digits) or its compact id (ctid: C followed by 15 hex digits)',
  `a ledger index (${LEDGER_INDEX_MIN} to ${LEDGER_INDEX_MAX}) or a ledger hash`,
  'a token as CODE.ISSUER (USD.r…)',
  'an NFT id or an amendment id (64 hex digits)',
  'a validator public key (n…)',
  'a name (Bitstamp), a domain (ripplefox.com), a token code (RLUSD) or an amendment name (AMM)',
] as const;

export function classifySearch(raw: string): SearchQuery {
  const q = raw.trim();
  if (q === '') return { kind: 'invalid', reason: 'The search box was empty.' };
  if (ADDRESS.test(q)) {
    return isValidClassicAddress(q)
      ? { kind: 'page', path: accountHref(q), what: 'account' }
      : { kind: 'invalid', reason: `${q} looks like an address but its checksum is wrong.` };
  }
  if (CTID.test(q)) return { kind: 'page', path: txHref(q.toUpperCase()), what: 'transaction' };
  if (HEX64.test(q)) return { kind: 'hex64', id: q.toUpperCase() };
  const digits = DIGITS.test(q) ? q : GROUPED.test(q) ? q.replace(/\D/g, '') : undefined;
  if (digits !== undefined) {
    const index = Number(digits);
    return index >= LEDGER_INDEX_MIN && index <= LEDGER_INDEX_MAX
      ? { kind: 'page', path: ledgerHref(index), what: 'ledger' }
      : {
          kind: 'invalid',
          reason: `Ledger indices go from ${LEDGER_INDEX_MIN} to ${LEDGER_INDEX_MAX}; ${q} is not one.`,
        };
  }
  const token = TOKEN.exec(q);
  if (token !== null) {
    const [, code, issuer] = token as unknown as [string, string, string];
    return isValidClassicAddress(issuer)
      ? { kind: 'page', path: tokenHref(code, issuer), what: 'token' }
      : { kind: 'invalid', reason: `The issuer ${issuer} of ${q} is not a valid address.` };
  }
  if (PUBLIC_KEY.test(q)) return { kind: 'page', path: validatorHref(q), what: 'validator' };
  if (q.length > TEXT_MAX)
    return {
      kind: 'invalid',
      reason: `“${q.slice(0, TEXT_MAX)}…” is longer than any name, domain or code (${TEXT_MAX} characters at most) and none of the ids the search takes.`,
    };
  return { kind: 'text', text: q.replace(/\s+/g, ' '), domain: DOMAIN.test(q) };
}
