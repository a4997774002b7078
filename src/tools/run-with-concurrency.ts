/**
 * Runs `task` over `items` with at most `concurrency` running at once; results come back in the
 * order of `items`. Rejects with the first rejection: no task starts after it, the running ones are
 * left to finish, and their own rejections go to `onLateError` (never dropped).
 */
export async function runWithConcurrency<T, R>(
  items: readonly T[],
  concurrency: number,
  task: (item: T, index: number) => Promise<R>,
  onLateError: (error: unknown, item: T) => void = () => undefined,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const index = next++;
      const item = items[index] as T;
      try {
        results[index] = await task(item, index);
      } catch (error) {
        if (failed) onLateError(error, item);
        failed = true;
        throw error;
      }
    }
  };
  const workers = Math.max(1, Math.min(Math.floor(concurrency) || 1, items.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return results;
}
