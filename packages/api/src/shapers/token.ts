import { rawEntry, trustLineSides, type Json } from '@xle/documents';
import { labelOf, type Label, type Labels } from './labels.js';

/**
 * The spec's Token (pure): the stored document without the job's bookkeeping (`_history`,
 * `ledger_index`, the `_price` / `_marketcap` sort keys), `tomldata` only
 * when asked for (token info, not the list), `toml_status` telling when the issuer's
 * xrp-ledger.toml was last fetched and with what outcome, and the issuer's label.
 */
export function shapeToken(doc: Json, label: Label | null, withToml: boolean): Json {
  const { _toml, _history, _price, _marketcap, tomldata, ledger_index: _ledger, ...token } = doc;
  const shaped: Json = { ...token, toml_status: _toml ?? null, IssuingAccount: label };
  if (withToml) shaped.tomldata = tomldata ?? null;
  return shaped;
}

/** The tokens list: each token without its toml data, with its issuer's label (pure). */
export function shapeTokens(docs: readonly Json[], labels: Labels): Json[] {
  return docs.map((d) => shapeToken(d, labelOf(labels, d.issuer), false));
}

/** One holder of a token: the account, its exact balance, and its label. */
export interface TokenHolder {
  account: string;
  balance: string;
  name: Label | null;
}

/**
 * The holders of one token from its trust-line documents (pure): each line's side that holds the
 * token, with the exact balance from the entry (the indexed `_holding` is a double, for sorting).
 */
export function shapeTokenHolders(token: string, lines: readonly Json[], labels: Labels): TokenHolder[] {
  return lines.flatMap((line) =>
    trustLineSides(rawEntry(line))
      .filter((side) => side.token === token && side.holding !== '0')
      .map((side) => ({ account: side.holder, balance: side.holding, name: labelOf(labels, side.holder) })),
  );
}
