/** The auction slot lasts 24 hours, split into 20 intervals of 72 minutes (XLS-30). */
const AUCTION_SLOT_SECONDS = 24 * 3600;
export const AUCTION_INTERVALS = 20;

/**
 * Which 72-minute interval of its 24 hours an auction slot is in at `now` (0-19), or undefined when
 * the slot has expired or not started, as rippled's amm_info computes `time_interval` (pure).
 */
export function auctionTimeInterval(expiration: number, now: number): number | undefined {
  if (expiration < AUCTION_SLOT_SECONDS) return undefined;
  const start = expiration - AUCTION_SLOT_SECONDS;
  if (now < start || now - start >= AUCTION_SLOT_SECONDS) return undefined;
  return Math.floor((now - start) / (AUCTION_SLOT_SECONDS / AUCTION_INTERVALS));
}
