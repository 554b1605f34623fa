/**
 * Where an app process's CPU went, by stage, from a V8 CPU profile (`npm run bench:cluster -- --parts burst
 * --cpu-prof DIR` writes app A's): each busy sample after the first sendMessage is put in the first stage whose
 * code is on its stack (order below: GC, delivery, model call, … , store driver, then "other node").
 *   npx tsx bench/cpu-stages.ts DIR/CPU.….cpuprofile
 *   npx tsx bench/cpu-stages.ts DIR/CPU.….cpuprofile --windows FROM-TO,…   only samples in these intervals (µs
 *     of the monotonic clock, as the pre-model part of bench:cluster prints them)
 *   … --top N   also the N functions with the most time on the stack (inclusive) and by their own (self)
 *   … --fine    the finer stage split (FINE_STAGES below)
 *   … --from-start   every sample (a profile without chats, e.g. the mix with --mix-actions search)
 */
import { readFileSync } from "node:fs";
import { type Profile, stackReader } from "./cpu-profile";

const STAGES: Array<[string, RegExp]> = [
  ["GC", /^\(garbage collector\)@/],
  [
    "delivery: graphql-ws, ws frames",
    /lib\/sender\.js|graphql-ws|ws\.execute|use\/ws\.js|lib\/receiver\.js|lib\/websocket\.js/,
  ],
  ["model call: openai SDK + fetch + SSE", /node_modules\/openai|undici|webstreams|llm\.client|llm\.fetch/],
  ["auth (sign-in check)", /auth\/auth\.(service|cache|watch)/],
  ["activity log", /activity\//],
  ["follow-ups", /follow-ups/],
  ["retrieval + prompt", /search\/|knowledge\/|answer\/prompt|retrieval/],
  ["events bus / change streams", /events\/|chat\.events/],
  ["slots", /chat\.slots/],
  ["send path (chat code)", /chat\/chat\.(send|send-claim|ownership|branches|turn|tree|resolver|presenter)/],
  ["runner (heartbeat, final write)", /chat\.runner|chat\.heartbeats/],
  [
    "HTTP + Apollo",
    /@apollo|express|http-edge|app\.ts|_http_server|_http_outgoing|_http_common|node_modules\/graphql\/|complexity|type-graphql|body-parser/,
  ],
  ["store driver (mongodb, mongoose, bson)", /mongodb|bson|mongoose/],
  ["timers, ticks, other node", /./],
];

/**
 * `--fine`: the finer split of perf17 (GraphQL parse/validate apart from execution, the HTTP framework apart from
 * node's HTTP, the driver apart from mongoose and bson, socket writes and JSON by the sample's own function).
 * By own function first (LEAF_STAGES), then by the stack in this order.
 */
const LEAF_STAGES: Array<[string, RegExp]> = [
  ["GC", /^\(garbage collector\)@/],
  ["socket writes (syscall)", /^(writeBuffer|writev|writeUtf8String|writeLatin1String)@$/],
  ["JSON stringify/parse (builtin)", /^(stringify|parse)@$/],
];
const FINE_STAGES: Array<[string, RegExp]> = [
  ["delivery: graphql-ws, event execution, ws frames", STAGES[1][1]],
  ["model call: openai SDK + fetch + SSE", STAGES[2][1]],
  ["auth (sign-in check)", STAGES[3][1]],
  ["activity log", STAGES[4][1]],
  ["follow-ups", STAGES[5][1]],
  ["retrieval + prompt (search, gate, quotes)", STAGES[6][1]],
  ["events bus / change streams", STAGES[7][1]],
  ["chat code (send path, slots, runner, heartbeats)", /chat\/chat\./],
  [
    "GraphQL parse + validate",
    /graphql\/(language|validation)\/|complexity|limits\.ts|computeQueryHash|utils\.createhash/,
  ],
  [
    "GraphQL execute (graphql-js, type-graphql, resolvers' wrappers)",
    /graphql\/(execution|type|jsutils)\/|type-graphql|response-size/,
  ],
  [
    "Apollo, express, body-parser, helmet",
    /@apollo|@as-integrations|express|router\/|body-parser|raw-body|helmet|http-edge|app\.ts|cookie-parser|negotiator|content-type/,
  ],
  ["node HTTP (server and client)", /_http_/],
  ["mongoose", /mongoose/],
  ["bson", /bson/],
  ["mongodb driver", /mongodb/],
  ["timers, ticks, streams, other node", /./],
];
const fine = process.argv.includes("--fine");
/** `--from-start`: every sample, not only those after the first sendMessage (a mix without chats) */
const fromStart = process.argv.includes("--from-start");

const profile = JSON.parse(readFileSync(process.argv[2], "utf8")) as Profile;
const windowsArg = process.argv.indexOf("--windows");
const windows =
  windowsArg >= 0 ? process.argv[windowsArg + 1].split(",").map((w) => w.split("-").map(Number)) : null;
/** each sample's time (µs, monotonic clock) */
const times: number[] = [];
profile.timeDeltas.reduce((t, d) => {
  times.push(t + d);
  return t + d;
}, profile.startTime);
const inWindows = (i: number) => !windows || windows.some(([from, to]) => times[i] >= from && times[i] <= to);
const stackOf = stackReader(profile);
const topArg = process.argv.indexOf("--top");
const top = topArg >= 0 ? Number(process.argv[topArg + 1]) : 0;
const inclusive = new Map<string, number>();
const self = new Map<string, number>();
const short = (f: string) =>
  f.replace(/file:\/\/\/.*?node_modules\//, "").replace(/file:\/\/\/.*?\/(api|packages)\//, "$1/");
const byStage = new Map<string, number>();
let total = 0;
let started = false;
profile.samples.forEach((sample, i) => {
  if (!inWindows(i)) return;
  const stack = stackOf(sample);
  const frames = stack.map((n) => `${n.callFrame.functionName}@${n.callFrame.url}`);
  if (!started && !fromStart && !frames.some((f) => f.includes("sendMessage"))) return;
  started = true;
  if (stack[0]?.callFrame.functionName === "(idle)") return;
  const d = profile.timeDeltas[i] ?? 0;
  total += d;
  if (top) {
    for (const f of new Set(frames.map(short))) inclusive.set(f, (inclusive.get(f) ?? 0) + d);
    const own = short(frames[0]);
    self.set(own, (self.get(own) ?? 0) + d);
  }
  const stage = fine
    ? (LEAF_STAGES.find(([, re]) => re.test(frames[0]))?.[0] ??
      FINE_STAGES.find(([, re]) => frames.some((f) => re.test(f)))?.[0] ??
      "other")
    : (STAGES.find(([, re]) => frames.some((f) => re.test(f)))?.[0] ?? "other");
  byStage.set(stage, (byStage.get(stage) ?? 0) + d);
});
console.log(
  `busy ${(total / 1000).toFixed(0)} ms after the first sendMessage${windows ? " in the windows" : ""}`,
);
for (const [stage, t] of [...byStage].sort((a, b) => b[1] - a[1]))
  console.log(
    `${((100 * t) / total).toFixed(1).padStart(6)} %  ${(t / 1000).toFixed(0).padStart(7)} ms  ${stage}`,
  );
for (const [name, map] of [
  ["inclusive", inclusive],
  ["self", self],
] as const) {
  if (!top) break;
  console.log(`\ntop ${top} by ${name} time`);
  for (const [f, t] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${((100 * t) / total).toFixed(1).padStart(6)} %  ${f}`);
}
