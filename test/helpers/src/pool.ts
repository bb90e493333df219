/** Runs `work` on every item, at most `width` at a time (requests to a test server, for example). */
export async function pool<T>(items: readonly T[], work: (item: T) => Promise<void>, width = 4): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}
