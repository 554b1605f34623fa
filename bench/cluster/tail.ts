/**
 * The tail of the 400-user mix (`npm run bench:cluster -- --parts mix --loop-stats DIR`): each process's
 * event-loop statistics over the mix (loop-stats.mjs: delay percentiles, GCs, stalls), where the slowest 5 % of
 * chats lost their time against the median ones, and which process was stalled while they waited. Writes
 * DIR/mix-tail.json (the chats' timings and every process's statistics) for bench/cluster/stalls.ts.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { LoopStats } from "./loop-stats.mjs";

const PRELOAD = fileURLToPath(new URL("./loop-stats.mjs", import.meta.url));

export interface ChatTime {
  sentUs: number;
  respMs: number;
  overhead: number;
  url: string;
}

/** What a process is started with to record its loop statistics into DIR/<name>.jsonl. */
export function loopStatsLaunch(
  dir: string,
  name: string,
): { nodeArgs: string[]; env: Record<string, string> } {
  mkdirSync(dir, { recursive: true });
  return { nodeArgs: ["--import", PRELOAD], env: { LOOP_STATS_FILE: path.join(dir, `${name}.jsonl`) } };
}

/** Ends each process's current window (its statistics appended to its file) and starts a new one. */
export function signalWindow(pids: number[]): void {
  for (const pid of pids) process.kill(pid, "SIGUSR2");
}

/** The last window a process wrote (waits up to 2 s for the line to land). */
export async function lastWindow(dir: string, name: string, lines: number): Promise<LoopStats | null> {
  const file = path.join(dir, `${name}.jsonl`);
  for (let i = 0; i < 40; i++) {
    const all = existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean) : [];
    if (all.length >= lines) return JSON.parse(all[lines - 1]) as LoopStats;
    await new Promise((r) => setTimeout(r, 50));
  }
  return null;
}

const f1 = (n: number) => n.toFixed(1);

function statsLine(name: string, s: LoopStats): string {
  const d = s.loopDelayMs;
  const g = s.gc;
  const major = g.byKind.major ? `, major ${g.byKind.major.n} (${Math.round(g.byKind.major.ms)} ms)` : "";
  return `    ${name.padEnd(9)} loop delay p50 ${f1(d.p50)} p99 ${f1(d.p99)} max ${f1(d.max)} ms   stalls >10 ms ${String(s.stalls.n).padStart(4)} (p50 ${f1(s.stalls.p50Ms)}, p90 ${f1(s.stalls.p90Ms)}, max ${f1(s.stalls.maxMs)} ms)   GC ${g.n} × = ${g.totalMs} ms, >5 ms ${g.over5ms}, >10 ms ${g.over10ms}, max ${f1(g.maxMs)} ms${major}   CPU ${(s.cpuMs / 1000).toFixed(1)} s`;
}

/** ms of `stats`' stalls inside [fromUs, toUs] (a stall spans its lateness before the moment it was noted) */
export function stalledMs(s: LoopStats, fromUs: number, toUs: number): number {
  let ms = 0;
  for (const st of s.stalls.list) {
    const a = Math.max(fromUs, st.endUs - st.lateMs * 1000);
    const b = Math.min(toUs, st.endUs);
    if (b > a) ms += (b - a) / 1000;
  }
  return ms;
}

/** the mix's chats are also reported before and after this many seconds of its measured part */
export const PHASE_S = 10;

/** The chats' p95 in the measured part's first `phaseS` seconds and after them. */
export function byPhase(chats: ChatTime[], startUs: number, phaseS: number): string {
  const at = (c: ChatTime) => (c.sentUs - startUs) / 1e6;
  const p95 = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length ? f1(s[Math.min(s.length - 1, Math.floor(0.95 * s.length))]) : "–";
  };
  const early = chats.filter((c) => at(c) < phaseS).map((c) => c.overhead);
  const late = chats.filter((c) => at(c) >= phaseS).map((c) => c.overhead);
  return `chat overhead p95 in the first ${phaseS} s ${p95(early)} ms (n=${early.length}), after them ${p95(late)} ms (n=${late.length})`;
}

/** A process's peak resident memory so far (MB, /proc VmHWM), or "?" */
export function peakRssMb(pid: number): string {
  try {
    const kb = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? (Number(kb) / 1024).toFixed(0) : "?";
  } catch {
    return "?";
  }
}

/** ms of `stats`' GCs longer than 5 ms inside [fromUs, toUs] */
export function longGcMs(s: LoopStats, fromUs: number, toUs: number): number {
  let ms = 0;
  for (const g of s.gc.long) {
    const a = Math.max(fromUs, g.atUs);
    const b = Math.min(toUs, g.atUs + g.ms * 1000);
    if (b > a) ms += (b - a) / 1000;
  }
  return ms;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);

/**
 * Prints the processes' statistics and the slow chats' split; `firstTokenMs`: the model's own first token.
 * `apps`: URL → the name of the app process serving it.
 */
export function printTail(
  dir: string,
  chats: ChatTime[],
  stats: Record<string, LoopStats | null>,
  apps: Record<string, string>,
  firstTokenMs: number,
): void {
  // the fresh processes' first seconds are reported apart (byPhase): the split here is of the rest
  const startUs = Math.min(...Object.values(stats).map((s) => s?.fromUs ?? Number.POSITIVE_INFINITY));
  const steady = chats.filter((c) => (c.sentUs - startUs) / 1e6 >= PHASE_S);
  console.log("  event loops over the mix (loop-stats.mjs):");
  for (const [name, s] of Object.entries(stats)) if (s) console.log(statsLine(name, s));
  const sorted = [...steady].sort((a, b) => a.overhead - b.overhead);
  const n = sorted.length;
  if (n < 20) return;
  const groups: Array<[string, ChatTime[]]> = [
    ["median (p45–p55)", sorted.slice(Math.floor(n * 0.45), Math.ceil(n * 0.55))],
    ["slowest 5 %", sorted.slice(Math.floor(n * 0.95))],
  ];
  console.log(
    `  chats after the first ${PHASE_S} s: sendMessage response (sent → response read) + the rest (→ first DELTA − the model's first token); ms of each process's stalls inside the response's wait, and of its own app's GCs > 5 ms:`,
  );
  for (const [label, g] of groups) {
    const response = (c: ChatTime): [number, number] => [c.sentUs, c.sentUs + c.respMs * 1000];
    const stalled = Object.entries(stats)
      .filter(([, s]) => s)
      .map(([name, s]) => `${name} ${f1(mean(g.map((c) => stalledMs(s as LoopStats, ...response(c)))))}`);
    const ownOf = (c: ChatTime) => stats[apps[c.url]];
    const own = g.map((c) => {
      const s = ownOf(c);
      return s ? stalledMs(s, ...response(c)) : 0;
    });
    const ownGc = g.map((c) => {
      const s = ownOf(c);
      return s ? longGcMs(s, ...response(c)) : 0;
    });
    console.log(
      `    ${label.padEnd(17)} n=${String(g.length).padStart(4)}  overhead ${f1(mean(g.map((c) => c.overhead)))} ms = response ${f1(mean(g.map((c) => c.respMs)))} + rest ${f1(mean(g.map((c) => c.overhead - c.respMs)))} ms   stalled: ${stalled.join(", ")}, own app ${f1(mean(own))} (${Math.round((100 * own.filter((x) => x > 0).length) / g.length)} % of them), own GC ${f1(mean(ownGc))}`,
    );
  }
  writeFileSync(path.join(dir, "mix-tail.json"), JSON.stringify({ firstTokenMs, apps, chats, stats }));
}
