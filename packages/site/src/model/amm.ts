import { decodeCurrency } from '@xle/documents';

/** An AMM asset's code ("XRP", "PONGO"): the Issue of a pool's Asset or Asset2 (pure). */
export function assetCode(issue: unknown): string {
  if (typeof issue !== 'object' || issue === null) return '?';
  const currency = (issue as { currency?: unknown }).currency;
  return typeof currency === 'string' ? decodeCurrency(currency) : '?';
}

/** A pool by its two assets: "XRP/PONGO" (pure). */
export function poolName(asset: unknown, asset2: unknown): string {
  return `${assetCode(asset)}/${assetCode(asset2)}`;
}

/** A pool's LP token, named by its pool: "LP XRP/PONGO" (pure). */
export function lpTokenName(asset: unknown, asset2: unknown): string {
  return `LP ${poolName(asset, asset2)}`;
}
