import type Koa from 'koa';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { EngineCall } from '../engine/breaker.js';

/** Where the Prometheus text is served; answered before access middleware, so never counted. */
export const METRICS_PATH = '/metrics';

/** How old the last reading of an engine-read gauge may be before a scrape starts the next one. */
const GAUGE_READ_MS = 5000;

/**
 * How often the event loop's delay is sampled (prom-client's default is every 10 ms). Each sample
 * is a timer that wakes the process: at 10 ms an idle API spent about 6.5 ms of CPU a second on
 * them (7.7 against 1.2 without; 1.9 at 100 ms), which requests at a sparse pace paid for (in
 * bench:api, with the log's periodic flush also gone, the API's own CPU for tx by hash at ~1.8
 * requests a second went from 5,682 to 2,409 µs). A stall of 100 ms or more is still always seen,
 * and shorter ones in proportion to their length.
 */
const EVENT_LOOP_SAMPLE_MS = 100;

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The engine operation of a call, for a label of bounded cardinality: the first `_` segment of
 * the path (`_search`, `_doc`, `_mget`, `_bulk`, `_pit`), with its sub-resource for the
 * cluster-level APIs (`_cluster/health`); index names and ids never appear.
 */
export function engineOperation(path: string): string {
  const segments = path.split('?')[0]?.split('/').filter(Boolean) ?? [];
  const at = segments.findIndex((s) => s.startsWith('_'));
  if (at < 0) return segments.length === 0 ? '/' : 'index';
  const operation = segments[at] as string;
  return at === 0 && segments[1] !== undefined && !segments[1].startsWith('_')
    ? `${operation}/${segments[1]}`
    : operation;
}

/**
 * One server's metrics in its own registry (several servers in one process stay apart): HTTP
 * requests by route template and status, their latency, engine calls by operation and outcome,
 * quota refusals, the process's default metrics, and gauges read at scrape time (ingest lag, the
 * age of each derived data set) that the app adds with `gauge`.
 */
export class ServerMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'method' | 'route'>;
  private readonly engineLatency: Histogram<'operation' | 'outcome'>;
  readonly quotaRefusals: Counter<'plan' | 'window'>;
  private readonly answerCache: Counter<'result'>;

  constructor() {
    collectDefaultMetrics({
      register: this.registry,
      prefix: 'xle_',
      eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS,
    });
    const registers = [this.registry];
    const counter = <L extends string>(name: string, help: string, labelNames: L[]): Counter<L> =>
      new Counter({ name, help, labelNames, registers });
    const histogram = <L extends string>(name: string, help: string, labelNames: L[]): Histogram<L> =>
      new Histogram({ name, help, labelNames, buckets: LATENCY_BUCKETS, registers });
    this.requests = counter(
      'xle_http_requests_total',
      'HTTP requests answered, by method, route template and status.',
      ['method', 'route', 'status'],
    );
    this.latency = histogram(
      'xle_http_request_duration_seconds',
      'Time from the request until its answer was handed to the socket (a streamed body: its last byte), by method and route template.',
      ['method', 'route'],
    );
    this.engineLatency = histogram(
      'xle_engine_request_duration_seconds',
      'Engine calls by operation and outcome (ok, or the error name), client retries included.',
      ['operation', 'outcome'],
    );
    this.quotaRefusals = counter(
      'xle_quota_refusals_total',
      'Requests refused by a plan limit, by plan and window (second or day).',
      ['plan', 'window'],
    );
    this.answerCache = counter(
      'xle_answer_cache_requests_total',
      'Requests of routes whose answers the API keeps in memory, by result (hit: answered without the engine; miss).',
      ['result'],
    );
  }

  /** One request of a route with an answer cache: answered from it (hit) or not (miss). */
  readonly answerCacheResult = (hit: boolean): void => {
    this.answerCache.inc({ result: hit ? 'hit' : 'miss' });
  };

  /** The transport observer: one engine call ended. */
  readonly engineCall = (call: EngineCall): void => {
    this.engineLatency.observe({ operation: engineOperation(call.path), outcome: call.error ?? 'ok' }, call.seconds);
  };

  /**
   * A gauge whose values `collect` reads from the engine, never while a scrape waits: a scrape
   * answers the values of the last reading at once, and starts the next reading in the background
   * when that one is older than `GAUGE_READ_MS` (one at a time). A reading that fails leaves the
   * gauge empty until one succeeds; one that hangs holds nobody (the engine's time limits end it).
   */
  gauge(name: string, help: string, labelNames: string[], collect: (gauge: Gauge) => Promise<void>): void {
    let latest: { labels: Partial<Record<string, string | number>>; value: number }[] = [];
    let readAt = -Infinity;
    let reading = false;
    const read = (): void => {
      if (reading || performance.now() - readAt < GAUGE_READ_MS) return;
      reading = true;
      const staging = new Gauge({ name, help, labelNames, registers: [] });
      collect(staging)
        .then(
          async () => {
            latest = (await staging.get()).values;
          },
          () => {
            latest = [];
          },
        )
        .finally(() => {
          readAt = performance.now();
          reading = false;
        });
    };
    read();
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      collect() {
        read();
        this.reset();
        for (const { labels, value } of latest) this.set(labels, value);
      },
    });
  }

  /**
   * Outermost middleware: serves GET /metrics, and counts and times every other request by the
   * route template that answered it (`unmatched` when none did) and its final status, once the
   * response is done (off the time the client waits).
   */
  middleware(): Koa.Middleware {
    return async (ctx, next) => {
      if (ctx.path === METRICS_PATH && (ctx.method === 'GET' || ctx.method === 'HEAD')) {
        ctx.set('Content-Type', this.registry.contentType);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = await this.registry.metrics();
        return;
      }
      const started = performance.now();
      ctx.res.once('close', () => {
        const route = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
        const labels = { method: ctx.method, route: typeof route === 'string' ? route : 'unmatched' };
        this.requests.inc({ ...labels, status: String(ctx.status) });
        this.latency.observe(labels, (performance.now() - started) / 1000);
      });
      return next();
    };
  }
}
