import etag from 'etag';
import type { Context } from 'koa';
import type Router from '@koa/router';
import Type, { type Static, type TObject, type TSchema } from 'typebox';
import Compile from 'typebox/compile';
import type { TtlCache } from '../cache.js';
import { AppError, ErrorCode } from '../errors.js';
import { toJson } from './json.js';
import { compileValidator } from './validate.js';

/** A route whose answer is a data set computed by a job: 503 DATA_NOT_READY until its first run. */
export interface DataSetGate {
  /** The job whose completed run (its `job.<name>` record in ingest-state) makes the data ready. */
  job: string;
  /** The data set's name in the API documentation (default: the job's). */
  name?: string;
  /** The command that computes it (default `pnpm ingest <job>`). */
  command?: string;
}

/**
 * How long an answer may be reused: `immutable` (a validated transaction or ledger never
 * changes), `latest` (follows the ledger tip: a few seconds), `data-set` (a job's output, until
 * its next run), `none` (revalidate every time; the default). Every JSON answer carries a weak
 * ETag, so a client that revalidates gets 304 when nothing changed.
 */
export type CachePolicy = 'immutable' | 'latest' | 'data-set' | 'none';

export const CACHE_CONTROL: Readonly<Record<CachePolicy, string>> = {
  immutable: 'public, max-age=31536000, immutable',
  latest: 'public, max-age=3',
  'data-set': 'public, max-age=60, stale-while-revalidate=300',
  none: 'no-cache',
};

/** An answer's bytes and weak ETag, as sent and as the answer cache keeps them. */
export interface CachedAnswer {
  bytes: Buffer;
  etag: string;
}

const answerOf = (text: string): CachedAnswer => {
  const bytes = Buffer.from(text);
  return { bytes, etag: etag(bytes, { weak: true }) };
};

/**
 * The bytes in a buffer of their own: a small Buffer.from is a slice of Node's shared 8 KB pool,
 * and keeping one would keep the whole block (several times what the cache weighs it at).
 */
function ownBytes(bytes: Buffer): Buffer {
  const own = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(own);
  return own;
}

function sendAnswer(ctx: Context, answer: CachedAnswer, type: string, cache?: CachePolicy): void {
  ctx.type = type;
  ctx.body = answer.bytes;
  if (cache === undefined) return;
  ctx.set('Cache-Control', CACHE_CONTROL[cache]);
  ctx.set('ETag', answer.etag);
}

/**
 * Sets a text answer (JSON, a page) as its UTF-8 bytes, encoded once: the ETag, the compression
 * and the socket all read these bytes (a string body would be encoded again by each, about 50 µs a
 * time for a 70 KB page of transactions). With a cache policy, also its Cache-Control and a weak
 * ETag (If-None-Match then answers 304).
 */
export function sendText(ctx: Context, text: string, type: string, cache?: CachePolicy): void {
  sendAnswer(ctx, answerOf(text), type, cache);
}

/**
 * The answers a process keeps of the routes that allow it (`answerCache`), by route and validated
 * input; `counted` is told whether each such request was a hit.
 */
export interface AnswerCacheOptions {
  cache: TtlCache<string, CachedAnswer>;
  counted?: (hit: boolean) => void;
}

export interface RouteInput<P extends TObject, Q extends TObject, B extends TSchema> {
  params: Static<P>;
  query: Static<Q>;
  body: Static<B>;
}

/**
 * One route, declared once: its schemas validate requests at the edge (defaults and string to
 * number conversion explicit, unknown parameters rejected, cross-field rules, every error with its
 * parameter) and make the OpenAPI document; the handler receives the typed, validated input and
 * returns the answer's body (or sets a streamed body on `ctx` itself and returns undefined).
 */
export interface RouteSpec<P extends TObject, Q extends TObject, B extends TSchema> {
  method: 'get' | 'post' | 'delete';
  /** OpenAPI form, relative to the router's prefix: `/account/{ACCOUNT}`. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  params?: P;
  query?: Q;
  body?: B;
  /** The 200 answer's schema. */
  response: TSchema;
  /** Media types of the 200 answer (default application/json; the schema applies to JSON). */
  produces?: readonly string[];
  /** The 200 answer's schema for each media type of `produces` that is not JSON (a text or binary format). */
  formats?: Readonly<Record<string, TSchema>>;
  /** Statuses this route answers besides 200 and the document's own, with their meaning (added to those). */
  errors?: Readonly<Record<string, string>>;
  /** Answers 503 DATA_NOT_READY until the data set behind it is computed. */
  dataSet?: DataSetGate;
  /** The answer's Cache-Control (default `data-set` for data-set routes, else `none`); may depend on the input. */
  cache?: CachePolicy | ((input: RouteInput<P, Q, B>) => CachePolicy);
  /**
   * A GET whose 200 answer is one indexed document that never changes (a validated transaction, a
   * ledger header): its bytes may be kept in the process's answer cache (MountOptions.answers) and
   * sent again for the same validated input without asking the engine. Access, validation and the
   * log still see every request. Its handler must set no status or header of its own: a kept
   * answer is its JSON, Cache-Control and ETag only.
   */
  answerCache?: boolean;
  handler: (input: RouteInput<P, Q, B>, ctx: Context) => unknown;
}

export type AnyRoute = RouteSpec<TObject, TObject, TSchema>;

export const NoParams = Type.Object({});
export const NoQuery = Type.Object({}, { additionalProperties: false });

/** Declares a route; its input types follow from its schemas. */
export function defineRoute<
  P extends TObject = typeof NoParams,
  Q extends TObject = typeof NoQuery,
  B extends TSchema = TSchema,
>(spec: RouteSpec<P, Q, B>): AnyRoute {
  return spec as unknown as AnyRoute;
}

export interface MountOptions {
  /** Checked after validation and before the handler, for routes that declare a data set. */
  requireDataSet?: (gate: DataSetGate, path: string) => Promise<Record<string, string> | void>;
  /** Check every JSON answer against the route's response schema (api.validateResponses). */
  validateResponses?: boolean;
  /** The answer cache of the routes that allow one (`answerCache`); none when undefined. */
  answers?: AnswerCacheOptions;
}

/**
 * The check of a route's answers against its published schema, on the JSON text the client
 * receives (so undefined members are absent): a mismatch is the server's fault, answered 500
 * RESPONSE_CONTRACT_VIOLATION with where the answer and the schema part (the first 10).
 */
function responseChecker(route: AnyRoute): (json: string) => void {
  const checker = Compile(route.response);
  return (json) => {
    const sent: unknown = JSON.parse(json);
    if (checker.Check(sent)) return;
    const errors = [...checker.Errors(sent)].slice(0, 10).map((e) => ({
      path: e.instancePath,
      message: e.message,
    }));
    throw new AppError(
      500,
      ErrorCode.ResponseContractViolation,
      `The answer of ${route.method.toUpperCase()} ${route.path} does not match its published schema.`,
      { details: { errors } },
    );
  };
}

/** A GET answer's Cache-Control policy: the route's own, else `data-set` behind a data-set gate, else `none`. */
function cachePolicy(route: AnyRoute, input: RouteInput<TObject, TObject, TSchema>): CachePolicy {
  if (typeof route.cache === 'function') return route.cache(input);
  return route.cache ?? (route.dataSet === undefined ? 'none' : 'data-set');
}

/** Mounts declared routes on a router: validate → gate → handler → body. */
export function mountRoutes(router: Router, routes: readonly AnyRoute[], options: MountOptions = {}): void {
  for (const route of routes) {
    const params = compileValidator('path', route.params ?? NoParams);
    const query = compileValidator('query', route.query ?? NoQuery);
    const body = route.body === undefined ? undefined : compileValidator('body', route.body);
    const gate = route.dataSet;
    const contract = options.validateResponses === true ? responseChecker(route) : undefined;
    const answers =
      route.answerCache === true && route.method === 'get' && gate === undefined ? options.answers : undefined;
    router[route.method](route.path.replace(/\{(\w+)\}/g, ':$1'), async (ctx) => {
      const input = {
        params: params(ctx.params),
        query: query(ctx.query),
        body: body === undefined ? undefined : body((ctx.request as { body?: unknown }).body),
      };
      const key = answers === undefined ? undefined : `${route.path}\n${JSON.stringify([input.params, input.query])}`;
      if (key !== undefined) {
        const kept = answers?.cache.get(key);
        answers?.counted?.(kept !== undefined);
        if (kept !== undefined) return sendAnswer(ctx, kept, 'json', cachePolicy(route, input as never));
      }
      // Validation first: a malformed request is a 400 whether or not the data is ready.
      if (gate !== undefined && options.requireDataSet !== undefined) {
        // What the data set's answer covers, as the gate says it (its as-of ledger, whether behind).
        const covers = await options.requireDataSet(gate, route.path);
        if (covers !== undefined) for (const [name, value] of Object.entries(covers)) ctx.set(name, value);
      }
      const answer = await route.handler(input as never, ctx);
      if (answer === undefined) return;
      // Serialised once here (not again by Koa): the contract check reads the text sent.
      const json = toJson(answer);
      contract?.(json);
      if (route.method !== 'get') return sendText(ctx, json, 'json');
      const sent = answerOf(json);
      if (key !== undefined) answers?.cache.set(key, { ...sent, bytes: ownBytes(sent.bytes) });
      sendAnswer(ctx, sent, 'json', cachePolicy(route, input as never));
    });
  }
}
