import { decodeCurrency, isLpTokenCode } from '@xle/documents';

/**
 * The site's deep links (the spec's "Website deep links"): one builder per kind of page, so every
 * view links an id the same way (pure).
 */
export const accountHref = (address: string): string => `/account/${address}`;
export const txHref = (hashOrCtid: string): string => `/tx/${hashOrCtid}`;
export const ledgerHref = (indexOrHash: number | string): string => `/ledger/${indexOrHash}`;
export const nftHref = (id: string): string => `/nft/${id}`;
export const validatorHref = (key: string): string => `/validator/${key}`;
export const amendmentHref = (id: string): string => `/amendment/${id}`;
export const ammHref = (account: string): string => `/amm/${account}`;

const PATH_CODE = /^[^\s/\\?#%.]{3,40}$/u;

/**
 * The code a token's page is addressed by: its readable code when it has one that reads back
 * unambiguously (`USD`, `SOLO`), otherwise the 40-hex currency (pure).
 */
export function tokenPathCode(currency: string): string {
  const code = decodeCurrency(currency);
  if (isLpTokenCode(currency) || code === 'XRP' || code.toUpperCase() === currency.toUpperCase()) return currency;
  return PATH_CODE.test(code) ? code : currency;
}

/** `/token/{TOKEN_CODE}.{TOKEN_ISSUER}`. */
export const tokenHref = (currency: string, issuer: string): string =>
  `/token/${encodeURIComponent(tokenPathCode(currency))}.${issuer}`;
