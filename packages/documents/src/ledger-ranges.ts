/** An inclusive range of ledger indices. */
export interface LedgerRange {
  from: number;
  to: number;
}

/** Adds ledger indices to sorted inclusive ranges, merging neighbours (pure). */
export function addToRanges(ranges: readonly LedgerRange[], ledgers: Iterable<number>): LedgerRange[] {
  const all = [...ranges.map((r) => ({ ...r })), ...[...ledgers].map((l) => ({ from: l, to: l }))].sort(
    (a, b) => a.from - b.from,
  );
  const merged: LedgerRange[] = [];
  for (const range of all) {
    const last = merged[merged.length - 1];
    if (last !== undefined && range.from <= last.to + 1) last.to = Math.max(last.to, range.to);
    else merged.push(range);
  }
  return merged;
}

/** The ledgers of `ranges` that are not in `minus`, as sorted inclusive ranges (pure). */
export function subtractRanges(ranges: readonly LedgerRange[], minus: readonly LedgerRange[]): LedgerRange[] {
  const out: LedgerRange[] = [];
  const cut = addToRanges(minus, []);
  for (const range of addToRanges(ranges, [])) {
    let from = range.from;
    for (const hole of cut) {
      if (hole.to < from || hole.from > range.to) continue;
      if (hole.from > from) out.push({ from, to: hole.from - 1 });
      from = Math.max(from, hole.to + 1);
      if (from > range.to) break;
    }
    if (from <= range.to) out.push({ from, to: range.to });
  }
  return out;
}

/** Missing ledgers between the first and last indexed ones (pure). */
export function gapsOf(ranges: readonly LedgerRange[]): LedgerRange[] {
  const gaps: LedgerRange[] = [];
  for (let i = 1; i < ranges.length; i += 1) {
    const previous = ranges[i - 1];
    const current = ranges[i];
    if (previous !== undefined && current !== undefined) gaps.push({ from: previous.to + 1, to: current.from - 1 });
  }
  return gaps;
}
