/**
 * What ran while a process's event loop stalled during the 400-user mix: the samples of its V8 CPU profile
 * inside the stalls loop-stats.mjs noted (`npm run bench:cluster -- --parts mix --loop-stats DIR --cpu-prof PDIR`,
 * or `--store-cpu-prof PDIR` with `--process store`).
 *   npx tsx bench/cluster/stalls.ts PDIR/CPU.….cpuprofile DIR/mix-tail.json [--process A] [--min 10] [--top 25]
 *     [--from S] [--to S]   only the stalls from S to S seconds after the mix's measured part started
 * Prints the stalls of at least `--min` ms (the timer's lateness), the busy time inside them, the share of GC,
 * the functions with the most time on the stack (inclusive) and by their own (self), and the files that had the
 * most self time in each stall (how many stalls each file dominated).
 */
import { readFileSync } from "node:fs";
import { type Profile, type ProfileNode, stackReader } from "../cpu-profile";
import { arg } from "../load";
import type { LoopStats } from "./loop-stats.mjs";

/** the timer's interval in loop-stats.mjs: a stall began at most this long before it was due */
const TICK_US = 5_000;
const ROOTS = new Set(["(root)", "(program)", "(idle)"]);

const [profilePath, tailPath] = process.argv.slice(2);
const name = process.argv.includes("--process") ? process.argv[process.argv.indexOf("--process") + 1] : "A";
const minMs = arg("min", 10);
const top = arg("top", 25);
const fromS = arg("from", 0);
const toS = arg("to", Number.POSITIVE_INFINITY);
const profile = JSON.parse(readFileSync(profilePath, "utf8")) as Profile;
const tail = JSON.parse(readFileSync(tailPath, "utf8")) as { stats: Record<string, LoopStats | null> };
const stats = tail.stats[name];
if (!stats) throw new Error(`no loop statistics for ${name} in ${tailPath}`);

const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const stackOf = stackReader(profile);
const short = (n: ProfileNode) =>
  `${n.callFrame.functionName || "(anonymous)"}@${n.callFrame.url
    .replace(/file:\/\/\/.*?node_modules\//, "")
    .replace(/file:\/\/\/.*?\/(api|packages)\//, "$1/")}:${n.callFrame.lineNumber + 1}`;
const file = (n: ProfileNode) =>
  short(n).replace(/^.*?@/, "").replace(/:\d+$/, "") || n.callFrame.functionName;

// each sample's time and the time it stands for (until the next sample)
const times: number[] = [];
profile.timeDeltas.reduce((t, d) => {
  times.push(t + d);
  return t + d;
}, profile.startTime);
const weight = (i: number) => (i + 1 < times.length ? times[i + 1] - times[i] : 0);

const atS = (us: number) => (us - stats.fromUs) / 1e6;
const stalls = stats.stalls.list
  .filter((s) => s.lateMs >= minMs && atS(s.endUs) >= fromS && atS(s.endUs) < toS)
  .map((s) => ({ from: s.endUs - s.lateMs * 1000 - TICK_US, to: s.endUs, lateMs: s.lateMs }));
const inclusive = new Map<string, number>();
const self = new Map<string, number>();
const dominated = new Map<string, number>();
let busy = 0;
let gc = 0;
let gcLed = 0;
let i = 0;
for (const st of stalls) {
  while (i < times.length && times[i] < st.from) i++;
  const byFile = new Map<string, number>();
  let stallGc = 0;
  let stallBusy = 0;
  for (let j = i; j < times.length && times[j] <= st.to; j++) {
    const leaf = nodes.get(profile.samples[j]);
    if (!leaf || ROOTS.has(leaf.callFrame.functionName)) continue;
    const w = weight(j);
    stallBusy += w;
    if (leaf.callFrame.functionName === "(garbage collector)") stallGc += w;
    const seen = new Set<string>();
    for (const n of stackOf(leaf.id)) if (!ROOTS.has(n.callFrame.functionName)) seen.add(short(n));
    for (const f of seen) inclusive.set(f, (inclusive.get(f) ?? 0) + w);
    self.set(short(leaf), (self.get(short(leaf)) ?? 0) + w);
    byFile.set(file(leaf), (byFile.get(file(leaf)) ?? 0) + w);
  }
  busy += stallBusy;
  gc += stallGc;
  if (stallGc > stallBusy / 2) gcLed++;
  const lead = [...byFile].sort((a, b) => b[1] - a[1])[0];
  if (lead) dominated.set(lead[0], (dominated.get(lead[0]) ?? 0) + 1);
}

const ms = (us: number) => (us / 1000).toFixed(0);
const pct = (us: number) => `${((100 * us) / Math.max(1, busy)).toFixed(1).padStart(5)} %`;
console.log(
  `${name}: ${stalls.length} stalls ≥ ${minMs} ms (of ${stats.stalls.n} noted), ${ms(busy)} ms busy inside them, GC ${pct(gc)} (${gcLed} stalls mostly GC)`,
);
for (const [label, map] of [
  ["inclusive", inclusive],
  ["self", self],
] as const) {
  console.log(`\ntop ${top} by ${label} time inside the stalls`);
  for (const [f, t] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${pct(t)}  ${ms(t).padStart(6)} ms  ${f}`);
}
console.log("\nfiles with the most self time in a stall (stalls each led)");
for (const [f, n] of [...dominated].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${String(n).padStart(5)}  ${f}`);
