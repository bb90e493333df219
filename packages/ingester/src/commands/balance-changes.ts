import { fillBalanceChanges } from '../pipeline/balance-fill.js';
import { rangeFillCommand } from './range-fill.js';

export const balanceChangesCommand = rangeFillCommand({
  usage: 'balance-changes',
  summary:
    'build the balance-changes data set (historical balances) for transactions indexed before it\n' +
    'existed, range by range; resumable (a range done is recorded), idempotent, safe beside running writers',
  label: 'balance changes',
  writes: 'balance changes',
  fill: fillBalanceChanges,
});
