/**
 * What the HTTP load benchmarks share: autocannon (typed here: it ships no types), numeric flags, and the CPU
 * each process of a run used (cpuSampler).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

export interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}

export type Autocannon = (opts: {
  url: string;
  method?: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  body?: string;
}) => Promise<AutocannonResult>;

export const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

/** `--name N` on the command line, else `fallback`. */
export function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/** CPU seconds (user + system, every thread) a process has used so far: /proc/<pid>/stat (Linux), else null. */
export function cpuSecondsOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // the fields after "(comm)": state is field 3, utime 14, stime 15 (clock ticks)
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(rest[11]) + Number(rest[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** Busy CPU seconds of the whole machine (every process, ours or not): /proc/stat, else null. */
function machineBusySeconds(): number | null {
  try {
    const cpu = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, _idle, _iowait, irq, softirq, steal] = cpu;
    return (user + nice + system + irq + softirq + steal) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
/** USER_HZ: 100 on every Linux this runs on (`getconf CLK_TCK`) */
const CLOCK_TICKS = 100;

export interface CpuSplit {
  seconds: number;
  /** cores used by each named process over the interval (CPU seconds ÷ wall seconds) */
  cores: Record<string, number>;
  /** cores used by everything else on the machine (other users' work, the kernel's own) */
  other: number | null;
}

/**
 * Measures how much CPU each named process used between start() and stop(), and how much the rest of the
 * machine used meanwhile: the evidence of what a throughput figure is bound by.
 */
export function cpuSampler(pids: Record<string, number>): { stop(): CpuSplit } {
  const t0 = performance.now();
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSecondsOf(pid)]));
  const busy0 = machineBusySeconds();
  return {
    stop() {
      const seconds = (performance.now() - t0) / 1000;
      const cores: Record<string, number> = {};
      let ours = 0;
      for (const [name, pid] of Object.entries(pids)) {
        const b = before[name];
        const a = cpuSecondsOf(pid);
        if (a === null || b === null) continue;
        cores[name] = (a - b) / seconds;
        ours += a - b;
      }
      const busy1 = machineBusySeconds();
      const other = busy0 === null || busy1 === null ? null : Math.max(0, busy1 - busy0 - ours) / seconds;
      return { seconds, cores, other };
    },
  };
}

/** "client 0.61  store 0.22  A 1.02  other 0.05" (cores) */
export function formatCpu(split: CpuSplit): string {
  const parts = Object.entries(split.cores).map(([name, c]) => `${name} ${c.toFixed(2)}`);
  if (split.other !== null) parts.push(`other ${split.other.toFixed(2)}`);
  return parts.join("  ");
}
