import type { IngestEngine } from '../engine/ingest-engine.js';
import { recordJobRun } from '../jobs/data-set.js';
import { importAccountRecords, type NamesImportResult, type ReplaceGuard } from '../names/import.js';
import type { KycRecord } from './wallet-kyc.js';

/**
 * Replaces one source's wallet KYC records, then records the import as the `kyc` data set's run,
 * which is what makes `/account/{ACCOUNT}/walletkyc` answer instead of DATA_NOT_READY.
 */
export async function importWalletKyc(
  engine: IngestEngine,
  source: string,
  records: readonly KycRecord[],
  guard: ReplaceGuard = {},
): Promise<NamesImportResult> {
  const result = await importAccountRecords(engine, 'kyc', source, records, guard);
  await recordJobRun(engine, {
    job: 'kyc',
    ledger_index: 0,
    documents: result.written,
    removed: result.removed,
  });
  return result;
}
