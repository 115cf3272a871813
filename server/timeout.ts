/**
 * The result of `work`, or the error `timedOut` makes once `ms` milliseconds have passed. The work
 * itself is not cancelled (LanceDB queries and Redis commands cannot be): when it loses the race it
 * finishes in the background and its result, or failure, is dropped.
 */
export async function withTimeout<T>(work: Promise<T> | (() => Promise<T>), ms: number, timedOut: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut()), ms);
  });
  try {
    // Work given as a function starts after the timer: its first synchronous stretch counts too.
    return await Promise.race([typeof work === "function" ? work() : work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
