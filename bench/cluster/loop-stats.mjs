/**
 * Event-loop tail statistics of one process, for `npm run bench:cluster -- --parts mix --loop-stats`: preloaded
 * into the store and app processes with `node --import <this file>` (plain JS: it runs before tsx), imported by
 * the bench itself for its own loop. Nothing runs unless LOOP_STATS_FILE is set (or `startLoopStats` is called).
 *
 * Records, from the last window start:
 * - `perf_hooks.monitorEventLoopDelay` (10 ms resolution) percentiles;
 * - every GC ('gc' performance entries): count by kind, duration percentiles, the long ones;
 * - stalls: a 5 ms interval timer that fired more than STALL_MS late notes the moment (µs of the monotonic clock,
 *   as V8 CPU profiles time their samples) and how late: the long tasks, to look up in a --cpu-prof profile
 *   (bench/cluster/stalls.ts).
 * SIGUSR2 appends the window's statistics as one JSON line to LOOP_STATS_FILE and starts a new window.
 */
import { appendFileSync } from "node:fs";
import { constants, monitorEventLoopDelay, PerformanceObserver, performance } from "node:perf_hooks";

/** a timer this much later than due is a stall (ms) */
export const STALL_MS = 10;
const TICK_MS = 5;
const RESOLUTION_MS = 10;
/** stalls and long GCs kept per window (the longest are what matter; counts are kept in full) */
const KEEP = 2_000;
const GC_KINDS = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: "major",
  [constants.NODE_PERFORMANCE_GC_MINOR]: "minor",
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weakcb",
};

/** µs of the monotonic clock (process.hrtime), the clock of a CPU profile's samples */
const nowUs = () => Number(process.hrtime.bigint() / 1000n);
/** performance.now() (ms since timeOrigin) → µs of the monotonic clock */
const perfToUs = (() => {
  const offsetUs = nowUs() - performance.now() * 1000;
  return (ms) => Math.round(offsetUs + ms * 1000);
})();

function pct(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;
}

/** Start recording; `snapshot()` returns the window's statistics and starts a new window. */
export function startLoopStats() {
  const delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  delay.enable();
  let gcs = [];
  let stalls = [];
  let stallCount = 0;
  let windowStart = nowUs();
  const cpuAtStart = { v: process.cpuUsage() };
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (gcs.length < 50_000)
        gcs.push({ atUs: perfToUs(e.startTime), ms: e.duration, kind: GC_KINDS[e.detail?.kind] ?? "other" });
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  let due = performance.now() + TICK_MS;
  const timer = setInterval(() => {
    const now = performance.now();
    const late = now - due;
    if (late > STALL_MS) {
      stallCount++;
      if (stalls.length < KEEP) stalls.push({ endUs: perfToUs(now), lateMs: Math.round(late * 10) / 10 });
    }
    due = now + TICK_MS;
  }, TICK_MS);
  timer.unref();

  return {
    snapshot() {
      // the histogram times the 10 ms sampling timer's whole interval: what is beyond it is the delay
      const ms = (ns) => Math.max(0, Math.round((ns - RESOLUTION_MS * 1e6) / 1e4) / 100);
      const cpu = process.cpuUsage(cpuAtStart.v);
      const gcMs = gcs.map((g) => g.ms).sort((a, b) => a - b);
      const byKind = {};
      for (const g of gcs) {
        byKind[g.kind] ??= { n: 0, ms: 0 };
        const k = byKind[g.kind];
        k.n++;
        k.ms += g.ms;
      }
      const lates = stalls.map((s) => s.lateMs).sort((a, b) => a - b);
      const out = {
        pid: process.pid,
        fromUs: windowStart,
        toUs: nowUs(),
        cpuMs: Math.round((cpu.user + cpu.system) / 1000),
        loopDelayMs: {
          p50: ms(delay.percentile(50)),
          p90: ms(delay.percentile(90)),
          p99: ms(delay.percentile(99)),
          max: ms(delay.max),
          mean: ms(delay.mean),
        },
        gc: {
          n: gcs.length,
          totalMs: Math.round(gcMs.reduce((s, x) => s + x, 0)),
          p50Ms: pct(gcMs, 50),
          p99Ms: pct(gcMs, 99),
          maxMs: gcMs.at(-1) ?? 0,
          over5ms: gcMs.filter((x) => x > 5).length,
          over10ms: gcMs.filter((x) => x > 10).length,
          byKind,
          long: gcs.filter((g) => g.ms > 5).slice(0, KEEP),
        },
        stalls: {
          n: stallCount,
          p50Ms: pct(lates, 50),
          p90Ms: pct(lates, 90),
          maxMs: lates.at(-1) ?? 0,
          list: stalls,
        },
      };
      delay.reset();
      gcs = [];
      stalls = [];
      stallCount = 0;
      windowStart = nowUs();
      cpuAtStart.v = process.cpuUsage();
      return out;
    },
  };
}

const file = process.env.LOOP_STATS_FILE;
if (file) {
  const stats = startLoopStats();
  process.on("SIGUSR2", () => appendFileSync(file, `${JSON.stringify(stats.snapshot())}\n`));
}
