import { Layout, type SiteChrome } from './layout.js';

export interface ErrorPageProps {
  status: number;
  heading: string;
  message: string;
  /** A technical reason, shown small (the validator's, for a malformed id). */
  detail?: string | undefined;
  /** What the search box takes, on a refused search. */
  forms?: readonly string[] | undefined;
  /** The request's id, for a report of a server fault. */
  requestId?: string | undefined;
  query?: string | undefined;
}

/** 400, 404, 429, 503, 500…: the same frame as every page, saying what went wrong and what to do. */
export function ErrorPage({ chrome, props }: { chrome: SiteChrome; props: ErrorPageProps }) {
  return (
    <Layout chrome={chrome} title={props.heading} query={props.query}>
      <p class="error-code" aria-hidden="true">
        {props.status}
      </p>
      <h1>{props.heading}</h1>
      <p>{props.message}</p>
      {props.detail === undefined ? null : <p class="muted">{props.detail}</p>}
      {props.forms === undefined ? null : (
        <>
          <p>The search box takes:</p>
          <ul>
            {props.forms.map((form) => (
              <li>{form}</li>
            ))}
          </ul>
        </>
      )}
      {props.requestId === undefined ? null : (
        <p class="muted">
          Request id: <code>{props.requestId}</code>
        </p>
      )}
      <p>
        <a href="/">Back to the newest ledgers</a>
      </p>
    </Layout>
  );
}
