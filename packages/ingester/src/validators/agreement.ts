/**
 * Validator agreement (pure): how many of the validated ledgers of a period a validator signed a
 * validation for, with the validated hash. The validated hashes are those of the indexed ledgers.
 */

/** A validated ledger as the ledgers index holds it; `close_time` in seconds since the Ripple epoch. */
export interface LedgerRef {
  ledger_index: number;
  ledger_hash: string;
  close_time: number;
}

export interface Agreement {
  missed: number;
  total: number;
  /** agreed / total with five decimals, "0.00000" when there is nothing to agree with. */
  score: string;
  /**
   * The period is not fully observed: no indexed ledger in it, the indexed ledgers of the period
   * are not consecutive, or validations were not being collected yet when it began.
   */
  incomplete: boolean;
}

export const WINDOWS = { agreement_1h: 3600, agreement_24h: 86_400, agreement_30day: 30 * 86_400 } as const;
export type WindowName = keyof typeof WINDOWS;
const WINDOW_NAMES = Object.keys(WINDOWS) as WindowName[];

const RIPPLE_EPOCH = 946684800;
/** The UTC day (YYYY-MM-DD) of a Ripple-epoch time. */
export const dayOf = (rippleTime: number): string =>
  new Date((rippleTime + RIPPLE_EPOCH) * 1000).toISOString().slice(0, 10);
/** The Ripple-epoch time at 00:00 UTC of a day. */
export const dayStart = (day: string): number => Date.parse(`${day}T00:00:00.000Z`) / 1000 - RIPPLE_EPOCH;

/**
 * The group of ledgers a ledger counts in: its UTC day (for daily reports, when that day is
 * reported) and each window ending at `end` it falls in. Ledgers of one group are counted with one
 * query, so a group key names everything a count is added to.
 */
export function groupKeyOf(ledger: LedgerRef, end: number, reportDays: ReadonlySet<string>): string | undefined {
  const day = dayOf(ledger.close_time);
  const windows = WINDOW_NAMES.filter((w) => ledger.close_time <= end && ledger.close_time > end - WINDOWS[w]);
  const reported = reportDays.has(day);
  if (!reported && windows.length === 0) return undefined;
  return `${reported ? day : '-'}|${windows.join(',')}`;
}

export function parseGroupKey(key: string): { day: string | undefined; windows: WindowName[] } {
  const [day = '-', windows = ''] = key.split('|');
  return { day: day === '-' ? undefined : day, windows: windows === '' ? [] : (windows.split(',') as WindowName[]) };
}

/** Ledgers by group key; ledgers outside every window and reported day are left out. */
export function groupLedgers(
  ledgers: readonly LedgerRef[],
  end: number,
  reportDays: ReadonlySet<string>,
): Map<string, LedgerRef[]> {
  const groups = new Map<string, LedgerRef[]>();
  for (const ledger of ledgers) {
    const key = groupKeyOf(ledger, end, reportDays);
    if (key === undefined) continue;
    const list = groups.get(key) ?? [];
    list.push(ledger);
    groups.set(key, list);
  }
  return groups;
}

function consecutive(indices: number[]): boolean {
  if (indices.length === 0) return false;
  const sorted = [...new Set(indices)].sort((a, b) => a - b);
  return (sorted.at(-1) as number) - (sorted[0] as number) + 1 === sorted.length;
}

/** How long after a ledger closes its validations are signed, at most (rippled: a few seconds). */
const VALIDATION_DELAY_SECONDS = 60;

export function agreementOf(agreed: number, total: number, incomplete: boolean): Agreement {
  const counted = Math.min(agreed, total);
  return {
    missed: total - counted,
    total,
    score: (total === 0 ? 0 : counted / total).toFixed(5),
    incomplete: incomplete || total === 0,
  };
}

/** What one period (a window or a day) holds: its ledgers and whether they are all observed. */
export interface Period {
  total: number;
  complete: boolean;
}

/**
 * Totals of every window and reported day (pure), over the ledgers closed since validations were
 * collected (`coverageStart`). A period is complete when its indexed ledgers
 * are consecutive and validations were being collected from its start (`coverageStart`); a day
 * also needs its indexed ledgers to span the whole day, so a day still running, or only partly
 * indexed, is incomplete.
 */
export function periodsOf(
  groups: ReadonlyMap<string, readonly LedgerRef[]>,
  end: number,
  coverageStart: number | undefined,
): { windows: Record<WindowName, Period>; days: Map<string, Period> } {
  const windowLedgers = new Map<WindowName, number[]>(WINDOW_NAMES.map((w) => [w, []]));
  const dayLedgers = new Map<string, LedgerRef[]>();
  for (const [key, all] of groups) {
    const { day, windows } = parseGroupKey(key);
    // Only ledgers closed while validations were collected count: of the others nobody knows
    // whether the validator signed them (no collection at all gives totals of 0, not misses).
    // A validation is signed a few seconds after its ledger closes: the first one collected covers
    // the ledger it signs.
    const ledgers = all.filter(
      (l) => coverageStart !== undefined && l.close_time >= coverageStart - VALIDATION_DELAY_SECONDS,
    );
    for (const w of windows) windowLedgers.get(w)?.push(...ledgers.map((l) => l.ledger_index));
    if (day !== undefined) dayLedgers.set(day, [...(dayLedgers.get(day) ?? []), ...ledgers]);
  }
  const covered = (from: number): boolean => coverageStart !== undefined && coverageStart <= from;
  const windows = Object.fromEntries(
    WINDOW_NAMES.map((w) => {
      const indices = windowLedgers.get(w) ?? [];
      return [w, { total: indices.length, complete: consecutive(indices) && covered(end - WINDOWS[w]) }];
    }),
  ) as Record<WindowName, Period>;
  const days = new Map<string, Period>();
  for (const [day, ledgers] of dayLedgers) {
    const start = dayStart(day);
    if (ledgers.length === 0) {
      days.set(day, { total: 0, complete: false });
      continue;
    }
    const times = ledgers.map((l) => l.close_time);
    // Ledgers close every 3-5 s: a day is whole when its indexed ledgers reach within a minute of both ends.
    const spansDay = Math.min(...times) < start + 60 && Math.max(...times) >= start + 86_400 - 60;
    days.set(day, {
      total: ledgers.length,
      complete: consecutive(ledgers.map((l) => l.ledger_index)) && covered(start) && spansDay,
    });
  }
  return { windows, days };
}
