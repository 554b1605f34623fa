/** Optional per-figure timings of one statistics run (the bench prints them; the app passes none). */
export type StatsTimings = Record<string, number>;

/** Run `work`, adding its wall time in ms to `timings[name]` when timings are collected. */
export async function timed<T>(timings: StatsTimings | undefined, name: string, work: () => Promise<T>) {
  if (!timings) return work();
  const started = performance.now();
  try {
    return await work();
  } finally {
    timings[name] = Math.round((performance.now() - started) * 10) / 10;
  }
}
