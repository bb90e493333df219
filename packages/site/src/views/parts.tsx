import { cloneElement, isValidElement, toChildArray, type ComponentChildren } from 'preact';
import { decodeCurrency } from '@xle/documents';
import {
  amountText,
  amountView,
  formatChange,
  formatSignificant,
  formatTokenValue,
  formatTime,
  formatValue,
  prettyJson,
  shortAddress,
  shortHash,
  type AmountView,
} from '../model/format.js';
import { accountHref, amendmentHref, ledgerHref, nftHref, tokenHref, txHref, validatorHref } from '../model/links.js';
import type { Segment } from '../model/summary.js';

/**
 * The pieces every page is made of: links to each kind of page, amounts, times, fact lists,
 * sections and tables. Pure components (props in, markup out); Preact escapes every text.
 */

/** What a view needs to know to link an id: labels of accounts, and which tokens have a page. */
export interface LinkContext {
  /** Account labels (names) by address. */
  names: ReadonlyMap<string, string>;
  /** Token ids (`<currency_hex>.<issuer>`) whose page exists. */
  tokens: ReadonlySet<string>;
  /**
   * Hashes of transactions named by ledger state (an entry's PreviousTxnID, an activation) that are
   * indexed: state seeded from a snapshot names transactions of ledgers that are not.
   */
  txs: ReadonlySet<string>;
  /**
   * Addresses ledger state names that have no page: no account document, no indexed transaction,
   * no trust line (a regular key never used, an NFT issuer outside the indexed ledgers).
   */
  unknownAccounts: ReadonlySet<string>;
  /** AMM accounts the page names, by address: their pool's name ("XRP/PONGO"). */
  pools?: ReadonlyMap<string, string>;
  /** The account whose page this is: its own tokens are named without their issuer. */
  self?: string;
}

export const NO_LINKS: LinkContext = {
  names: new Map(),
  tokens: new Set(),
  txs: new Set(),
  unknownAccounts: new Set(),
  pools: new Map(),
};

/**
 * An address as text: whole on a wide screen, shortened in the middle on a phone ("rpgtb…NSLtf",
 * the whole address in the title); `short` shortens it on every screen. Whichever form is shown
 * is the one assistive technology reads (the other is not displayed).
 */
export function AddressText({ address, short = false }: { address: string; short?: boolean }) {
  const brief = shortAddress(address);
  if (short || brief === address)
    return (
      <span class="mono" title={brief === address ? undefined : address}>
        {brief}
      </span>
    );
  return (
    <span class="mono address">
      <span class="address-full">{address}</span>
      <span class="address-short" title={address}>
        {brief}
      </span>
    </span>
  );
}

/** An address with its label, linked to its page (unless the indexed data knows it not). */
export function AccountLink({ address, ctx, short = false }: { address: string; ctx?: LinkContext; short?: boolean }) {
  const pool = ctx?.pools?.get(address);
  const name = ctx?.names.get(address) ?? (pool === undefined ? undefined : `AMM ${pool}`);
  const content = (
    <>
      {name === undefined ? null : <span class="label">{name} </span>}
      <AddressText address={address} short={short} />
    </>
  );
  return ctx?.unknownAccounts.has(address) === true ? (
    <span class="account" title="Not in the indexed ledgers">
      {content}
    </span>
  ) : (
    <a class="account" href={accountHref(address)} title={address}>
      {content}
    </a>
  );
}

/** An AMM asset or any Issue ({currency, issuer}) by its code, the issuer named and linked. */
export function IssueName({ issue, ctx }: { issue: unknown; ctx: LinkContext }) {
  const view = amountView(typeof issue === 'object' && issue !== null ? { ...issue, value: '' } : issue);
  if (view === undefined) return <span class="muted">—</span>;
  return <Amount amount={{ ...view, value: '' }} ctx={ctx} />;
}

export function TxLink({ hash, full = false }: { hash: string; full?: boolean }) {
  return (
    <a class="mono" href={txHref(hash)} title={full ? undefined : hash}>
      {full ? hash : shortHash(hash)}
    </a>
  );
}

/** A transaction the ledger state names: linked when it is indexed, its hash alone otherwise. */
export function StateTxLink({ hash, ctx }: { hash: string; ctx: LinkContext }) {
  return ctx.txs.has(hash.toUpperCase()) ? (
    <TxLink hash={hash} />
  ) : (
    <span class="mono" title={hash}>
      {shortHash(hash)}
    </span>
  );
}

export function LedgerLink({ index }: { index: number }) {
  return <a href={ledgerHref(index)}>{formatValue(index)}</a>;
}

export function NftLink({ id, full = false }: { id: string; full?: boolean }) {
  return (
    <a class="mono" href={nftHref(id)} title={full ? undefined : id}>
      {full ? id : shortHash(id)}
    </a>
  );
}

export function ValidatorLink({ keyText, short = false }: { keyText: string; short?: boolean }) {
  return (
    <a href={validatorHref(keyText)} title={keyText}>
      <AddressText address={keyText} short={short} />
    </a>
  );
}

export function AmendmentLink({ id, name }: { id: string; name?: string | undefined }) {
  return <a href={amendmentHref(id)}>{name ?? shortHash(id)}</a>;
}

/**
 * A token: its code, linked to its page when it has one, and its issuer (by name when labelled,
 * its address shortened otherwise) in brackets, linked to its account; on the issuer's own page
 * the code alone.
 */
/**
 * A token's name for people: its currency code read as text ("XBAR", not 5842415200…), an LP
 * token as its pool ("LP XRP/PONGO") where the page knows the pool (pure).
 */
export function tokenLabel(currency: string, issuer: string | undefined, ctx: LinkContext): string {
  const code = decodeCurrency(currency);
  const pool = issuer === undefined ? undefined : ctx.pools?.get(issuer);
  return code === 'LP' && pool !== undefined ? `LP ${pool}` : code;
}

export function TokenName({
  currency,
  issuer,
  token,
  ctx,
}: {
  currency: string;
  issuer: string;
  token?: string | undefined;
  ctx: LinkContext;
}) {
  const code = tokenLabel(currency, issuer, ctx);
  const known = token !== undefined && ctx.tokens.has(token);
  const name = ctx.names.get(issuer);
  return (
    <span class="token">
      {known ? <a href={tokenHref(currency, issuer)}>{code}</a> : <span>{code}</span>}
      {ctx.self === issuer ? null : (
        <span class="issuer">
          {' ('}
          {ctx.unknownAccounts.has(issuer) ? (
            <span title={issuer}>{name ?? shortAddress(issuer)}</span>
          ) : (
            <a href={accountHref(issuer)} title={`Issued by ${issuer}`}>
              {name ?? <span class="mono">{shortAddress(issuer)}</span>}
            </a>
          )}
          {')'}
        </span>
      )}
    </span>
  );
}

/** "12.5 USD (Bitstamp)" with the token and the issuer linked; "12.5 XRP". */
export function Amount({ amount, ctx }: { amount: AmountView; ctx: LinkContext }) {
  const value =
    amount.value === '' ? null : (
      <span class="value">{amount.native ? formatValue(amount.value) : <TokenValue value={amount.value} />} </span>
    );
  if (amount.issuer === undefined)
    return (
      <span class="amount" title={amountText(amount)}>
        {value}
        {amount.mpt === undefined ? amount.code : `MPT ${shortHash(amount.mpt)}`}
      </span>
    );
  return (
    <span class="amount">
      {value}
      <TokenName currency={amount.currency} issuer={amount.issuer} token={amount.token} ctx={ctx} />
    </span>
  );
}

/**
 * A token's value as formatTokenValue rounds it (15 significant digits), the exact value in the
 * title where they differ; `signed` writes the sign of a change ("+4,000", "-10,000").
 */
export function TokenValue({ value, signed = false }: { value: string; signed?: boolean }) {
  const shown = signed ? formatChange(value, true) : formatTokenValue(value);
  const exact = signed ? formatChange(value) : formatValue(value);
  return shown === exact ? <>{shown}</> : <span title={exact}>{shown}</span>;
}

/**
 * A token's price or market cap in XRP: rounded as Rounded, or "no price" where the tokens data
 * set knows none (`price_source` null: it writes 0 then, which is not a price of 0).
 */
export function PriceFigure({ value, source, suffix = '' }: { value: unknown; source: unknown; suffix?: string }) {
  const known = source !== null && source !== undefined && (typeof value === 'string' || typeof value === 'number');
  return known ? <Rounded value={value} suffix={suffix} /> : <span class="muted">no price</span>;
}

/** A measured figure rounded for reading, its exact value in the title (shown on hover and read by assistive technology on focus). */
export function Rounded({ value, digits, suffix = '' }: { value: unknown; digits?: number; suffix?: string }) {
  if (typeof value !== 'string' && typeof value !== 'number') return <span class="muted">—</span>;
  const exact = String(value);
  const shown = formatSignificant(exact, digits);
  return (
    <span
      title={shown === formatValue(exact) ? undefined : `${formatValue(exact)}${suffix}`}
    >{`${shown}${suffix}`}</span>
  );
}

export function Time({ iso }: { iso: string | null | undefined }) {
  if (typeof iso !== 'string' || iso === '') return <span class="muted">unknown</span>;
  return <time datetime={iso}>{formatTime(iso)}</time>;
}

/** A summary's segments with every account, amount, NFT and amendment linked. */
export function Summary({ segments, ctx }: { segments: readonly Segment[]; ctx: LinkContext }) {
  return (
    <>
      {segments.map((s) => {
        switch (s.kind) {
          case 'text':
            return s.text;
          case 'account':
            return <AccountLink address={s.address} ctx={ctx} />;
          case 'amount':
            // What moved carries its exact value and currency for scripts and the page's tests;
            // an amount named as terms (a limit, an offer) does not.
            return s.terms === true || s.amount.value === '' ? (
              <Amount amount={s.amount} ctx={ctx} />
            ) : (
              <data class="moved" value={s.amount.value} data-currency={s.amount.currency}>
                <Amount amount={s.amount} ctx={ctx} />
              </data>
            );
          case 'nft':
            return <NftLink id={s.id} />;
          case 'validator':
            return <ValidatorLink keyText={s.key} short />;
          case 'amendment':
            // A named amendment is one the amendments data set knows, so its page answers.
            return s.name === undefined ? <span class="mono">{s.id}</span> : <AmendmentLink id={s.id} name={s.name} />;
        }
      })}
    </>
  );
}

/** A list of facts: term and value side by side on a wide screen, stacked on a phone. */
export function Facts({ items }: { items: readonly (readonly [string, ComponentChildren] | false | null)[] }) {
  return (
    <dl class="facts">
      {items.map((item) =>
        item === false || item === null ? null : (
          <div class="fact">
            <dt>{item[0]}</dt>
            <dd>{item[1]}</dd>
          </div>
        ),
      )}
    </dl>
  );
}

/** A titled part of a page; its heading names it for assistive technology. */
export function Section({
  id,
  title,
  children,
}: {
  id: string;
  title: ComponentChildren;
  children: ComponentChildren;
}) {
  return (
    <section aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{title}</h2>
      {children}
    </section>
  );
}

/** A table that scrolls sideways on a narrow screen (and can be scrolled from the keyboard). */
export function Table({
  caption,
  head,
  children,
  cards = true,
}: {
  caption: string;
  head: readonly string[];
  children: ComponentChildren;
  /**
   * On a phone, show each row as a card of labelled values (the default): each cell of a row
   * written here carries its column's name as `data-label` unless it has its own.
   */
  cards?: boolean;
}) {
  return (
    <div class="table-scroll" role="region" aria-label={caption} tabindex={0}>
      <table class={cards ? 'cards' : undefined}>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {head.map((h) => (
              <th scope="col">{h}</th>
            ))}
          </tr>
        </thead>
        <tbody>{cards ? labelCells(children, head) : children}</tbody>
      </table>
    </div>
  );
}

/** The rows' cells, each with its column's name as `data-label` (for the cards a phone shows). */
function labelCells(children: ComponentChildren, head: readonly string[]): ComponentChildren {
  return toChildArray(children).map((row) => {
    if (!isValidElement(row) || row.type !== 'tr') return row;
    const cells = toChildArray((row.props as { children?: ComponentChildren }).children);
    let column = 0;
    const labelled = cells.map((cell) => {
      if (!isValidElement(cell) || (cell.type !== 'td' && cell.type !== 'th')) return cell;
      const label = head[column];
      column += 1;
      const props = cell.props as Record<string, unknown>;
      return label === undefined || props['data-label'] !== undefined
        ? cell
        : cloneElement(cell, { 'data-label': label } as Record<string, unknown>);
    });
    return cloneElement(row, {}, ...labelled);
  });
}

/** Text for an empty list, so a section never looks broken. */
export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="muted">{children}</p>;
}

/** A transaction result, marked as success or failure. */
export function Result({ code }: { code: string }) {
  return <span class={code === 'tesSUCCESS' ? 'result ok' : 'result failed'}>{code}</span>;
}

/** A yes/no setting. */
export function YesNo({ value }: { value: unknown }) {
  return <>{value === true ? 'yes' : 'no'}</>;
}

/** Pretty JSON behind a toggle: the raw answer the page was made from. */
export function RawJson({ value, label }: { value: unknown; label: string }) {
  return (
    <details class="raw">
      <summary>{label}</summary>
      <pre tabindex={0}>{prettyJson(value)}</pre>
    </details>
  );
}
