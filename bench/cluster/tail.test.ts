/**
 * The mix's tail tools (bench/cluster): loop-stats.mjs notes a stall with its moment and lateness (a task that
 * holds the event loop is found, and it is the one the window covers), GCs are recorded, a window ends at each
 * snapshot; tail.ts puts stalls and GCs inside a chat's wait and splits the chats at the warm-up boundary.
 */
import { describe, expect, it } from "vitest";
import type { LoopStats } from "./loop-stats.mjs";
import { STALL_MS, startLoopStats } from "./loop-stats.mjs";
import { byPhase, longGcMs, stalledMs } from "./tail";

const nowUs = () => Number(process.hrtime.bigint() / 1000n);
const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** hold the event loop at least `ms` */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

describe("loop-stats", () => {
  it("notes a task that holds the loop, inside its window, and starts a new window at each snapshot", async () => {
    const stats = startLoopStats();
    await tick(20);
    const before = nowUs();
    block(STALL_MS * 6);
    const after = nowUs();
    await tick(20);
    const first = stats.snapshot();
    expect(first.stalls.n).toBeGreaterThanOrEqual(1);
    // the longest stall is the blocked task: noted after it ended, late by about its length
    const longest = [...first.stalls.list].sort((a, b) => b.lateMs - a.lateMs)[0];
    expect(longest.endUs).toBeGreaterThanOrEqual(after);
    expect(longest.endUs - longest.lateMs * 1000).toBeLessThanOrEqual(after);
    expect(longest.lateMs).toBeGreaterThan(((after - before) / 1000) * 0.5);
    expect(first.loopDelayMs.max).toBeGreaterThan(STALL_MS);
    // the next window has not seen it
    const second = stats.snapshot();
    expect(second.stalls.list.every((s) => s.endUs > first.toUs)).toBe(true);
    expect(second.fromUs).toBeGreaterThanOrEqual(first.toUs);
  });

  it("records the GCs", async () => {
    const stats = startLoopStats();
    let keep: unknown[] = [];
    for (let i = 0; i < 200; i++) keep = Array.from({ length: 10_000 }, (_, j) => ({ i, j }));
    expect(keep.length).toBe(10_000);
    await tick(50); // GC entries are delivered asynchronously
    const s = stats.snapshot();
    expect(s.gc.n).toBeGreaterThan(0);
    expect(s.gc.totalMs).toBeGreaterThanOrEqual(0);
  });
});

function statsWith(stalls: LoopStats["stalls"]["list"], gcs: LoopStats["gc"]["long"]): LoopStats {
  return {
    pid: 1,
    fromUs: 0,
    toUs: 100_000_000,
    cpuMs: 0,
    loopDelayMs: { p50: 0, p90: 0, p99: 0, max: 0, mean: 0 },
    gc: {
      n: gcs.length,
      totalMs: 0,
      p50Ms: 0,
      p99Ms: 0,
      maxMs: 0,
      over5ms: 0,
      over10ms: 0,
      byKind: {},
      long: gcs,
    },
    stalls: { n: stalls.length, p50Ms: 0, p90Ms: 0, maxMs: 0, list: stalls },
  };
}

describe("tail", () => {
  it("counts only the part of a stall or GC inside a wait", () => {
    // a stall of 30 ms noted at 1.000 s covers 0.970–1.000 s
    const s = statsWith([{ endUs: 1_000_000, lateMs: 30 }], [{ atUs: 2_000_000, ms: 8, kind: "minor" }]);
    expect(stalledMs(s, 0, 2_000_000)).toBeCloseTo(30);
    expect(stalledMs(s, 990_000, 2_000_000)).toBeCloseTo(10);
    expect(stalledMs(s, 1_000_000, 2_000_000)).toBe(0);
    expect(longGcMs(s, 2_004_000, 3_000_000)).toBeCloseTo(4);
    expect(longGcMs(s, 0, 1_999_000)).toBe(0);
  });

  it("splits the chats at the warm-up boundary", () => {
    const chat = (atS: number, overhead: number) => ({
      sentUs: 5_000_000 + atS * 1e6,
      respMs: overhead,
      overhead,
      url: "a",
    });
    const chats = [chat(1, 200), chat(2, 100), chat(12, 5), chat(20, 7)];
    expect(byPhase(chats, 5_000_000, 10)).toBe(
      "chat overhead p95 in the first 10 s 200.0 ms (n=2), after them 7.0 ms (n=2)",
    );
  });
});
