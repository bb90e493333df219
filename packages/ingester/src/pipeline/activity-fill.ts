import { affectedAccounts, balanceChangeDocuments, type ActivitySource } from '@xle/documents';
import type { IngestEngine } from '../engine/ingest-engine.js';
import { activityWrites } from './batch.js';
import { BALANCE_SOURCE_FIELDS } from './balance-fill.js';
import { fillRanges, type RangeFill } from './range-fill.js';

/** The ingest-state record of the fill: the transaction ranges done, so a run resumes after them. */
export const ACTIVITY_FILL_ID = 'fill.activity';

/** Fields of a transaction its activity documents are made from: its balance changes', its NFTs and its amounts. */
const SOURCE_FIELDS = [
  ...BALANCE_SOURCE_FIELDS,
  '_nftokens',
  'Amount',
  'SendMax',
  'TakerGets',
  'TakerPays',
  'LimitAmount',
  'meta.delivered_amount',
];

/**
 * Writes the activity documents (documents' activity.ts) of transactions indexed before the
 * activity index existed, range by range (range-fill.ts: resumable, idempotent, safe beside
 * running writers). The accounts are computed again from the stored metadata by rippled's rule
 * (affectedAccounts), so a transaction indexed while `_accounts` followed an older rule is filed
 * as rippled files it.
 */
export async function fillActivity(
  engine: IngestEngine,
  onProgress: (fill: RangeFill) => void = () => undefined,
): Promise<RangeFill> {
  return fillRanges<ActivitySource>(
    engine,
    {
      record: ACTIVITY_FILL_ID,
      fields: SOURCE_FIELDS,
      writes: (stored) => {
        const tx = { ...stored, _accounts: affectedAccounts(stored.meta) };
        return activityWrites(tx, balanceChangeDocuments(tx), engine);
      },
    },
    onProgress,
  );
}
