import BigNumber from 'bignumber.js';
import type { BalanceChangeDoc } from '@xle/documents';

/**
 * The accounting export's rows (pure): one row per transaction of the account, or more when it
 * sent or received several assets (an AMM deposit of two assets), in the columns tax tools import
 * (Koinly's and CoinTracking's universal formats read the same pairs): what left the account,
 * what came in, the fee apart.
 */
export const ACCOUNTING_COLUMNS = [
  'date',
  'kind',
  'sent_amount',
  'sent_currency',
  'sent_issuer',
  'received_amount',
  'received_currency',
  'received_issuer',
  'fee_amount',
  'fee_currency',
  'counterparty',
  'destination_tag',
  'source_tag',
  'ledger_index',
  'hash',
] as const;
export type AccountingRow = Record<(typeof ACCOUNTING_COLUMNS)[number], string | number | null>;

type Change = Partial<BalanceChangeDoc>;

/** The rows of one transaction's changes of one account (its changes, in their order). */
export function accountingRows(changes: readonly Change[]): AccountingRow[] {
  const first = changes[0];
  if (first === undefined) return [];
  const fee = changes.find((c) => c.kind === 'fee');
  const moves = changes.filter((c) => c.kind !== 'fee');
  const sent = moves.filter((c) => new BigNumber(c.value ?? '0').isNegative());
  const received = moves.filter((c) => !new BigNumber(c.value ?? '0').isNegative());
  const lead = moves[0] ?? first;
  const rows: AccountingRow[] = [];
  for (let i = 0; i < Math.max(1, sent.length, received.length); i += 1) {
    const out = sent[i];
    const into = received[i];
    rows.push({
      date: first.date ?? null,
      kind: lead.kind ?? null,
      sent_amount: out === undefined ? null : new BigNumber(out.value ?? '0').negated().toFixed(),
      sent_currency: out?.currency ?? null,
      sent_issuer: out?.issuer ?? null,
      received_amount: into?.value ?? null,
      received_currency: into?.currency ?? null,
      received_issuer: into?.issuer ?? null,
      fee_amount: i === 0 && fee !== undefined ? new BigNumber(fee.value ?? '0').negated().toFixed() : null,
      fee_currency: i === 0 && fee !== undefined ? 'XRP' : null,
      counterparty: lead.counterparty ?? null,
      destination_tag: lead.destination_tag ?? null,
      source_tag: lead.source_tag ?? null,
      ledger_index: first.ledger_index ?? null,
      hash: first.hash ?? null,
    });
  }
  return rows;
}
