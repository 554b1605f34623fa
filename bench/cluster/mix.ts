/**
 * The 400-user mix of `npm run bench:cluster` (bench/cluster.bench.ts): runs the users (users.ts) and prints
 * the chats' first-token overhead, the other actions' latency, CPU per chat and per action, and with
 * `--loop-stats` each process's event-loop tail (tail.ts); `--mix-warmup S` runs the users S s first, not
 * counted, and prints the warm-up's own figures.
 */
import { FIRST_TOKEN_MS, type Provider, percentile, summary, TOKENS_PER_ANSWER } from "../cluster.chat";
import { type CpuSplit, cpuSampler, formatCpu } from "../load";
import { perAnswer, type WireCounter } from "../wire-count";
import { startLoopStats } from "./loop-stats.mjs";
import { byPhase, lastWindow, PHASE_S, peakRssMb, printTail, signalWindow } from "./tail";
import { type MixAction, userMix } from "./users";

export interface MixOptions {
  users: number;
  /** the measured part (s) */
  mixDuration: number;
  /** the uncounted warm-up before it (s) */
  mixWarmup: number;
  /** pids of client, store, A, B */
  processes: Record<string, number>;
  counter: WireCounter | null;
  loopStatsDir: string | null;
  /** the load average, printed beside the figures */
  load: () => string;
  /** the kinds of action the users take (default all three, in the issue's shares) */
  actions?: readonly MixAction[];
}

export async function mix(
  a: string,
  b: string,
  tokens: string[],
  provider: Provider,
  o: MixOptions,
): Promise<void> {
  const { users, mixDuration, mixWarmup, processes, counter, loopStatsDir, load, actions: kinds } = o;
  console.log(
    `\nUser mix: ${users} users over 2 processes, think time 2–6 s, ${mixDuration} s (${kinds ? `only ${kinds.join(", ")}` : "chat 30 %, search 35 %, browse 35 %"})`,
  );
  const servers = [processes.store, processes.A, processes.B];
  const loop: { own: ReturnType<typeof startLoopStats> | null } = { own: null };
  // without a warm-up the CPU counts from before the seats are set up (as in stops up to 30), else from the
  // measured part's start
  const window = { sampler: mixWarmup ? null : cpuSampler(processes), before: counter?.counts() };
  const warm: { cpu: CpuSplit | null } = { cpu: null };
  const r = await userMix([a, b], tokens, users, mixDuration, {
    warmupS: mixWarmup,
    actions: kinds,
    onUsers: () => {
      if (mixWarmup) window.sampler = cpuSampler(processes);
    },
    onStart: () => {
      if (mixWarmup) {
        warm.cpu = window.sampler?.stop() ?? null;
        Object.assign(window, { sampler: cpuSampler(processes), before: counter?.counts() });
      }
      if (!loopStatsDir) return;
      // each process's measured window starts (its first line, the start-up and warm-up, is skipped)
      signalWindow(servers);
      loop.own = startLoopStats();
      void provider.loopStats();
    },
  });
  if (!window.sampler) throw new Error("the mix's measured part never started");
  const cpu = window.sampler.stop();
  const before = window.before;
  if (loopStatsDir && loop.own) {
    signalWindow(servers);
    const stats = {
      A: await lastWindow(loopStatsDir, "A", 2),
      B: await lastWindow(loopStatsDir, "B", 2),
      store: await lastWindow(loopStatsDir, "store", 2),
      client: loop.own.snapshot(),
      provider: await provider.loopStats(),
    };
    printTail(loopStatsDir, r.chatTimes, stats, { [a]: "A", [b]: "B" }, FIRST_TOKEN_MS);
  }
  const commands = counter && before ? perAnswer(before, counter.counts(), r.chat.length) : "";
  if (mixWarmup)
    console.log(`  warm-up chats  ${summary(r.warmupChat)}   (the first ${mixWarmup} s, not counted)`);
  console.log(`  chat overhead ${summary(r.chat)}   (goal p95 ≤ 30 ms)`);
  console.log(`  ${byPhase(r.chatTimes, r.startUs, PHASE_S)}`);
  console.log(`  search        ${summary(r.search)}`);
  console.log(`  browse        ${summary(r.browse)}`);
  console.log(
    `  errors ${r.errors}${r.errorSamples.length ? ` e.g. ${r.errorSamples.join(" | ")}` : ""}   load ${load()}`,
  );
  console.log(`  chat overhead p99 ${percentile(r.chat, 99).toFixed(1)} ms`);
  const frames = r.chatFrames.reduce((sum, n) => sum + n, 0);
  console.log(
    `  DELTA frames per answer ${(frames / Math.max(1, r.chatFrames.length)).toFixed(1)} (${TOKENS_PER_ANSWER} tokens)`,
  );
  const actions = r.chat.length + r.search.length + r.browse.length;
  const appS = ((cpu.cores.A ?? 0) + (cpu.cores.B ?? 0)) * cpu.seconds;
  console.log(
    `  app CPU ${appS.toFixed(1)} s for ${r.chat.length} chats + ${actions - r.chat.length} other actions (${formatCpu(cpu)})`,
  );
  // the mix's actions share the processes: all of its CPU per chat (an upper bound of a chat's own) and per action
  const ms = (p: string, n: number) => (n > 0 ? (((cpu.cores[p] ?? 0) * cpu.seconds) / n) * 1000 : 0);
  const split = (n: number) =>
    `A ${ms("A", n).toFixed(1)} + B ${ms("B", n).toFixed(1)} ms app, store ${ms("store", n).toFixed(1)} ms`;
  console.log(`  CPU per chat (all the mix's CPU ÷ chats): ${split(r.chat.length)}`);
  console.log(`  CPU per action (÷ ${actions}): ${split(actions)}`);
  const w = warm.cpu;
  if (w) {
    // the fresh processes' first seconds: JIT, empty caches, every session's first question
    const wms = (p: string) => (((w.cores[p] ?? 0) * w.seconds) / Math.max(1, r.warmupActions)) * 1000;
    console.log(
      `  CPU per action in the warm-up (÷ ${r.warmupActions}): A ${wms("A").toFixed(1)} + B ${wms("B").toFixed(1)} ms app, store ${wms("store").toFixed(1)} ms`,
    );
  }
  if (commands)
    console.log(`  store ${commands.replace("per answer", "per chat (all of the mix's ÷ chats)")}`);
  console.log(
    `  peak RSS (VmHWM): ${["A", "B", "store"].map((p) => `${p} ${peakRssMb(processes[p])} MB`).join(", ")}`,
  );
}
