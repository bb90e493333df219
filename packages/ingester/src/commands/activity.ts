import { fillActivity } from '../pipeline/activity-fill.js';
import { rangeFillCommand } from './range-fill.js';

export const activityCommand = rangeFillCommand({
  usage: 'activity',
  summary:
    'write the activity index (each account’s and NFT’s history, read by their pages) for transactions\n' +
    'indexed before it existed, range by range; resumable (a range done is recorded), idempotent, safe\n' +
    'beside running writers',
  label: 'activity',
  writes: 'activity documents',
  fill: fillActivity,
});
