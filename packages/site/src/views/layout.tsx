import type { ComponentChildren } from 'preact';
import { renderToString } from 'preact-render-to-string';

/** What every page shares: the network it shows and the versioned paths of the static assets. */
export interface SiteChrome {
  network: 'mainnet' | 'testnet';
  stylesheet: string;
  icon: string;
}

export interface LayoutProps {
  chrome: SiteChrome;
  title: string;
  /** The text the search box shows (the query on a search's error page). */
  query?: string | undefined;
  /** The list page this page is (its menu entry is marked as the current page). */
  section?: SectionPath | undefined;
  children: ComponentChildren;
}

/** The list pages of the site's menu, in its order. */
export const SECTIONS = [
  { path: '/ledgers', label: 'Ledgers' },
  { path: '/tokens', label: 'Tokens' },
  { path: '/amms', label: 'AMM pools' },
  { path: '/validators', label: 'Validators' },
  { path: '/amendments', label: 'Amendments' },
] as const;

export type SectionPath = (typeof SECTIONS)[number]['path'];

/**
 * The page frame: one stylesheet, no script, no font or anything else from elsewhere; a header
 * with the one search box (a plain GET form, so it works without JavaScript) on every page.
 */
export function Layout({ chrome, title, query, section, children }: LayoutProps) {
  const site = chrome.network === 'mainnet' ? 'XRPL Explorer' : 'XRPL Explorer (testnet)';
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>{`${title} · ${site}`}</title>
        <link rel="stylesheet" href={chrome.stylesheet} />
        <link rel="icon" href={chrome.icon} type="image/svg+xml" />
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="site-header">
          <div class="wrap header-row">
            <a class="brand" href="/">
              XRPL Explorer
            </a>
            <span class={`network ${chrome.network}`}>{chrome.network}</span>
            <nav class="site-nav" aria-label="Sections">
              <ul>
                {SECTIONS.map((s) => (
                  <li>
                    <a href={s.path} aria-current={s.path === section ? 'page' : undefined}>
                      {s.label}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
            <form class="search" action="/search" method="get" role="search">
              <label for="q" class="visually-hidden">
                Search by address, name, domain, token code, transaction, ledger, NFT, validator or amendment
              </label>
              <input
                id="q"
                name="q"
                type="search"
                value={query ?? ''}
                placeholder="Address, name, domain, token, tx hash or ctid, ledger, NFT, validator, amendment"
                autocomplete="off"
                spellcheck={false}
                maxlength={200}
                required
              />
              <button type="submit">Search</button>
            </form>
          </div>
        </header>
        <main id="main" class="wrap">
          {children}
        </main>
        <footer class="site-footer">
          <div class="wrap">
            <p>
              The {chrome.network} XRP Ledger, as indexed by this service. The same data as JSON:{' '}
              <a href="/api/v1/docs">the REST API</a>.
            </p>
          </div>
        </footer>
      </body>
    </html>
  );
}

/** A whole HTML document from a page element (Preact escapes every text and attribute). */
export function renderPage(page: ComponentChildren): string {
  return `<!doctype html>\n${renderToString(<>{page}</>)}`;
}
