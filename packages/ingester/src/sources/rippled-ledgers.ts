import { addToRanges, subtractRanges, type LedgerRange } from '../pipeline/checkpoint.js';
import type { RippledSource } from './rippled.js';

/** What a rippled (or Clio) server holds: its `complete_ledgers` and newest validated ledger. */
export interface SourceLedgers {
  /** `complete_ledgers` as the server wrote it (`32570-94000000`, `empty`, `1-5,7,9-10`). */
  text: string;
  complete: LedgerRange[];
  /** The newest validated ledger, undefined when the server has none (not synced). */
  validated: number | undefined;
}

/**
 * rippled's `complete_ledgers` (comma-separated ledgers and inclusive ranges, or `empty`) as
 * sorted, merged ranges (pure). Anything else is not understood and throws.
 */
export function parseCompleteLedgers(text: string): LedgerRange[] {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === 'empty') return [];
  const ranges = trimmed.split(',').map((part) => {
    const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    const from = Number(match?.[1]);
    const to = match?.[2] === undefined ? from : Number(match[2]);
    if (match === null || !Number.isSafeInteger(from) || !Number.isSafeInteger(to) || to < from)
      throw new Error(`complete_ledgers "${text}" is not a list of ledger ranges`);
    return { from, to };
  });
  return addToRanges(ranges, []);
}

/** What `server_info` says the server holds. */
export async function sourceLedgers(rippled: RippledSource): Promise<SourceLedgers> {
  const { info } = await rippled.command<{
    info?: { complete_ledgers?: string; validated_ledger?: { seq?: number } };
  }>('server_info');
  const text = info?.complete_ledgers ?? 'empty';
  const seq = info?.validated_ledger?.seq;
  return {
    text,
    complete: parseCompleteLedgers(text),
    validated: typeof seq === 'number' && seq > 0 ? seq : undefined,
  };
}

/**
 * Why a source cannot serve a range (pure): ledgers past its newest validated one, or outside its
 * `complete_ledgers`; undefined when it holds every ledger of the range.
 */
export function refuseRange(range: LedgerRange, source: SourceLedgers, url: string): string | undefined {
  const has = `${url} has ledgers ${source.text}, newest validated ${source.validated ?? 'none'}`;
  const asked = `ledgers ${range.from}-${range.to}`;
  if (source.validated === undefined) return `${asked}: the source has no validated ledger yet (${has})`;
  if (range.to > source.validated)
    return `${asked}: ${range.to} is beyond the source's newest validated ledger ${source.validated} (${has})`;
  const missing = subtractRanges([range], source.complete);
  if (missing.length === 0) return undefined;
  const shown = missing
    .slice(0, 3)
    .map((r) => (r.from === r.to ? `${r.from}` : `${r.from}-${r.to}`))
    .join(', ');
  return `${asked}: the source lacks ${shown}${missing.length > 3 ? `, ... (${missing.length} stretches)` : ''} (${has}); ask a full-history server`;
}
