/** Types of loop-stats.mjs (plain JS: preloaded with `node --import` before tsx). */
export declare const STALL_MS: number;

export interface LoopStats {
  pid: number;
  /** the window, µs of the monotonic clock */
  fromUs: number;
  toUs: number;
  cpuMs: number;
  loopDelayMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  gc: {
    n: number;
    totalMs: number;
    p50Ms: number;
    p99Ms: number;
    maxMs: number;
    over5ms: number;
    over10ms: number;
    byKind: Record<string, { n: number; ms: number }>;
    long: Array<{ atUs: number; ms: number; kind: string }>;
  };
  stalls: {
    n: number;
    p50Ms: number;
    p90Ms: number;
    maxMs: number;
    /** the moment the late timer ran (µs) and how late it was */
    list: Array<{ endUs: number; lateMs: number }>;
  };
}

export declare function startLoopStats(): { snapshot(): LoopStats };
