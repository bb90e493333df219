/**
 * A pure function of a string, remembered for its last `kept` distinct arguments (the oldest
 * forgotten first): for decodings that cost hashing and base58 and whose inputs recur.
 */
export function boundedMemo<V>(kept: number, compute: (key: string) => V): (key: string) => V {
  const remembered = new Map<string, V>();
  return (key) => {
    if (remembered.has(key)) return remembered.get(key) as V;
    const value = compute(key);
    if (remembered.size >= kept) remembered.delete(remembered.keys().next().value as string);
    remembered.set(key, value);
    return value;
  };
}
