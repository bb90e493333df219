// Shared by every package: configuration, errors, logging, index names, the engine client and
// its readers, templates, the HTTP route layer, and the command-line helpers.
export { TtlCache, type TtlCacheOptions } from './cache.js';
export {
  type CommandArgs,
  type CommandOptions,
  type Command,
  defineCommand,
  integerOption,
  reportError,
  runCli,
  runCommand,
} from './cli/command.js';
export { createProgress, formatSeconds, type Progress, type ProgressOptions } from './cli/progress.js';
export { abortOnSignals, sleepUnless } from './cli/signals.js';
export {
  type Config,
  type DeepPartial,
  type LoadConfigOptions,
  type LocalClusterFile,
  ConfigSchema,
  configTableMarkdown,
  ENV_VARS,
  engineUrl,
  engineUrls,
  historyStart,
  loadConfig,
  MAINNET_FIRST_LEDGER,
  localClusterFile,
  NETWORKS,
  readLocalCluster,
  redactConfig,
  usesExternalEngine,
} from './config.js';
export { checkEngine, type EngineInfo } from './engine/check.js';
export { probeEngine, PROBE_TIMEOUT_MS } from './engine/probe.js';
export {
  type BreakerOptions,
  EngineBreaker,
  type EngineCall,
  guardedTransport,
  isTransportFailure,
  type TransportGuard,
} from './engine/breaker.js';
export { type Client, createEngineClient, withEngineClient } from './engine/client.js';
export { isClusterWeather, mapEngineError, publicReason } from './engine/error-mapping.js';
export {
  type BucketPage,
  type BucketWalkOptions,
  type CompositePage,
  type CompositePageRequest,
  type HitPage,
  type HitWalkOptions,
  type ReadBudgets,
  type SearchOptions,
  type WalkPit,
  READ_PAGE,
  ReadEngine,
  totalHits,
} from './engine/read.js';
export { lineWithMember, RAW_HITS_FILTER, readRawHits, type RawHit, type RawHits } from './engine/raw-hits.js';
export {
  type ApplyOptions,
  type ApplyResult,
  type IndexLayout,
  type TemplateChange,
  type TemplateSet,
  applyTemplates,
  canonicalJson,
  composeTemplates,
  contentHash,
  DEFAULT_LAYOUT,
  deleteIndicesOf,
  deleteTemplatesAndIndices,
  layoutOf,
  loadTemplateSet,
} from './engine/templates.js';
export {
  createRange,
  ledgerSpanOf,
  MAX_NAMED_RANGES,
  rangeIndexOf,
  rangeIndices,
  rangesOverlapping,
  rangeStartsBehind,
  swapRange,
  type LedgerSpan,
} from './engine/ranges.js';
export { RangePlanner, type RangePlannerOptions } from './engine/range-planner.js';
export {
  type ConfiguredLayout,
  type LayoutDifference,
  type LayoutRecord,
  type LayoutRole,
  type LayoutVariable,
  type RecordedLayout,
  applyCommandFor,
  checkLayout,
  compareLayout,
  configuredLayout,
  differenceMessage,
  judgeLayout,
  LayoutError,
  layoutReadOutcome,
  misfitRanges,
  nextLayout,
  planLayout,
  readLayout,
} from './engine/layout.js';
export { checkLayoutAtStart, type LayoutCheckOptions } from './engine/layout-check.js';
export {
  type AppErrorOptions,
  type ErrorBody,
  type ErrorDetails,
  AppError,
  BadRequestError,
  CommandError,
  ConfigError,
  DataNotReadyError,
  EngineTimeoutError,
  EngineUnavailableError,
  ErrorCode,
  IndexNotFoundError,
  InvalidOptionError,
  isAppError,
  isServerFailure,
  LedgerIncompleteError,
  LedgerNotReadyError,
  NotFoundError,
  toErrorBody,
  UsageError,
} from './errors.js';
export { bodyCap, cors, createHttpApp, type HttpAppOptions } from './http/app.js';
export { COMPRESS_THRESHOLD, negotiatedCompression, SYNC_COMPRESS_LIMIT } from './http/compress.js';
export { errorHandler } from './http/error-handler.js';
export {
  type AccessRequirement,
  type OpenApiObject,
  type OpenApiOptions,
  type ParameterExamples,
  buildOpenApi,
  ERROR_BODY_SCHEMA,
  errorResponse,
  openApiParameters,
  openApiPaths,
  plainSchema,
  SECURITY_SCHEMES,
} from './http/openapi.js';
export { requestContext } from './http/request-context.js';
export {
  type AnswerCacheOptions,
  type AnyRoute,
  CACHE_CONTROL,
  type CachedAnswer,
  type CachePolicy,
  type DataSetGate,
  type MountOptions,
  type RouteInput,
  type RouteSpec,
  defineRoute,
  mountRoutes,
  NoParams,
  NoQuery,
  sendText,
} from './http/route.js';
export { CloseHooks } from './http/close-hooks.js';
export { engineOperation, METRICS_PATH, ServerMetrics } from './http/metrics.js';
export {
  type AppDeps,
  type ListenOptions,
  type RunningServer,
  closeOnSignals,
  listen,
  MAX_HEADER_BYTES,
  readEngineFor,
  serverEntry,
  SHUTDOWN_GRACE_MS,
  startHttpServer,
  type StartServer,
} from './http/serve.js';
export { type InputPart, type InputRule, compileValidator, withRules } from './http/validate.js';
export {
  type IndexKind,
  type IndexNaming,
  type RangedKind,
  type SingleIndexKind,
  componentTemplateName,
  DEFAULT_RANGE_LEDGERS,
  INDEX_KINDS,
  indexName,
  indexTemplateName,
  isRangedKind,
  namingOf,
  RANGED_KINDS,
  rangeAlias,
  rangeIndexName,
  rangeLast,
  rangeStart,
  rangeStartOf,
} from './index-names.js';
export { createLogger, type LogFormat, type Logger } from './logger.js';
export { fixturesDir, repoRoot, templatesDir } from './paths.js';
