// The ingester: sources (files, rippled) → transform → enrich → write-only sink, state seeding,
// the derived-data jobs, the imports and the validators consumer; the engine module is engine/.
export {
  bulkAction,
  bulkLines,
  type BulkItem,
  firstRefusal,
  type WriteOp,
  writeOps,
  type WriteOptions,
  type WriteResult,
} from './engine/bulk-writer.js';
export { IngestEngine, type VersionedDocument, type WriteTag } from './engine/ingest-engine.js';
export { deriveLedgers } from './input/derive-ledgers.js';
export {
  AMENDMENT_MAJORITY,
  type AmendmentDoc,
  type AmendmentsEntry,
  type AmendmentVotes,
  buildAmendmentDocs,
  type EnableAmendmentTx,
  type KnownAmendment,
  loadKnownAmendments,
  readAmendmentSources,
  readAmendmentVotes,
} from './jobs/amendments.js';
export { type AccountBalance, buildBalanceDocs, readTopBalances, RICH_LIST_SIZE } from './jobs/balances.js';
export {
  type AsOf,
  type DataSetDocument,
  inLedgerRanges,
  type JobStatus,
  readAsOf,
  readJobRun,
  recordJobRun,
  replaceDataSet,
  replaceDataSetPart,
  type ReplaceResult,
  writeDocuments,
} from './jobs/data-set.js';
export { buildFactDocs, type FactInputs, readFactInputs } from './jobs/facts.js';
export { buildMetricDocs, type DailyInputs, metricScope, readDailyInputs } from './jobs/metrics.js';
export { buildNetworkSnapshots, type NetworkSnapshot, snapshotNetwork } from './jobs/network.js';
export { AsnTable, type AsnInfo, loadAsnTable, parseAsnTable } from './jobs/asn.js';
export {
  crawlNetwork,
  crawlNodes,
  type CrawlOptions,
  crawlTime,
  fetchCrawl,
  type NodeDoc,
  parseCrawl,
  withAsn,
} from './jobs/nodes.js';
export {
  type Changes,
  type DataSetJob,
  dataSetJobs,
  isJobName,
  JOB_NAMES,
  type JobContext,
  type JobName,
  runDataSetJob,
  runJob,
  type TokensJobOptions,
} from './jobs/run.js';
export {
  computeTokenScores,
  DEFAULT_SCORE_CONFIG,
  SCORE_METRICS,
  type ScoreConfig,
  type ScoreInput,
  type ScoreMetric,
} from './jobs/token-score.js';
export {
  type AmmPool,
  buildTokenDocs,
  type ExchangeStats,
  isBlackholed,
  type IssuerState,
  type LastXrpPrice,
  priceOf,
  scoreConfigOf,
  type TokenHistory,
  type TokenInputs,
  type TrustLineStats,
} from './jobs/tokens/build.js';
export {
  readAmmPools,
  readExchangeStats,
  readIssuers,
  readLastXrpPrices,
  readTokenDates,
  readTokenHistory,
  readTokenInputs,
  readTomlCache,
  readTrustLineStats,
} from './jobs/tokens/read.js';
export {
  directoryTomlSource,
  type HttpTomlOptions,
  httpTomlSource,
  isPublicAddress,
  type IssuerMeta,
  normalizeDomain,
  parseTomlText,
  refreshToml,
  type TokenMeta,
  tokenMetaFromToml,
  TOML_MAX_BYTES,
  TOML_MAX_DEPTH,
  TOML_TIMEOUT_MS,
  TOML_URL_TEMPLATE,
  type TomlOutcome,
  type TomlRefreshOptions,
  type TomlResult,
  type TomlSource,
  type Weblink,
} from './jobs/toml.js';
export { importWalletKyc } from './kyc/import.js';
export { type KycProblem, type KycRecord, readKycRecords, validateKycRecords } from './kyc/wallet-kyc.js';
export { importAccountRecords, importNames, type NamesImportResult } from './names/import.js';
export {
  type NameProblem,
  type NameRecord,
  readNameRecords,
  recordsVersion,
  validateNameRecords,
} from './names/well-known.js';
export { ActivationEnricher, activationRecords } from './pipeline/activations.js';
export { BatchSink } from './pipeline/sink.js';
export { DeletionGuards, GUARD_WINDOW_MS } from './pipeline/deletions.js';
export { type BatchContext, type LedgerWrites, ledgerWrites, locator, newestWrites } from './pipeline/batch.js';
export { fillLocators, type LocatorFill } from './pipeline/locators.js';
export { BALANCE_FILL_ID, fillBalanceChanges, type BalanceFill } from './pipeline/balance-fill.js';
export { ACTIVITY_FILL_ID, fillActivity } from './pipeline/activity-fill.js';
export {
  addToRanges,
  type Checkpoint,
  CheckpointStore,
  gapsOf,
  type LedgerRange,
  nextCheckpoint,
  readIndexedRanges,
  subtractRanges,
} from './pipeline/checkpoint.js';
export {
  addPlan,
  type BackfillPlan,
  chooseChunk,
  type ChunkChoice,
  type ChunkCounts,
  type ChunkDecision,
  type ChunkGap,
  type ChunkLease,
  chunkId,
  chunkOrder,
  chunksOf,
  decide,
  endChunks,
  finishedLease,
  gapLedgers,
  gapsUpTo,
  isChunkOf,
  leaseFor,
  planId,
  planName,
  plannedChunkCount,
  type PlanSummary,
  rangesToWork,
  releasedLease,
  summarizePlan,
  totalOf,
  withGap,
  withoutLedgers,
  workerId,
  type WorkerHeartbeat,
} from './backfill/chunks.js';
export { type HeldLease, LeaseStore, type PlanEntry } from './backfill/lease-store.js';
export { type BackfillWorkerOptions, runBackfillWorker, type WorkerTotals } from './backfill/worker.js';
export {
  ingestLedgers,
  type IngestLedgersOptions,
  type IngestTotals,
  LEDGER_KINDS,
  type PipelineOptions,
  ledgerBatches,
  prepareBatch,
  runPipeline,
} from './pipeline/run.js';
export { readRecordsFile, type RecordProblem, validateAccountRecords } from './records/account-records.js';
export {
  type FileError,
  type FileLedger,
  listLedgerFiles,
  MAX_LEDGER_BYTES,
  readLedgerFiles,
} from './sources/files.js';
export {
  ChainBrokenError,
  type LedgerLink,
  RippledSource,
  type RippledSourceOptions,
  SourceError,
} from './sources/rippled.js';
export { parseCompleteLedgers, refuseRange, type SourceLedgers, sourceLedgers } from './sources/rippled-ledgers.js';
export { readStateFiles } from './sources/state-files.js';
export { type SeedOptions, type SeedResult, seedState, SNAPSHOT_TX_INDEX, snapshotOps } from './state/snapshot.js';
export {
  type Agreement,
  agreementOf,
  dayOf,
  dayStart,
  groupKeyOf,
  groupLedgers,
  type LedgerRef,
  parseGroupKey,
  type Period,
  periodsOf,
  type WindowName,
  WINDOWS,
} from './validators/agreement.js';
export {
  type ConsumerOptions,
  type ConsumerTotals,
  consumeValidations,
  ValidationStore,
} from './validators/consumer.js';
export {
  type DecodedManifest,
  decodeManifest,
  type Manifest,
  MANIFEST_REVOKED_SEQUENCE,
  type ManifestCheck,
  ManifestError,
  manifestFromStream,
  type ManifestStreamMessage,
  nodePublicKey,
  nodePublicKeyHex,
} from './validators/manifest.js';
export {
  buildValidatorDocs,
  chainOf,
  readValidatorInputs,
  type Report,
  runValidatorsJob,
  type StoredManifest,
  type UnlSource,
  type ValidatorDoc,
  type ValidatorInputs,
} from './validators/registry.js';
export {
  decodeServerVersion,
  parseValidation,
  type ServerVersion,
  type ValidationDoc,
  ValidationError,
  validationId,
  type ValidationStreamMessage,
  verifyValidationData,
  VF_FULL_VALIDATION,
} from './validators/validations.js';
export {
  type ListedValidator,
  type LoadOptions,
  loadValidatorList,
  type SignedValidatorList,
  ValidatorListCode,
  type VerifiedValidatorList,
  type VerifyOptions,
  verifyValidatorList,
} from './validators/validator-list.js';
export {
  belowWatermark,
  contiguousEnd,
  type HistoryWatermark,
  PRUNE_DELAY_MS,
  pruneGuards,
  type PruneResult,
  WATERMARK_ID,
  WATERMARK_MAX_AGE_MS,
  WatermarkReader,
} from './pipeline/watermark.js';
