/**
 * Two API processes over one store (the store in its own process, as start:cluster runs it):
 *   npm run bench:cluster                    everything (~2.5 min)
 *   npm run bench:cluster -- --duration 3 --connections 10 --burst 50 --rounds 2 --users 400 --mix-duration 60
 *   npm run bench:cluster -- --parts throughput,burst,mix      (any subset)
 *   npm run bench:cluster -- --parts burst --count-commands    (store commands per answer, through a proxy)
 *   npm run bench:cluster -- --parts premodel                  (CPU before the model request, per question)
 *   npm run bench:cluster -- --parts mix --store-cpu-prof DIR  (the store process's V8 CPU profile)
 *   npm run bench:cluster -- --parts mix --store-dbpath DIR    (the store durable in DIR, as in production)
 *   npm run bench:cluster -- --parts mix --loop-stats DIR      (each process's event-loop tail over the mix:
 *     bench/cluster/tail.ts; with --cpu-prof, bench/cluster/stalls.ts lists what ran in app A's long tasks)
 *   npm run bench:cluster -- --parts mix --mix-warmup 15       (the users run 15 s first, not counted: warm
 *     processes; the first seconds of fresh ones cost ~2.7× the CPU per action, bench/cluster/tail.ts)
 *   npm run bench:cluster -- --parts mix --no-warmup          (the app processes skip their start-up warm-up,
 *     api/src/warmup.ts: WARMUP=0; by default they warm before listening, as a server does)
 *   npm run bench:cluster -- --parts mix --app-node-args "--max-semi-space-size=32"   (node options of A and B)
 *   npm run bench:cluster -- --parts mix --mix-actions search,browse   (only these actions: CPU per action of each)
 * 1. throughput: GET /api/knowledge and a GraphQL searchKnowledge query, signed in as the built-in admin,
 *    1 process vs 2 (connections split between their ports; req/s summed; `--duration` s per run), CPU per
 *    request and the ratio ceiling; `--client wrk|autocannon` (default wrk when on PATH, bench/wrk.ts),
 *    `--cases knowledge|search` (one case, e.g. for `--cpu-prof`).
 * 2. burst: `--burst` (50) questions at the same moment, first-token overhead (bench/cluster.chat.ts) with
 *    1 process, 2 processes where each browser asks and listens on the same process, and 2 processes where it
 *    listens on the other one (as a round-robin proxy may route its websocket).
 * 2b. premodel (not in the default parts): the CPU (app + store) one question costs before its model request
 *    leaves, measured alone (the model holds its first token meanwhile, bench/cluster.chat.ts preModelBurst),
 *    1 process and 2: the burst's last model request waits for about n × that ÷ the cores it gets.
 * 3. mix: `--users` (400) virtual users chatting, searching and browsing with 2–6 s think time over 2
 *    processes for `--mix-duration` (60) s: errors, chat overhead p95, search and browse p95.
 * The clients (but wrk) run in this process and compete for the same cores: read every figure with the load
 * average printed beside it.
 */
import { randomBytes } from "node:crypto";
import os from "node:os";
import { rest } from "../api/src/testing/client";
import { startAppProcess, startStoreProcess } from "../api/src/testing/processes";
import type { WarmupReport } from "../api/src/warmup";
import { mix } from "./cluster/mix";
import { loopStatsLaunch } from "./cluster/tail";
import { MIX_SHARES, type MixAction } from "./cluster/users";
import {
  ACCOUNTS_MAX,
  chatBurst,
  FIRST_TOKEN_MS,
  makeAccounts,
  type Provider,
  preModelBurst,
  startProvider,
  summary,
  TOKENS_PER_ANSWER,
} from "./cluster.chat";
import { arg, autocannon, type CpuSplit, cpuSampler, formatCpu } from "./load";
import { perAnswer, startWireCounter, type WireCounter } from "./wire-count";
import { type Client, throughputClient, wrk } from "./wrk";

const duration = arg("duration", 5);
const connections = arg("connections", 20);
const burst = arg("burst", 50);
const rounds = arg("rounds", 2);
const users = arg("users", 400);
const mixDuration = arg("mix-duration", 60);
/** `--mix-warmup S`: the users run S seconds before the measured part (not counted; 0: none, as until stop 30) */
const mixWarmup = arg("mix-warmup", 0);
const actionsArg = process.argv.indexOf("--mix-actions");
/** `--mix-actions search,browse`: the users take only these kinds of action (their shares kept in proportion) */
const mixActions =
  actionsArg >= 0 ? (process.argv[actionsArg + 1].split(",").map((k) => k.trim()) as MixAction[]) : undefined;
if (mixActions?.some((k) => !(k in MIX_SHARES))) throw new Error(`--mix-actions: chat, search or browse`);
const appArgsAt = process.argv.indexOf("--app-node-args");
/** `--app-node-args "…"`: node options for both app processes (e.g. "--max-semi-space-size=32") */
const appNodeArgs = appArgsAt >= 0 ? process.argv[appArgsAt + 1].split(" ").filter(Boolean) : [];
const profArg = process.argv.indexOf("--cpu-prof");
/** `--cpu-prof DIR`: app A writes a V8 CPU profile there when it stops (open it in Chrome DevTools) */
const profDir = profArg >= 0 ? process.argv[profArg + 1] : null;
const storeProfArg = process.argv.indexOf("--store-cpu-prof");
/** `--store-cpu-prof DIR`: the store process writes a V8 CPU profile there when it stops */
const storeProfDir = storeProfArg >= 0 ? process.argv[storeProfArg + 1] : null;
const storeDirArg = process.argv.indexOf("--store-dbpath");
/** `--store-dbpath DIR`: the store keeps its data (write-ahead log, snapshots) in DIR instead of memory only */
const storeDbpath = storeDirArg >= 0 ? process.argv[storeDirArg + 1] : undefined;
/** `--no-warmup`: the app processes start cold (WARMUP=0), as every start did until stop 32 */
const appWarmup = !process.argv.includes("--no-warmup");
const loopStatsArg = process.argv.indexOf("--loop-stats");
/** `--loop-stats DIR`: every process records its event loop's tail over the mix (bench/cluster/tail.ts) */
const loopStatsDir = loopStatsArg >= 0 ? process.argv[loopStatsArg + 1] : null;
const launch = (name: string) =>
  loopStatsDir ? loopStatsLaunch(loopStatsDir, name) : { nodeArgs: [], env: {} };
/** `--count-commands`: the apps reach the store through a counting proxy; bursts print commands per answer */
const countCommands = process.argv.includes("--count-commands");
let counter: WireCounter | null = null;
const partsArg = process.argv.indexOf("--parts");
const parts = new Set(
  (partsArg >= 0 ? process.argv[partsArg + 1] : "throughput,burst,mix").split(",").map((p) => p.trim()),
);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
const PASSWORD = "bench-admin-password";

interface Case {
  /** what `--cases` calls it */
  key: string;
  name: string;
  path: string;
  method?: string;
  body?: string;
}
const CASES: Case[] = [
  { key: "knowledge", name: "GET /api/knowledge", path: "/api/knowledge" },
  {
    key: "search",
    name: "GraphQL searchKnowledge",
    path: "/graphql",
    method: "POST",
    body: JSON.stringify({
      query: '{ searchKnowledge(query: "klagefrist") { total hits { article { id } } } }',
    }),
  },
];

interface Run {
  rps: number;
  requests: number;
  /** cores of the client (autocannon: this process; wrk: the wrk processes), store, A, B, other */
  cpu: CpuSplit;
  /** CPU seconds the client used */
  clientSeconds: number;
  /** latency percentiles (ms) of the slower port */
  p50: number;
  p99: number;
}

/** The processes whose CPU each run reports (pids). */
let processes: Record<string, number> = {};

const HEADERS = (token: string) => ({
  // as a browser sends them
  authorization: `Bearer ${token}`,
  "content-type": "application/json",
  "accept-encoding": "gzip, deflate, br",
});

/** A run with errors is not a throughput figure: print what the client said and stop the bench. */
function failOnErrors(c: Case, errors: number, detail: string): void {
  if (errors > 0) throw new Error(`${c.name}: ${errors} errors during a throughput run\n${detail}`);
}

async function run(client: Client, urls: string[], c: Case, token: string): Promise<Run> {
  const perUrl = Math.max(1, Math.round(connections / urls.length));
  const opts = (url: string) => ({
    url: `${url}${c.path}`,
    method: c.method ?? "GET",
    connections: perUrl,
    duration,
    body: c.body,
    headers: HEADERS(token),
  });
  if (client === "wrk") {
    // wrk is not a child the sampler knows: its CPU comes from its own report and leaves `other`
    const { client: bench, ...servers } = processes;
    const sampler = cpuSampler({ bench, ...servers });
    const results = await Promise.all(urls.map((url) => wrk(opts(url))));
    const cpu = sampler.stop();
    for (const r of results)
      failOnErrors(
        c,
        r.non2xx + r.socketErrors,
        `non-2xx ${r.non2xx}, socket errors ${r.socketErrors}\n${r.output}`,
      );
    const clientSeconds = results.reduce((s, r) => s + (r.cpuSeconds ?? Number.NaN), 0);
    cpu.cores = { client: clientSeconds / cpu.seconds, ...cpu.cores };
    if (cpu.other !== null) cpu.other = Math.max(0, cpu.other - cpu.cores.client);
    return {
      rps: results.reduce((s, r) => s + r.rps, 0),
      requests: results.reduce((s, r) => s + r.requests, 0),
      cpu,
      clientSeconds,
      p50: Math.max(...results.map((r) => r.p50)),
      p99: Math.max(...results.map((r) => r.p99)),
    };
  }
  const sampler = cpuSampler(processes);
  const results = await Promise.all(urls.map((url) => autocannon(opts(url))));
  const cpu = sampler.stop();
  for (const r of results) failOnErrors(c, r.non2xx + r.errors, `non-2xx ${r.non2xx}, errors ${r.errors}`);
  return {
    rps: results.reduce((s, r) => s + r.requests.average, 0),
    requests: results.reduce((s, r) => s + r.requests.total, 0),
    cpu,
    clientSeconds: (cpu.cores.client ?? 0) * cpu.seconds,
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
  };
}

/** Requests per CPU second of the app processes (what the servers cost, whatever the client or machine) */
function perServerCpuSecond(r: Run): number {
  const server = (r.cpu.cores.A ?? 0) + (r.cpu.cores.B ?? 0);
  return server > 0 ? r.rps / server : 0;
}

/** CPU µs per request of the client, the apps (A + B) and the store: figures that do not depend on the load */
function cpuPerRequest(r: Run): { client: number; app: number; store: number } {
  const s = r.cpu.seconds / r.requests;
  return {
    client: r.clientSeconds / r.requests,
    app: ((r.cpu.cores.A ?? 0) + (r.cpu.cores.B ?? 0)) * s,
    store: (r.cpu.cores.store ?? 0) * s,
  };
}

function perRequest(r: Run): string {
  const us = (seconds: number) => (seconds * 1e6).toFixed(0);
  const c = cpuPerRequest(r);
  return `CPU per request: client ${us(c.client)} µs  app ${us(c.app)} µs  store ${us(c.store)} µs   latency p50 ${r.p50.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms`;
}

/**
 * The best 2 ÷ 1 ratio this machine allows with this client, from the CPU per request of the 1-process run: one
 * process is at most one core busy (1 ÷ app per request); two share the cores with the client and the store
 * (cores ÷ (app + client + store)), and two processes can at most double one. Independent of the load.
 */
function ratioCeiling(one: Run): number {
  const c = cpuPerRequest(one);
  return Math.min(2, (os.cpus().length * c.app) / (c.app + c.client + c.store));
}

async function throughput(a: string, b: string, token: string): Promise<void> {
  const client = throughputClient(process.argv);
  // `--cases knowledge` (or `search`): one case only, e.g. for a --cpu-prof profile of it alone
  const casesArg = process.argv.indexOf("--cases");
  const only = casesArg >= 0 ? process.argv[casesArg + 1].split(",") : null;
  console.log(
    `throughput client: ${client}; cores used during each run (CPU s ÷ wall s): client = ${client === "wrk" ? "the wrk processes (their own /proc stat)" : "this process (autocannon)"}, store, app A, B${client === "wrk" ? ", bench = this process" : ""}`,
  );
  for (const c of CASES.filter((k) => !only || only.includes(k.key))) {
    await run(client, [a, b], c, token); // warm-up of both (JIT, caches), not counted
    const one = await run(client, [a], c, token);
    const two = await run(client, [a, b], c, token);
    console.log(
      `${c.name.padEnd(26)} 1 process ${one.rps.toFixed(0).padStart(6)} req/s   2 processes ${two.rps
        .toFixed(0)
        .padStart(6)} req/s   ratio ${(two.rps / one.rps).toFixed(2)}   errors 0   load ${load()}`,
    );
    for (const [name, r] of [
      ["1 process:  ", one],
      ["2 processes:", two],
    ] as const) {
      console.log(`  ${name} ${formatCpu(r.cpu)}   ${perServerCpuSecond(r).toFixed(0)} req per app CPU s`);
      console.log(`                ${perRequest(r)}`);
    }
    console.log(
      `  ratio ceiling with this client on ${os.cpus().length} cores: ${ratioCeiling(one).toFixed(2)} (cores × app ÷ (app + client + store), CPU per request of the 1-process run)`,
    );
  }
}

async function bursts(a: string, b: string, tokens: string[]): Promise<void> {
  console.log(
    `\nChat burst: ${burst} questions at once, ${rounds} rounds (+1 warm-up); first DELTA − sent − ${FIRST_TOKEN_MS} ms (model's first token); goal p95 ≤ 30 ms`,
  );
  const cases: Array<[string, string[], string[]]> = [
    ["1 process", [a], [a]],
    ["2 processes, same", [a, b], [a, b]],
    ["2 processes, crossed", [a, b], [b, a]],
  ];
  for (const [name, ask, listen] of cases) {
    let commands = "";
    const r = await chatBurst(
      ask,
      listen,
      tokens,
      burst,
      rounds,
      () => {
        const sampler = cpuSampler(processes);
        const before = counter?.counts();
        return {
          stop() {
            if (counter && before) commands = perAnswer(before, counter.counts(), burst * rounds);
            return sampler.stop();
          },
        };
      },
      () => cpuSampler(processes),
    );
    const e = r.samples.length ? ` e.g. ${r.samples.join(" | ")}` : "";
    console.log(`  ${name.padEnd(22)} ${summary(r.overheads)}   errors ${r.errors}${e}   load ${load()}`);
    if (name === "1 process" && r.first.cpu && r.first.overheads.length > 0) {
      // the first case's uncounted round is the fresh processes' first questions: cold, unless they warmed up
      console.log(`    first round (fresh processes, not counted): ${summary(r.first.overheads)}`);
      console.log(`    first round ${cpuPerAnswer(r.first.cpu, r.first.overheads.length)}`);
    }
    if (r.cpu && r.answers > 0) {
      // what the servers spent per answer and per streamed token, whatever share of the cores they got
      const appCpuMs = ((r.cpu.cores.A ?? 0) + (r.cpu.cores.B ?? 0)) * r.cpu.seconds * 1000;
      const tokens = r.answers * TOKENS_PER_ANSWER;
      console.log(`    ${cpuPerAnswer(r.cpu, r.answers)}`);
      console.log(
        `    app CPU ${((appCpuMs * 1000) / tokens).toFixed(0)} µs/token   frames ${(r.deltaFrames / r.answers).toFixed(1)}/answer (${TOKENS_PER_ANSWER} tokens)`,
      );
    }
    if (commands) console.log(`    ${commands}`);
  }
}

/** CPU ms per answer of the app processes (A + B) and the store: the figure that does not depend on the load */
function cpuPerAnswer(cpu: CpuSplit, answers: number): string {
  const ms = (name: string) => (((cpu.cores[name] ?? 0) * cpu.seconds) / answers) * 1000;
  return `CPU per answer: app ${(ms("A") + ms("B")).toFixed(1)} ms (A ${ms("A").toFixed(1)}, B ${ms("B").toFixed(1)})  store ${ms("store").toFixed(1)} ms  client ${ms("client").toFixed(1)} ms  (${formatCpu(cpu)})`;
}

async function preModel(a: string, b: string, tokens: string[], provider: Provider): Promise<void> {
  console.log(
    `\nPre-model path: ${burst} questions at once, the model holding its first token; CPU from the sends until the ${burst}th model request arrived, per question`,
  );
  const cases: Array<[string, string[]]> = [
    ["1 process", [a]],
    ["2 processes", [a, b]],
  ];
  for (const [name, ask] of cases) {
    // with --count-commands, each window's store commands too (per question)
    const windows: string[] = [];
    const sampler = () => {
      const cpu = cpuSampler(processes);
      const before = counter?.counts();
      return {
        stop: () => {
          if (counter && before) windows.push(perAnswer(before, counter.counts(), burst));
          return cpu.stop();
        },
      };
    };
    const runs = await preModelBurst(ask, tokens, burst, rounds, provider, sampler);
    if (profDir)
      console.log(`  windows (bench/cpu-stages.ts --windows): ${runs.map((r) => r.window).join(",")}`);
    for (const r of runs) {
      const ms = (p: string) => (((r.cpu.cores[p] ?? 0) * r.cpu.seconds) / burst) * 1000;
      const app = ms("A") + ms("B");
      // the n-th question's model request waits for the pre-model work of all n on the cores they get
      console.log(
        `  ${name.padEnd(12)} app ${app.toFixed(1)} ms (A ${ms("A").toFixed(1)}, B ${ms("B").toFixed(1)})  store ${ms("store").toFixed(1)} ms  = ${(app + ms("store")).toFixed(1)} ms/question   ${burst}th request after ${r.lastRequestMs.toFixed(0)} ms   (${formatCpu(r.cpu)})   load ${load()}`,
      );
      const commands = windows[runs.indexOf(r)];
      if (commands)
        console.log(`    store ${commands.replace("per answer", "per question before its model request")}`);
    }
  }
}

function pidOf(child: { process: { pid?: number } }): number {
  if (!child.process.pid) throw new Error("child process has no pid");
  return child.process.pid;
}

async function main(): Promise<void> {
  const provider = await startProvider();
  const store = await startStoreProcess({
    dbpath: storeDbpath,
    nodeArgs: [
      ...launch("store").nodeArgs,
      ...(storeProfDir ? ["--cpu-prof", `--cpu-prof-dir=${storeProfDir}`] : []),
    ],
    env: launch("store").env,
  });
  counter = countCommands ? await startWireCounter(store.first) : null;
  const env = {
    MONGODB_URI: counter?.uri ?? store.first,
    JWT_SECRET: randomBytes(32).toString("hex"),
    ADMIN_PASSWORD: PASSWORD,
    LOG_LEVEL: "silent",
    // as the Docker image runs: graphql-js, express and others take their production paths (graphql-js checks
    // every value's class in development: ~9 % of a streamed delta's delivery)
    NODE_ENV: "production",
    // the start-up warm-up (api/src/warmup.ts), on in production
    WARMUP: appWarmup ? "1" : "0",
    OPENAI_BASE_URL: provider.baseURL,
    // the mix has several virtual users per account (ACCOUNTS_MAX accounts)
    CHAT_LIMITS: JSON.stringify({
      maxInFlightPerUser: Math.max(2, Math.ceil(users / ACCOUNTS_MAX) + 1),
      llmTimeoutMs: 60_000,
    }),
  };
  const a = await startAppProcess({ ...env, ...launch("A").env }, [
    ...appNodeArgs,
    ...launch("A").nodeArgs,
    ...(profDir ? ["--cpu-prof", `--cpu-prof-dir=${profDir}`] : []),
  ]);
  const b = await startAppProcess({ ...env, ...launch("B").env }, [...appNodeArgs, ...launch("B").nodeArgs]);
  for (const [name, p] of [
    ["A", a],
    ["B", b],
  ] as const) {
    const w = (JSON.parse(p.first) as { warmup?: WarmupReport | null }).warmup;
    console.log(
      w
        ? `app ${name} warm-up: ${w.rounds} rounds, ${w.ms} ms wall, ${w.cpuMs} ms CPU, ${w.connectionsOpened} connections opened; CPU ms per lane by round ${w.laneCpuMs.join(" ")} (api/src/warmup.ts)`
        : `app ${name}: no warm-up (cold start)`,
    );
  }
  try {
    const login = await rest(a, "POST", "/api/auth/login", {
      body: { email: "admin@minksekretariatet.dk", password: PASSWORD },
    });
    if (login.status !== 200) throw new Error(`login failed: ${login.status}`);
    const token = login.body.token as string;
    processes = { client: process.pid, store: pidOf(store), A: pidOf(a), B: pidOf(b) };
    console.log(`cores ${os.cpus().length}, load average ${load()} at the start`);
    if (parts.has("throughput")) await throughput(a.url, b.url, token);
    if (!parts.has("burst") && !parts.has("mix") && !parts.has("premodel")) return;
    const accounts = await makeAccounts(store.first, a.url, Math.min(ACCOUNTS_MAX, Math.max(burst, users)));
    if (parts.has("premodel")) await preModel(a.url, b.url, accounts, provider);
    if (parts.has("burst")) await bursts(a.url, b.url, accounts);
    if (parts.has("mix"))
      await mix(a.url, b.url, accounts, provider, {
        users,
        mixDuration,
        mixWarmup,
        actions: mixActions,
        processes,
        counter,
        loopStatsDir,
        load,
      });
  } finally {
    await Promise.all([a.stop(), b.stop()]);
    await counter?.close();
    await store.stop();
    await provider.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
