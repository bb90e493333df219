import type { SearchHit } from '../model/search-results.js';
import { Layout, type SiteChrome } from './layout.js';
import { Empty, Section } from './parts.js';

export interface SearchProps {
  query: string;
  hits: readonly SearchHit[];
  /** Close names, when nothing matched. */
  suggestions: readonly SearchHit[];
  forms: readonly string[];
}

const KIND: Readonly<Record<SearchHit['kind'], string>> = {
  account: 'Account',
  token: 'Token',
  amendment: 'Amendment',
};

function HitList({ hits }: { hits: readonly SearchHit[] }) {
  return (
    <ul class="hits">
      {hits.map((hit) => (
        <li>
          <span class="hit-kind">{KIND[hit.kind]}</span> <a href={hit.href}>{hit.title}</a>
          <span class="muted"> {hit.detail}</span>
        </li>
      ))}
    </ul>
  );
}

/** The matches of a search by name, or (nothing found) close names and what the box takes. */
export function SearchPage({ chrome, props }: { chrome: SiteChrome; props: SearchProps }) {
  const found = props.hits.length;
  return (
    <Layout chrome={chrome} title={`Search: ${props.query}`} query={props.query}>
      <h1>{found === 0 ? 'Nothing found' : `${found} matches for “${props.query}”`}</h1>
      {found === 0 ? (
        <>
          <p>No account name or domain, token code or amendment name in the indexed data is “{props.query}”.</p>
          {props.suggestions.length === 0 ? null : (
            <Section id="suggestions" title="Did you mean">
              <HitList hits={props.suggestions} />
            </Section>
          )}
          <Section id="forms" title="The search box takes">
            <ul>
              {props.forms.map((form) => (
                <li>{form}</li>
              ))}
            </ul>
          </Section>
        </>
      ) : (
        <HitList hits={props.hits} />
      )}
      {found === 0 && props.suggestions.length === 0 ? <Empty>Try fewer letters, or a code such as USD.</Empty> : null}
    </Layout>
  );
}
