// "Did you mean": the known names closest to an unknown one, for search fields and SQL columns and tables (pure).
import { distance as levenshtein } from 'fastest-levenshtein';

const distance = (a: string, b: string): number => levenshtein(a.toLowerCase(), b.toLowerCase());

/** Length of the longest common subsequence, case-insensitive: the tie-break between equal distances. */
function common(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let previous = new Array<number>(y.length + 1).fill(0);
  for (let i = 1; i <= x.length; i++) {
    const current = [0];
    for (let j = 1; j <= y.length; j++)
      current[j] =
        x[i - 1] === y[j - 1]
          ? (previous[j - 1] as number) + 1
          : Math.max(previous[j] as number, current[j - 1] as number);
    previous = current;
  }
  return previous[y.length] as number;
}

/**
 * The names closest to an unknown one: by edit distance of the whole dotted path, and of its last
 * segment against the names' last segments (`FinalFields.Account` → `Account`), at most `count`,
 * and only those within a third of the name's length (at least two edits).
 */
export function closestNames(unknown: string, names: Iterable<string>, count = 3): string[] {
  const last = unknown.split('.').pop() ?? unknown;
  const scored = [...names].map((name) => {
    const own = name.split('.').pop() ?? name;
    const whole = distance(unknown, name);
    const byLast = distance(last, own) + 0.5;
    // Among equal distances, the name sharing more letters in order (a dropped letter beats a changed one).
    return {
      name,
      score: Math.min(whole, byLast),
      shared: common(whole <= byLast ? unknown : last, whole <= byLast ? name : own),
    };
  });
  const limit = Math.max(2, Math.floor(last.length / 3));
  return scored
    .filter((s) => s.score <= limit + 0.5)
    .sort(
      (a, b) => a.score - b.score || b.shared - a.shared || a.name.length - b.name.length || (a.name < b.name ? -1 : 1),
    )
    .slice(0, count)
    .map((s) => s.name);
}
